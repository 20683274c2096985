import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      // lib/ modules carry the `server-only` marker; tests run them as the server does.
      { find: /^server-only$/, replacement: path.join(root, "node_modules/server-only/empty.js") },
    ],
  },
  test: {
    include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "components/**/*.test.ts"],
    environment: "node",
    // Template databases, built once per run and cloned per test file (lib/testing/templates.ts).
    globalSetup: ["lib/testing/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
