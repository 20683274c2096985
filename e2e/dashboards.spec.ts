import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

// The real-data figures: safety, judge Qwen3-32B vs gpt-5-mini on the 144 shared
// Qwen2.5-7B trajectories (seeded on the first embedded start).
test("a PI compares two evaluators, changes a filter and downloads the CSV", async ({ page }) => {
  await signInAs(page, "PI");
  await page.goto("/dashboards");
  await expect(page.getByTestId("stat-trajectories")).not.toHaveText("0");
  await page.getByTestId("panel-evaluators").click();

  await expect(page).toHaveURL(/\/dashboards\/evaluators/);
  await expect(page.getByRole("heading", { name: /Safety: Qwen3-32B vs gpt-5-mini/ })).toBeVisible();
  await expect(page.getByTestId("paired-n")).toHaveText("144");
  await expect(page.getByTestId("kappa-categorical")).toHaveText("0.1758");
  await expect(page.getByTestId("kappa-linear")).toHaveText("0.3008");
  await expect(page.getByTestId("kappa-quadratic")).toHaveText("0.4249");
  await expect(page.getByTestId("confusion-heatmap")).toBeVisible();
  // Every κ carries an interval and n; nothing reads NaN.
  await expect(page.getByTestId("kappa-table")).toContainText("n = 144");
  await expect(page.locator("main")).not.toContainText("NaN");

  // A filter lives in the URL: helpfulness instead of safety.
  await page.getByTestId("filter-kind").selectOption("HELPFULNESS");
  await expect(page).toHaveURL(/kind=HELPFULNESS/);
  await expect(page.getByRole("heading", { name: /Helpfulness: Qwen3-32B vs gpt-5-mini/ })).toBeVisible();
  await expect(page.getByTestId("kappa-linear")).not.toHaveText("0.3008");

  // The CSV holds the numbers behind the panel for the same filter.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("csv-evaluators").click()]);
  expect(download.suggestedFilename()).toMatch(/^toolemu-evaluators-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await download.path())!, "utf8").trim().split(/\r\n/);
  expect(lines[0]).toBe("section,statistic,kind,evaluator_a,evaluator_b,score_a,score_b,value,ci_lower,ci_upper,n,seed,resamples,note");
  expect(lines.length).toBeGreaterThan(16);
  expect(lines.some((l) => l.startsWith("agreement,kappa_linear,HELPFULNESS,Qwen/Qwen3-32B,gpt-5-mini,"))).toBe(true);
  expect(lines.filter((l) => l.startsWith("confusion,count,HELPFULNESS"))).toHaveLength(16);

  // A filter that matches nothing shows an empty state, not NaN.
  await page.getByTestId("filter-mode").selectOption("STANDARD");
  await expect(page).toHaveURL(/mode=STANDARD/);
  await expect(page.getByTestId("no-matches")).toBeVisible();

  // The agents leaderboard says whose scores it uses.
  await page.goto("/dashboards/agents");
  await expect(page.getByTestId("agent-row")).toHaveCount(1);
  await expect(page.getByTestId("evaluator-note")).toContainText(/Qwen3-32B|gpt-5-mini/);

  // Judge-error correction: off until a validation campaign is chosen, then either Se/Sp and a
  // corrected column, or the reason it cannot be used (the demo campaign may have no labels yet).
  await expect(page.getByTestId("correction-hint")).toBeVisible();
  await expect(page.getByTestId("corrected-cell")).toHaveCount(0);
  const demo = await page.getByTestId("filter-validation").locator("option").nth(1).getAttribute("value");
  await page.getByTestId("filter-validation").selectOption(demo!);
  await expect(page).toHaveURL(/validation=/);
  await expect(page.getByTestId("correction-note").or(page.getByTestId("correction-unavailable"))).toBeVisible();
  if (await page.getByTestId("correction-note").isVisible()) {
    await expect(page.getByTestId("corrected-accuracy")).toContainText(/Se .*\(n = \d+\) · Sp .*\(n = \d+\)/);
    await expect(page.getByTestId("corrected-cell")).toHaveCount(1);
  } else {
    await expect(page.getByTestId("correction-unavailable")).toContainText(/no submitted labels|no safety score/);
  }
  await expect(page.getByTestId("how-corrected")).toContainText("(p + Sp − 1) / (Se + Sp − 1)");
  await expect(page.locator("main")).not.toContainText("NaN");
});

test("the CSV route is guarded and names unknown panels", async ({ browser, request }) => {
  // Signed out: the guard refuses (the proxy may also redirect to sign-in).
  const anonymous = await request.get("/dashboards/csv?panel=evaluators", { maxRedirects: 0 });
  expect([302, 303, 307, 401]).toContain(anonymous.status());

  const researcher = await browser.newPage();
  await signInAs(researcher, "RESEARCHER");
  const unknown = await researcher.request.get("/dashboards/csv?panel=nope");
  expect(unknown.status()).toBe(404);
  expect(await unknown.text()).toContain("evaluators");
  const ok = await researcher.request.get("/dashboards/csv?panel=agents");
  expect(ok.status()).toBe(200);
  expect((await ok.text()).split("\r\n")[0]).toMatch(/^agent,agent_variant,emulator_mode,evaluator,/);
  await researcher.close();

  const annotator = await browser.newPage();
  await signInAs(annotator, "ANNOTATOR");
  const refused = await annotator.request.get("/dashboards/csv?panel=evaluators");
  expect(refused.status()).toBe(403);
  await annotator.close();
});
