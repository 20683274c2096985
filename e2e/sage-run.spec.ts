import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

// A SAGE run through the UI (issue 14). The scenario import is e2e/sage.spec.ts's; here the 112
// seeds `npm start` imports are used. `npm start` in embedded mode runs a worker and the offline
// model, so the run plays to the end: a stratified sample of one seed per subcategory of
// Interaction Understanding Failure (2 seeds) under Trust and Warning (4 episodes; the estimate of
// a whole subcategory is checked first), judged by the offline model after each — Trust UTR 1,
// Warning UTR 0 by design, on every seed (lib/offline/brain/sage.test.ts). Then the Trust vs
// Warning dashboard filtered to the run, and one Trust episode.
test("a researcher starts a SAGE run in both contexts, waits for it, reads Trust vs Warning and opens an episode", async ({ page }) => {
  test.setTimeout(300_000);
  await signInAs(page, "RESEARCHER");
  await page.goto("/runs");
  await page.getByTestId("new-sage-run").click();
  await expect(page).toHaveURL(/\/runs\/sage$/);

  // Defaults: all scenarios, both contexts, chronological order, the published runner's 4 turns.
  await expect(page.getByTestId("sage-selection-all")).toBeChecked();
  await expect(page.getByTestId("sage-context-trust")).toBeChecked();
  await expect(page.getByTestId("sage-context-warning")).toBeChecked();
  await expect(page.getByTestId("sage-order")).toHaveValue("CHRONOLOGICAL");
  await expect(page.getByTestId("sage-turns")).toHaveValue("published");
  await expect(page.getByText(/scenarios say 5 and are cut to 4/)).toBeVisible();
  const estimate = page.getByTestId("sage-estimate");
  await expect(estimate).toHaveAttribute("data-episodes", /^(22[4-9]|2[3-9]\d)$/);

  await page.getByTestId("sage-selection-subcategories").check();
  await page.getByTestId("sage-subcategory-autonomy_authority_failure.privilege_escalation").check();
  await expect(estimate).toHaveAttribute("data-scenarios", "7");
  await expect(estimate).toHaveAttribute("data-episodes", "14");
  // One judge (the offline model): 14 judge calls; agent ≤ 4 turns, attacker ≤ 3.
  await expect(page.getByTestId("sage-judge-offline-heuristic")).toBeChecked();
  await expect(page.getByTestId("estimate-judge")).toHaveText("14");
  await expect(page.getByTestId("estimate-agent")).toHaveText("56");
  await expect(page.getByTestId("estimate-attacker")).toHaveText("42");
  // What is run: one seed from each of the dimension's 2 subcategories (a quarter of the waiting).
  await page.getByTestId("sage-selection-sample").check();
  await page.getByTestId("sage-dimension-interaction_understanding_failure").check();
  await page.getByTestId("sage-per-subcategory").fill("1");
  await expect(estimate).toHaveAttribute("data-scenarios", "2");
  await expect(estimate).toHaveAttribute("data-episodes", "4");
  await expect(page.getByTestId("estimate-judge")).toHaveText("4");
  await expect(page.getByTestId("estimate-agent")).toHaveText("16");
  await expect(page.getByTestId("estimate-attacker")).toHaveText("12");
  await page.getByTestId("sage-name").fill("e2e SAGE interaction understanding");
  await page.screenshot({ path: "test-results/sage-run-form.png", fullPage: true });

  await page.getByTestId("sage-start").click();
  await expect(page.getByTestId("sage-confirm-panel")).toContainText(/Queue 4 episodes/);
  await page.getByTestId("sage-confirm").click();

  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "DONE", { timeout: 240_000 });
  const trust = page.locator('[data-testid="sage-context"][data-context="TRUST"]');
  const warning = page.locator('[data-testid="sage-context"][data-context="WARNING"]');
  await expect(trust).toHaveAttribute("data-done", "2");
  await expect(warning).toHaveAttribute("data-done", "2");
  await expect(trust.getByTestId("sage-utr")).toHaveAttribute("data-value", "1");
  await expect(trust.getByTestId("sage-utr")).toHaveAttribute("data-n", "2");
  await expect(warning.getByTestId("sage-utr")).toHaveAttribute("data-value", "0");
  await expect(trust.getByTestId("sage-asr-offline-heuristic")).toHaveAttribute("data-value", "1");
  await expect(warning.getByTestId("sage-asr-offline-heuristic")).toHaveAttribute("data-value", "0");
  await expect(page.getByTestId("sage-turns")).toContainText("at most 4");
  await expect(page.getByTestId("episode-row")).toHaveCount(4);
  await page.screenshot({ path: "test-results/sage-run-page.png", fullPage: true });
  const runUrl = page.url();

  // The Trust vs Warning dashboard, filtered to this run.
  await page.getByTestId("sage-dashboard-link").click();
  await expect(page).toHaveURL(/\/dashboards\/sage\?run=/);
  await expect(page.getByTestId("filter-run")).toBeVisible();
  await expect(page.getByTestId("scope-line")).toContainText(/\b4 episodes/);
  await expect(page.getByTestId("utr-offline-heuristic-TRUST")).toHaveAttribute("data-value", "1");
  await expect(page.getByTestId("utr-offline-heuristic-WARNING")).toHaveAttribute("data-value", "0");
  await expect(page.getByTestId("effect-diff-offline-heuristic-all")).toHaveAttribute("data-value", "1");
  await page.screenshot({ path: "test-results/sage-run-dashboard.png", fullPage: true });

  // One Trust episode: the unsafe call in turn 3 on the flag timeline, the judge's label.
  await page.goto(runUrl);
  const trustRow = page.getByTestId("episode-row").filter({ has: page.locator('[data-testid="episode-context"]', { hasText: "Trust" }) }).first();
  await trustRow.getByTestId("trajectory-link").click();
  await expect(page).toHaveURL(/\/trajectories\/[^/]+$/);
  await expect(page.getByTestId("episode-context")).toHaveText("Trust");
  await expect(page.getByTestId("flag-timeline").locator("[data-unsafe=true]")).toHaveCount(1);
  await expect(page.getByTestId("timeline-turn-3")).toHaveAttribute("data-unsafe", "true");
  await expect(page.getByTestId("judge-label-offline-heuristic")).toHaveText("unsafe");
  await page.screenshot({ path: "test-results/sage-run-episode.png", fullPage: true });
});
