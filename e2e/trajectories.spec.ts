import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

test("a researcher filters trajectories to safety score 0 and opens one", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/trajectories");
  await expect(page.getByTestId("trajectory-row").first()).toBeVisible();
  await page.getByTestId("filter-safety").selectOption("0");
  await expect(page).toHaveURL(/safety=0/);
  const rows = page.getByTestId("trajectory-row");
  await expect(rows.first()).toBeVisible();
  const first = rows.first();
  // Every listed row has a safety score of 0 from some evaluator.
  await expect(first).toContainText("0");
  await first.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/trajectories\/[^/?]+\?.*safety=0/);
  await expect(page.getByRole("heading", { name: /Trajectory of official_\d+/ })).toBeVisible();
  // The case and toolkit versions it ran against (the bundled import records them), linked to their history.
  const ran = page.getByTestId("ran-against");
  await expect(ran).toContainText("Ran against");
  await expect(ran.getByTestId("case-version")).toHaveText(/^case v\d+/);
  await expect(ran.getByTestId("case-version")).toHaveAttribute("href", /^\/cases\/official_\d+(\?from=\d+&to=\d+)?#history$/);
  await expect(ran.getByTestId("toolkit-version").first()).toHaveAttribute("href", /^\/toolkits\/\w+(\?from=\d+&to=\d+)?#history$/);
  // Some trajectories have no tool steps (the agent answered at once); every one has evaluations.
  await expect(page.getByTestId("evaluation-card").first()).toBeVisible();
  // The section's heading: evaluations (shown first) may quote "Final answer" in collapsed reasoning.
  await expect(page.getByRole("heading", { name: /^Final answer/ })).toBeVisible();
  await ran.getByTestId("case-version").click();
  await expect(page.getByTestId("version-history")).toBeVisible();
});

// Model-written text must stay text: a trajectory whose observation holds script and HTML is
// imported through the import page, then viewed; nothing it contains may run or render as HTML.
test("script and HTML inside a trajectory stay inert", async ({ page }) => {
  const dir = "prisma/seed-data/trajectories/qwen2.5-7b-instruct/judge-q32";
  const source = readdirSync(dir).find((f) => /_r0-15_\d+_\d+\.jsonl$/.test(f))!;
  const line = JSON.parse(readFileSync(path.join(dir, source), "utf8").split("\n")[0]!);
  const payload = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"><b>bold?</b> **md** [link](javascript:alert(1))`;
  line.input = `XSS probe ${Date.now()}`;
  line.intermediate_steps[0][1][0] = JSON.stringify({ note: payload });
  line.intermediate_steps[0][0][2] = `Thought: ${payload}`;
  line.output = payload;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "xss-"));
  const file = path.join(tmp, "XSS-agent_emu-XSS-emulator_eval-XSS-judge_r0-1_0000_000000.jsonl");
  writeFileSync(file, JSON.stringify(line) + "\n");

  await page.addInitScript(() => {
    window.addEventListener("DOMContentLoaded", () => ((window as unknown as { __dialogs: number }).__dialogs = 0));
  });
  page.on("dialog", (d) => {
    throw new Error(`a dialog opened: ${d.message()}`);
  });
  await signInAs(page, "RESEARCHER");
  await page.goto("/import");
  await page.getByTestId("import-files").setInputFiles([file]);
  await page.getByRole("button", { name: "Check files" }).click();
  await expect(page.getByTestId("count-trajectories-new")).toHaveText("1");
  await page.getByRole("button", { name: "Write to the database" }).click();
  await expect(page.getByTestId("import-done")).toBeVisible();

  await page.goto("/trajectories?agent=XSS-agent");
  await page.getByTestId("trajectory-row").first().getByRole("link").first().click();
  await expect(page.getByTestId("step-card").first()).toBeVisible();
  // The payload is shown as text …
  await expect(page.getByText("<script>window.__xss = 1</script>", { exact: false }).first()).toBeVisible();
  // … and none of it became markup or ran.
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.locator("main img[src='x']").count()).toBe(0);
  expect(await page.locator("main b", { hasText: "bold?" }).count()).toBe(0);
  expect(await page.locator("main a[href^='javascript:']").count()).toBe(0);
});

// The validity cohort "failure without an executed tool call" from the browse filters. Scoped to
// the bundled Qwen2.5-7B agent so trajectories other tests create do not change the counts.
test("a researcher finds the trajectories without an executed tool call, then the judge's failures among them", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto(`/trajectories?agent=${encodeURIComponent("Qwen/Qwen2.5-7B-Instruct")}`);
  await expect(page.getByTestId("pagination-summary").first()).toContainText("of 144 trajectories");
  await expect(page.getByTestId("filter-calls").locator("option[value=none]")).toHaveText("None: no executed tool call (43)");
  await page.getByTestId("filter-calls").selectOption("none");
  await expect(page).toHaveURL(/calls=none/);
  await expect(page.getByTestId("pagination-summary").first()).toContainText("of 43 trajectories");
  await expect(page.getByTestId("active-filters")).toContainText("No executed tool call");

  await page.getByTestId("filter-evaluator").selectOption("Qwen/Qwen3-32B");
  await expect(page).toHaveURL(/evaluator=Qwen%2FQwen3-32B/);
  await expect(page.getByTestId("filter-failure").locator("option[value='1']")).toHaveText("Failure: safety ≤ 1 (27)");
  await page.getByTestId("filter-failure").selectOption("1");
  await expect(page).toHaveURL(/failure=1/);
  await expect(page.getByTestId("pagination-summary").first()).toContainText("of 27 trajectories");
});
