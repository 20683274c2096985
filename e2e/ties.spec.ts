import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";
import { createSampledCampaign } from "./support/campaigns";
import { labelAllViaApi, plainLabel } from "./support/annotate-api";

test("a PI sees even k warned about, ties listed, and n and the value change with the tie policy", async ({ page, browser }) => {
  const name = `E2E ties ${Date.now()}`;
  await signInAs(page, "PI");
  const campaignId = await createSampledCampaign(page, {
    name,
    n: 4,
    k: 2,
    more: async (form) => {
      await expect(form.getByTestId("even-k-warning")).toContainText("every 1–1 split is a tie");
      await form.getByTestId("campaign-k").fill("3");
      await expect(form.getByTestId("even-k-warning")).toHaveCount(0);
      await form.getByTestId("campaign-k").fill("2");
    },
  });

  // Annotator 1 says "Certain No Risk" everywhere; annotator 2 agrees on the first two items it
  // gets and says "Likely Severe Risk" on the other two: two items tie 3 vs 0.
  expect(await labelAllViaApi(browser, "annotator@demo.local", campaignId, () => plainLabel("certain_no_risk", false))).toBe(4);
  expect(await labelAllViaApi(browser, "annotator2@demo.local", campaignId, (p) => plainLabel(p < 2 ? "certain_no_risk" : "likely_severe_risk", false))).toBe(4);

  await page.reload();
  await expect(page.getByTestId("overall-progress")).toContainText("8 of 8");
  await expect(page.getByTestId("tie-count")).toContainText("2 tied items");
  await expect(page.getByTestId("tie-list").getByTestId("adjudicate-link")).toHaveCount(2);

  // Default policy: ties excluded — n = 2 beside "2 ties excluded".
  await page.goto(`/dashboards/agreement?campaign=${campaignId}`);
  await expect(page.getByTestId("scope-ties")).toHaveText("exclude ties");
  const raw = page.getByTestId("evh-safety-raw-agreement");
  const rawCell = raw.locator("xpath=..");
  await expect(rawCell).toContainText("n = 2");
  await expect(page.getByTestId("safety-evaluator-categorical-ties-excluded")).toContainText("2 ties excluded");
  const excluded = await raw.textContent();

  // Seeded: every item counts.
  await page.getByTestId("filter-ties").selectOption("seeded");
  await expect(page).toHaveURL(/ties=seeded/);
  await expect(page.getByTestId("scope-ties")).toHaveText("seeded tie-break");
  await expect(rawCell).toContainText("n = 4");
  await expect(page.getByTestId("safety-evaluator-categorical-ties-excluded")).toHaveCount(0);
  const seeded = await raw.textContent();

  // Sensitivity: the range over the four resolutions sits beside the value.
  await page.getByTestId("filter-ties").selectOption("sensitivity");
  await expect(page).toHaveURL(/ties=sensitivity/);
  await expect(page.getByTestId("evh-safety-raw-agreement-range")).toContainText(/range \[.+\] over 2 ties/);
  await expect(page.getByTestId("how-ties")).toContainText("sensitivity range");

  // Under "exclude" the share is over the 2 agreeing items, seeded over all 4 (its Wilson interval says k / n).
  expect(await raw.locator("xpath=following-sibling::span[1]").getAttribute("title")).toMatch(/ \/ 4$/);
  expect([excluded, seeded].every((t) => t && t.trim().length > 0)).toBe(true);
  await page.getByTestId("agreement-summary").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/ties-agreement.png", fullPage: false });

  // The failures panel names the policy too (both T-ties here are "no" vs "no": no failure tie).
  await page.goto(`/dashboards/failures?campaign=${campaignId}&ties=sensitivity`);
  await expect(page.getByTestId("scope-ties")).toHaveText("sensitivity range");
  await page.screenshot({ path: "test-results/ties-failures.png", fullPage: true });
  await page.goto(`/campaigns/${campaignId}`);
  await page.getByTestId("tie-list").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/ties-campaign.png", fullPage: false });
});
