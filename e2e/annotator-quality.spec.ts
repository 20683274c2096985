import { expect, test } from "@playwright/test";
import { signInAs, signInOverHttp, signOut } from "./support/session";
import { createSampledCampaign } from "./support/campaigns";
import { labelAllViaApi, plainLabel } from "./support/annotate-api";
import { e2eDb } from "./support/e2e-db";

// Issue 18 #7: gold items and a qualification round set up by a PI; one annotator passes and
// labels on (gold mixed in, never marked), one fails and gets no real item; the per-annotator
// page shows both, and a PI excludes and restores an annotator with a reason.
test("gold items, a qualification round, the per-annotator page and an exclusion", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const name = `E2E quality ${Date.now()}`;
  await signInAs(page, "PI");
  const campaignId = await createSampledCampaign(page, {
    name,
    n: 4,
    k: 1,
    // The quality section of the form.
    more: async (form) => {
      await form.getByTestId("quality-gold-percent").fill("25");
      await expect(form.getByTestId("quality-settings")).toContainText("One gold item in every 4 items");
      await form.getByTestId("quality-qualification-items").fill("2");
      await form.getByTestId("quality-pass-percent").fill("80");
    },
  });

  // Three gold items entered with the form, on trajectories outside the campaign.
  const db = e2eDb();
  try {
    const free = await db.trajectory.findMany({ where: { caseId: { not: null }, campaignItems: { none: { campaignId } } }, orderBy: { id: "asc" }, take: 3, select: { id: true } });
    await page.getByTestId("campaign-quality-link").click();
    await expect(page.getByTestId("gold-empty")).toBeVisible();
    await expect(page.getByTestId("quality-gold-percent")).toHaveValue("25");
    for (const t of free) {
      await page.getByTestId("gold-trajectory").fill(t.id);
      await page.getByTestId("gold-safety").selectOption("certain_no_risk");
      await page.getByTestId("gold-helpfulness").selectOption("good");
      for (const k of ["emulator_input_validation", "emulator_realism", "emulator_consistency"]) await page.getByTestId(`gold-${k}`).selectOption("none");
      await page.getByTestId("gold-true_failure").selectOption("no");
      await page.getByTestId("gold-add").click();
      await expect(page.getByTestId("gold-notice")).toHaveText("Gold item added.");
      await expect(page.getByTestId("gold-trajectory")).toHaveValue("");
    }
    await expect(page.getByTestId("gold-row")).toHaveCount(3);
    await page.screenshot({ path: "test-results/annotator-quality-gold.png", fullPage: true });

    // The campaign page counts real items only.
    await page.goto(`/campaigns/${campaignId}`);
    await expect(page.getByTestId("item-row")).toHaveCount(4);

    // Ana answers like the gold and passes; Ari does not (safety and true failure wrong: 4 of 6 < 80%).
    const ana = await labelAllViaApi(browser, "annotator@demo.local", campaignId, () => plainLabel("certain_no_risk", false));
    expect(ana).toBeGreaterThanOrEqual(4 + 2);
    const ari = await labelAllViaApi(browser, "annotator2@demo.local", campaignId, () => plainLabel("likely_severe_risk", true));
    expect(ari).toBe(2);
    const results = await db.qualificationResult.findMany({ where: { campaignId }, include: { campaign: false } });
    expect(results.map((r) => r.passed).sort()).toEqual([false, true]);

    // Ari is told, and gets nothing more.
    await signOut(page);
    await signInAs(page, "ANNOTATOR");
    await page.goto(`/annotate/${campaignId}`);
    await expect(page.getByTestId("campaign-done")).toBeVisible();
    await signOut(page);
    const ariContext = await browser.newContext();
    const ariPage = await ariContext.newPage();
    await ariPage.setViewportSize({ width: 1366, height: 768 });
    await signInOverHttp(ariContext.request, "annotator2@demo.local", "annotator-demo-2");
    await ariPage.goto(`/annotate/${campaignId}`);
    await expect(ariPage.getByTestId("qualification-failed")).toContainText("did not pass the qualification round");
    await ariPage.screenshot({ path: "test-results/annotator-quality-failed.png", fullPage: false });
    await ariContext.close();

    // The per-annotator page.
    await signInAs(page, "PI");
    await page.goto(`/campaigns/${campaignId}/annotators`);
    const anaRow = page.locator('[data-testid="annotator-stat-row"][data-annotator="Ana Annotator"]');
    const ariRow = page.locator('[data-testid="annotator-stat-row"][data-annotator="Ari Annotator"]');
    await expect(anaRow.getByTestId("stat-gold")).toContainText("100%");
    await expect(anaRow.getByTestId("stat-qualification")).toContainText("passed");
    await expect(ariRow.getByTestId("stat-gold")).toContainText("0%");
    await expect(ariRow.getByTestId("stat-gold")).toContainText("n=2");
    await expect(ariRow.getByTestId("stat-qualification")).toContainText("failed");
    await expect(anaRow.getByTestId("drift")).toBeVisible();

    // Exclude Ari with a reason, then restore: recorded in the history.
    await ariRow.getByTestId("exclude-annotator").click();
    await page.getByTestId("exclusion-confirm").click();
    await expect(page.getByTestId("exclusion-error")).toContainText("Say why");
    await page.getByTestId("exclusion-reason").fill("Failed the qualification round");
    await page.getByTestId("exclusion-confirm").click();
    await expect(ariRow.getByTestId("excluded-badge")).toBeVisible();
    await expect(page.getByTestId("exclusion-history")).toContainText("Failed the qualification round");
    await page.screenshot({ path: "test-results/annotator-quality-stats.png", fullPage: true });
    await ariRow.getByTestId("restore-annotator").click();
    await page.getByTestId("exclusion-reason").fill("Kept for the record");
    await page.getByTestId("exclusion-confirm").click();
    await expect(ariRow.getByTestId("excluded-badge")).toHaveCount(0);
    await expect(page.getByTestId("exclusion-history")).toContainText("Restored by Paul PI");
    expect(await db.auditLog.count({ where: { entityId: campaignId, action: { in: ["annotator.exclude", "annotator.restore"] } } })).toBe(2);
  } finally {
    await db.$disconnect();
  }
});
