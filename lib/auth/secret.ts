// NEXTAUTH_SECRET signs session cookies. Production deployments must set it; the embedded
// default generates one on first start and keeps it in the data folder, so sessions survive
// restarts without anyone having to invent a secret.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export function resolveAuthSecret(opts: { embedded: boolean; dataDir: string }): string {
  const fromEnv = process.env.NEXTAUTH_SECRET;
  if (fromEnv) return fromEnv;
  if (!opts.embedded) {
    throw new Error(
      "NEXTAUTH_SECRET is required when DATABASE_URL is set. Generate one with `openssl rand -base64 32`.",
    );
  }
  const file = path.join(opts.dataDir, "nextauth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
