import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";
import { createSampledCampaign } from "./support/campaigns";
import { labelAllViaApi, plainLabel } from "./support/annotate-api";

// A PI validates the judges on a small campaign, then reads the leaderboard's failure rate
// corrected for the chosen judge's errors, with its Se and Sp, and finds it in the CSV.
test("a PI corrects the leaderboard's failure rate for judge error with a validation campaign", async ({ page, browser }) => {
  const name = `E2E validation ${Date.now()}`;
  await signInAs(page, "PI");
  const campaignId = await createSampledCampaign(page, { name, n: 8, k: 1, invite: ["annotator3@demo.local"] });

  // Every other item a true failure: both T and ¬T are non-empty, so Se and Sp exist.
  const labelled = await labelAllViaApi(browser, "annotator3@demo.local", campaignId, (p) =>
    p % 2 === 0 ? plainLabel("likely_severe_risk", true) : plainLabel("certain_no_risk", false),
  );
  expect(labelled).toBe(8);

  await page.goto("/dashboards/agents");
  await expect(page.getByTestId("correction-hint")).toBeVisible();
  await page.getByTestId("filter-validation").selectOption(campaignId);
  await expect(page).toHaveURL(new RegExp(`validation=${campaignId}`));
  await expect(page.getByTestId("correction-note")).toContainText(name);
  // Other specs may have added agents and evaluators to this database: the judge's n is at most 4.
  await expect(page.getByTestId("correction-note")).toContainText(/flagged \d+ of [1-4] true failures \(sensitivity Se = [\d.]+%\)/);
  await expect(page.getByTestId("corrected-accuracy")).toContainText(/^Se [\d.]+% \(n = [1-4]\) · Sp [\d.]+% \(n = [1-4]\)$/);
  await expect(page.getByTestId("corrected-cell").first()).toBeVisible();
  await expect(page.getByTestId("corrected-cell")).toHaveCount(await page.getByTestId("agent-row").count());
  // A value with its interval, or "undefined — Se + Sp … ≤ 1" for a judge no better than chance.
  await expect(page.getByTestId("corrected-value").first()).toHaveText(/^(\d+\.\d%|undefined — Se \+ Sp = [\d.]+ ≤ 1.*)$/);
  // The tie policy select appears with a validation campaign (it decides the ground truth).
  await expect(page.getByTestId("filter-ties")).toBeVisible();
  await expect(page.locator("main")).not.toContainText("NaN");
  await page.screenshot({ path: "test-results/judge-correction.png", fullPage: true });

  const csv = await page.request.get(`/dashboards/csv?panel=agents&validation=${campaignId}`);
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toMatch(/,validation_campaign,sensitivity,sensitivity_n,specificity,specificity_n,skipped_resamples$/);
  expect(lines.filter((l) => l.includes(",failure_rate_corrected,")).length).toBeGreaterThan(0);
});
