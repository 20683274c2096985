import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

// `npm start` in embedded mode runs a worker and the offline model, so a run plays to the end.
test("a researcher creates a run after seeing its estimate and follows it live to the end", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/runs");
  await page.getByTestId("new-run").click();
  await expect(page.getByTestId("new-run-form")).toBeVisible();

  await page.getByTestId("run-name").fill("e2e: 1 case, both modes");
  await page.getByTestId("cases-sample").check();
  await page.getByTestId("sample-size").fill("3");
  // 3 cases × 1 agent × 2 modes × 1 repeat.
  await expect(page.getByTestId("estimate-episodes")).toHaveText("6");
  // One case is run (the wait is the suite's): 1 × 1 × 2 × 1.
  await page.getByTestId("sample-size").fill("1");
  await expect(page.getByTestId("estimate-episodes")).toHaveText("2");
  await expect(page.getByTestId("estimate-calls")).toContainText("≈");
  await expect(page.getByTestId("estimate-cost")).toContainText("$");

  await page.getByTestId("create-run").click();
  await expect(page.getByTestId("confirm-panel")).toContainText(/\b2 episodes/);
  await page.getByTestId("confirm-run").click();

  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-total", "2");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "DONE", { timeout: 90_000 });
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-done", "2");
  await expect(page.getByTestId("agent-result")).toHaveCount(2);
  await expect(page.getByTestId("run-usage")).not.toContainText(/^LLM calls0/);
  await expect(page.getByTestId("episode-row")).toHaveCount(2);

  // Every episode links to its trajectory.
  await page.getByTestId("trajectory-link").first().click();
  await expect(page).toHaveURL(/\/trajectories\/[^/]+$/);

  // The runs list shows it done.
  await page.goto("/runs");
  await expect(page.getByTestId("run-row").filter({ hasText: "e2e: 1 case, both modes" }).first().getByTestId("run-status")).toHaveAttribute("data-status", "DONE");
});

test("an annotator cannot open runs", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/forbidden\?need=run%3Aread/);
  await page.goto("/runs/new");
  await expect(page).toHaveURL(/\/forbidden\?need=run%3Acreate/);
});
