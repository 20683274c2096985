import { execSync } from "node:child_process";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./e2e/support/chromium.mjs";

// One free port for the whole run: chosen in the runner process, inherited by its workers.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execSync(
    `node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"`,
  )
    .toString()
    .trim();
}
const port = Number(process.env.E2E_PORT);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "e2e",
  // Its own folder: Playwright empties outputDir at start, and test-results/ also holds vitest's report.
  outputDir: "test-results/playwright",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // Web-first assertions retry until this long: 5 s (the default) ran out on a 2-core machine at
  // load 15 (adjudicate, annotate-keyboard); a passing assertion returns as soon as it holds.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL,
    // A trace recorded for every test (kept only on failure) costs time on each action (about 10 %
    // of the UI-only specs' time, measured on a loaded machine). `npm test` and CI record none (CI
    // keeps only its log's tail); a failing spec re-run alone records one. E2E_TRACE overrides.
    trace: (process.env.E2E_TRACE ?? (process.env.CI ? "off" : "retain-on-failure")) as "off" | "on" | "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: "chromium", use: { browserName: "chromium" }, testIgnore: /axe\.spec\.ts$/ },
    // The accessibility sweep runs last: it opens pages with the data the other specs made (runs,
    // playground episodes), and whatever it must create itself cannot change what they assert.
    { name: "a11y", use: { browserName: "chromium" }, testMatch: /axe\.spec\.ts$/, dependencies: ["chromium"] },
  ],
  webServer: {
    // A fresh embedded database per run, started exactly as `npm start` starts the app.
    command: "rm -rf .data-e2e && node node_modules/tsx/dist/cli.mjs --conditions=react-server scripts/start.ts",
    url: `http://127.0.0.1:${port}/api/health`,
    env: { TOOLEMU_DATA_DIR: ".data-e2e", PORT: String(port), NEXTAUTH_URL: baseURL },
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
  },
});
