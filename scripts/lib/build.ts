// Builds the Next.js app when the sources changed since the last build, so `npm start` on a
// fresh clone works without a separate build step and later starts skip the build.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

const INPUTS = ["app", "components", "lib", "public", "proxy.ts", "next.config.js", "postcss.config.mjs", "tsconfig.json", "package-lock.json", "prisma/schema.prisma"];
const STAMP = path.join(".next", "toolemu-build-hash");

function* walk(p: string): Generator<string> {
  if (!existsSync(p)) return;
  if (statSync(p).isFile()) {
    yield p;
    return;
  }
  for (const entry of readdirSync(p).sort()) {
    if (entry === "generated" || entry === "node_modules" || entry.endsWith(".test.ts")) continue;
    yield* walk(path.join(p, entry));
  }
}

export function sourceHash(): string {
  const h = createHash("sha256");
  for (const input of INPUTS) for (const file of walk(input)) h.update(file).update(readFileSync(file));
  return h.digest("hex");
}

export function buildIfNeeded(log: (s: string) => void, opts: { force?: boolean } = {}): void {
  const hash = sourceHash();
  const fresh = existsSync(path.join(".next", "BUILD_ID")) && existsSync(STAMP) && readFileSync(STAMP, "utf8") === hash;
  if (fresh && !opts.force) return;
  if (!opts.force) log("Building the web app (first start or changed sources; about 1 minute)…");
  const res = spawnSync(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (res.status !== 0) throw new Error("`next build` failed; see the output above.");
  writeFileSync(STAMP, hash);
}
