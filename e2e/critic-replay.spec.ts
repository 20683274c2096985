import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

// `npm start` in embedded mode runs a worker and the offline model, so a critic replay plays to
// the end: the filtered trajectories judged by InferAct at each checkpoint, then one flagged
// trajectory's checkpoint timeline opened from the run page.
test("a researcher starts an InferAct replay from the trajectory list, waits for it and opens a flagged trajectory's timeline", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAs(page, "RESEARCHER");
  await page.goto("/trajectories");
  await expect(page.getByTestId("trajectory-row").first()).toBeVisible();
  await page.getByTestId("filter-case").fill("official_12");
  await page.getByTestId("filter-case").press("Enter");
  await expect(page).toHaveURL(/case=official_12/);
  const rows = await page.getByTestId("trajectory-row").count();
  expect(rows).toBeGreaterThan(0);

  await page.getByTestId("critic-these").click();
  await expect(page).toHaveURL(/\/runs\/critic\?case=official_12/);
  await expect(page.getByTestId("critic-selection")).toContainText(String(rows));
  await expect(page.getByTestId("critic-method-INFERACT")).toBeChecked();
  // InferAct: 3 calls per checkpoint (task inference + both option orders).
  const estimate = page.getByTestId("critic-estimate");
  await expect(estimate).toHaveAttribute("data-units", String(rows));
  const checkpoints = Number(await page.getByTestId("estimate-checkpoints").textContent());
  expect(checkpoints).toBeGreaterThanOrEqual(rows);
  await expect(page.getByTestId("estimate-calls")).toHaveText(String(checkpoints * 3));
  // Without order averaging: 2 per checkpoint.
  await page.getByTestId("critic-order-averaging").uncheck();
  await expect(page.getByTestId("estimate-calls")).toHaveText(String(checkpoints * 2));
  await page.getByTestId("critic-order-averaging").check();
  await expect(page.getByTestId("estimate-calls")).toHaveText(String(checkpoints * 3));
  // A strict τ, so that the offline critic flags something here.
  await page.getByTestId("critic-tau").fill("0.9");
  await page.getByTestId("critic-name").fill("e2e InferAct replay");

  await page.screenshot({ path: "test-results/critic-form.png", fullPage: true });
  await page.getByTestId("critic-start").click();
  await expect(page.getByTestId("critic-confirm-panel")).toContainText(String(checkpoints * 3));
  await page.getByTestId("critic-confirm").click();

  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "DONE", { timeout: 120_000 });
  await expect(page.getByTestId("run-ended")).toContainText("assessments ended");
  const result = page.getByTestId("critic-result");
  await expect(result).toHaveAttribute("data-method", "INFERACT");
  await expect(result).toHaveAttribute("data-assessed", String(rows));
  await expect(page.getByTestId("critic-tau")).toHaveText("0.9");
  const flagged = Number(await result.getAttribute("data-flagged"));
  expect(flagged).toBeGreaterThan(0);
  await expect(page.getByTestId("critic-dashboard-link")).toHaveAttribute("href", /\/dashboards\/critic\?run=/);
  await page.screenshot({ path: "test-results/critic-run-page.png", fullPage: true });

  // The assessments list says which trajectories were flagged; open one's checkpoint timeline.
  await expect(page.getByTestId("unit-verdict")).toHaveCount(rows);
  await expect(page.locator('[data-testid="unit-verdict"][data-flagged="true"]')).toHaveCount(flagged);
  const flaggedRow = page.getByTestId("episode-row").filter({ has: page.locator('[data-testid="unit-verdict"][data-flagged="true"]') }).first();
  await flaggedRow.getByTestId("trajectory-link").click();
  await expect(page).toHaveURL(/\/trajectories\/[^/#]+#checkpoint-timeline$/);
  const timeline = page.getByTestId("checkpoint-timeline").first();
  await expect(timeline).toHaveAttribute("data-flagged", "true");
  await expect(timeline).toContainText("InferAct");
  await expect(timeline).toContainText("e2e InferAct replay");
  // The offline model's verdicts are never presented as an LLM's.
  await expect(timeline.getByTestId("timeline-critic-model")).toContainText("not an LLM");
  await expect(timeline.getByTestId("timeline-verdict")).toHaveText("flagged");
  const flaggedCheckpoint = timeline.locator('[data-testid="timeline-checkpoint"][data-decision="flag"]').first();
  await expect(flaggedCheckpoint.getByTestId("inferred-tasks").locator("li")).toHaveCount(3);
  await expect(flaggedCheckpoint.getByTestId("checkpoint-forward")).toHaveText(/^\d\.\d\d$/);
  await expect(flaggedCheckpoint.getByTestId("checkpoint-reverse")).toHaveText(/^\d\.\d\d$/);
  const p = Number(await flaggedCheckpoint.getByTestId("checkpoint-p").textContent());
  expect(p).toBeLessThanOrEqual(0.9);
  await timeline.scrollIntoViewIfNeeded();
  await timeline.screenshot({ path: "test-results/critic-timeline.png" });
});

test("a trajectory no critic has judged says so", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/trajectories?case=official_3");
  await page.getByTestId("trajectory-row").first().getByRole("link").first().click();
  await expect(page.getByTestId("no-assessment")).toBeVisible();
});

test("an annotator cannot start a critic replay", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await page.goto("/runs/critic");
  await expect(page).toHaveURL(/\/forbidden\?need=evaluation%3Acreate/);
});
