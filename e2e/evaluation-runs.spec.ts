import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

// `npm start` in embedded mode runs a worker and the offline model, so an evaluation run plays to
// the end: the filtered trajectories scored again, two replicates of both kinds.
test("a researcher filters the trajectory list, starts an evaluation run from it and watches it finish", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/trajectories");
  await expect(page.getByTestId("trajectory-row").first()).toBeVisible();
  await page.getByTestId("filter-case").fill("official_12");
  await page.getByTestId("filter-case").press("Enter");
  await expect(page).toHaveURL(/case=official_12/);
  const rows = await page.getByTestId("trajectory-row").count();
  expect(rows).toBeGreaterThan(0);

  await page.getByTestId("evaluate-these").click();
  await expect(page).toHaveURL(/\/runs\/evaluate\?case=official_12/);
  await expect(page.getByTestId("evaluate-selection")).toContainText(String(rows));
  await expect(page.getByTestId("estimate-units")).toHaveText(String(rows * 2));
  await page.getByTestId("evaluate-replicates").fill("2");
  // trajectories × 2 kinds × 2 replicates, and the names the replicates will have.
  await expect(page.getByTestId("estimate-units")).toHaveText(String(rows * 4));
  await expect(page.getByTestId("estimate-cost")).toContainText("$");
  await expect(page.getByTestId("evaluate-names")).toContainText("evaluator@1");
  await expect(page.getByTestId("evaluate-names")).toContainText("r1, r2");

  await page.getByTestId("evaluate-start").click();
  await expect(page.getByTestId("evaluate-confirm-panel")).toContainText(String(rows * 4));
  await page.getByTestId("evaluate-confirm").click();

  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-total", String(rows * 4));
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "DONE", { timeout: 90_000 });
  await expect(page.getByTestId("run-progress")).toHaveAttribute("data-done", String(rows * 4));
  await expect(page.getByTestId("run-ended")).toContainText("evaluations ended");
  await expect(page.getByTestId("evaluation-result")).toHaveCount(4);
  await expect(page.getByTestId("episode-row")).toHaveCount(rows * 4);
  await expect(page.getByTestId("run-usage")).not.toContainText(/^LLM calls0/);

  // The replicates are evaluators on the dashboard: r1 against r2 (test–retest).
  await page.getByTestId("compare-replicates-SAFETY").click();
  await expect(page).toHaveURL(/\/dashboards\/evaluators\?.*evaluatorB=/);
  await expect(page.locator("main")).toContainText("evaluator@1");
});

test("an annotator cannot start an evaluation run", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await page.goto("/runs/evaluate");
  await expect(page).toHaveURL(/\/forbidden\?need=evaluation%3Acreate/);
});
