import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.dirname(new URL(import.meta.url).pathname);
const INCLUDE = ["lib/**/*.test.ts", "scripts/**/*.test.ts", "components/**/*.test.ts"];

/**
 * Test files that need no process of their own: pure functions only. Anything that opens a
 * database, a server or a child process, reaches for lib/testing fixtures or changes the
 * environment keeps vitest's default (a fresh process per file); the rest share their worker's
 * modules, which saves importing them again for every file (measured on the 43 such files: 47 s
 * of CPU isolated, 12 s shared). A file that starts using any of these moves back by itself.
 */
const NEEDS_ITS_OWN_PROCESS = /createTestDatabase|createEmptyDatabase|startEmbedded|startOffline|lib\/testing\/|process\.env|globalThis|from "pg"|PrismaClient|\.listen\(|child_process|node:worker_threads|vi\.(mock|stub|spyOn|useFakeTimers)/;

function testFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = `${dir}/${d.name}`;
    if (d.isDirectory()) return d.name === "node_modules" || d.name.startsWith(".") ? [] : testFiles(rel);
    return d.name.endsWith(".test.ts") ? [rel] : [];
  });
}
const PURE = ["lib", "scripts", "components"].flatMap(testFiles).filter((f) => !NEEDS_ITS_OWN_PROCESS.test(readFileSync(path.join(root, f), "utf8")));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      // lib/ modules carry the `server-only` marker; tests run them as the server does.
      { find: /^server-only$/, replacement: path.join(root, "node_modules/server-only/empty.js") },
    ],
  },
  test: {
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    // Limits only catch hangs (speed is benchmarked, never asserted). The integration tests that
    // drive workers or import the 144-case data took 60-250 s in a loaded rehearsal, and a limit
    // met on a busy 2-core CI machine fails a correct test.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    projects: [
      { extends: true, test: { name: "pure", include: PURE, isolate: false } },
      {
        extends: true,
        test: {
          name: "integration",
          include: INCLUDE,
          exclude: PURE,
          // Template databases, built once per run and cloned per test file (lib/testing/templates.ts).
          globalSetup: ["lib/testing/global-setup.ts"],
        },
      },
    ],
  },
});
