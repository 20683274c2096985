import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { runningEmbedded } from "@/lib/db/embedded";
import { insertAssessmentSql } from "@/lib/testing/critic";
import { signInAs } from "./support/session";

// The critic dashboard over seeded assessments of the 144 shared trajectories (as a replay would
// write them; the scores follow the judge Qwen3-32B's safety score so the critic is informative).
// The seeded rows are removed afterwards: other specs (critic-replay) expect trajectories no critic
// has judged.
test.afterAll(async () => {
  const info = runningEmbedded(".data-e2e");
  if (!info) return;
  const sql = new pg.Client({ connectionString: info.url });
  await sql.connect();
  try {
    await sql.query(`DELETE FROM "CriticAssessment" WHERE "criticModel" = 'e2e-critic'`);
  } finally {
    await sql.end();
  }
});

test("a PI reads the critic dashboard, moves τ with the keyboard and downloads the CSV", async ({ page }) => {
  test.setTimeout(180_000); // seeding 288 assessments over the wire, then a page that bootstraps every method × source
  const info = runningEmbedded(".data-e2e");
  test.skip(!info, "the e2e app runs on the embedded database in .data-e2e");
  const sql = new pg.Client({ connectionString: info!.url });
  await sql.connect();
  try {
    const before = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "CriticAssessment"`);
    await signInAs(page, "PI");
    if (before.rows[0]!.n === 0) {
      await page.goto("/dashboards/critic");
      await expect(page.getByTestId("no-assessments")).toContainText("No critic assessments yet — start a critic replay from Runs");
    }
    const trajectories = await sql.query<{ id: string; safety: number | null; steps: number }>(`
      SELECT t.id, e.score AS safety, t."stepCount" AS steps FROM "Trajectory" t
      LEFT JOIN "Evaluation" e ON e."trajectoryId" = t.id AND e.kind = 'SAFETY' AND e."evaluatorModel" = 'Qwen/Qwen3-32B'
      WHERE t."agentModel" NOT LIKE 'replay:%' ORDER BY t."contentHash" LIMIT 144`);
    expect(trajectories.rows.length).toBeGreaterThan(40);
    for (const [i, t] of trajectories.rows.entries()) {
      const s = t.safety ?? 2;
      const p = Math.min(0.98, 0.1 + 0.22 * s + ((i * 37) % 10) / 40);
      const checkpoints = [
        ...(i % 3 === 0 ? [{ stepIndex: 0, p: i % 29 === 0 ? null : Math.max(0.02, p - 0.1), amount: i % 6 === 0 ? 20 : null }] : []),
        { stepIndex: Math.max(1, t.steps), final: true, p },
      ];
      await insertAssessmentSql(sql, { trajectoryId: t.id, method: "INFERACT", criticModel: "e2e-critic", checkpoints });
      await insertAssessmentSql(sql, { trajectoryId: t.id, method: "STANDARD", criticModel: "e2e-critic", checkpoints: [{ stepIndex: Math.max(1, t.steps), final: true, p: Math.min(0.99, 0.5 + ((i * 13) % 10) / 20) }] });
    }
  } finally {
    await sql.end();
  }

  await page.goto("/dashboards");
  await expect(page.getByTestId("panel-critic")).toHaveAttribute("href", "/dashboards/critic");
  await page.getByTestId("panel-critic").click();
  // The first visit computes every method × source with its bootstrap: allow it the time.
  await expect(page).toHaveURL(/\/dashboards\/critic/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Critic", level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("dashboard-nav").getByRole("link", { name: "Critic" })).toHaveAttribute("aria-current", "page");
  // Every method × source row carries n and the bootstrap seed is on the page.
  await expect(page.getByTestId("critic-row").first()).toBeVisible({ timeout: 30_000 });
  expect(await page.getByTestId("critic-row").count()).toBeGreaterThanOrEqual(4); // 2 methods × ≥ 2 proxy sources
  await expect(page.getByTestId("seed-line")).toHaveText("20260101");
  await expect(page.getByTestId("scope-line")).toContainText("B = 1,000");
  await expect(page.getByTestId("critic-table")).toContainText("proxy: Qwen/Qwen3-32B safety ≤ 1");
  await expect(page.getByTestId("critic-table")).toContainText("optimistic");
  await expect(page.locator("main")).not.toContainText("NaN");
  await expect(page.getByTestId("pr-curves")).toBeVisible();
  await expect(page.getByTestId("calibration-plot")).toBeVisible();

  // Choose the Qwen3-32B proxy: the slider and the curves use it.
  await page.getByTestId("filter-source").selectOption("proxy:Qwen/Qwen3-32B");
  await expect(page).toHaveURL(/source=proxy%3AQwen/, { timeout: 30_000 });
  await expect(page.getByTestId("source-name")).toHaveText("proxy: Qwen/Qwen3-32B safety ≤ 1", { timeout: 30_000 });

  // The τ slider, with the keyboard: the confusion matrix follows.
  const cells = async () => Promise.all(["cm-tp", "cm-fp", "cm-fn", "cm-tn"].map((id) => page.getByTestId(id).innerText()));
  const slider = page.getByTestId("tau-slider");
  await expect(page.getByTestId("tau-value")).toHaveText("0.50");
  const atHalf = await cells();
  await slider.focus();
  await page.keyboard.press("End");
  await expect(page.getByTestId("tau-value")).toHaveText("1.00");
  // τ = 1 flags every trajectory: nothing is let through.
  await expect(page.getByTestId("cm-fn")).toHaveText("0");
  await expect(page.getByTestId("cm-tn")).toHaveText("0");
  expect(await cells()).not.toEqual(atHalf);
  await page.keyboard.press("Home");
  await expect(page.getByTestId("tau-value")).toHaveText("0.00");
  const atZero = await cells();
  // "]" jumps to the next τ at which a trajectory changes side: more flags than at τ = 0.
  await page.keyboard.press("]");
  await expect(page.getByTestId("tau-value")).not.toHaveText("0.00");
  const flagged = async () => Number(await page.getByTestId("cm-tp").innerText()) + Number(await page.getByTestId("cm-fp").innerText());
  expect(await flagged()).toBeGreaterThan(Number(atZero[0]) + Number(atZero[1]));
  for (let i = 0; i < 50; i++) await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("tau-alerts")).not.toHaveText("undefined");
  await page.getByTestId("tau-explorer").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/critic-dashboard.png", fullPage: true });

  // "Use τ in the table" puts it in the URL.
  await page.getByTestId("tau-apply").click();
  await expect(page).toHaveURL(/tau=0\.\d+/, { timeout: 30_000 });
  await expect(page.getByTestId("table-tau")).not.toHaveText("0.5", { timeout: 30_000 });

  // ERROR excluded: the policy is named on the page.
  await page.getByTestId("filter-errors").selectOption("exclude");
  await expect(page).toHaveURL(/errors=exclude/, { timeout: 30_000 });
  await expect(page.getByTestId("scope-line")).toContainText("ERROR excluded", { timeout: 30_000 });

  // The CSV holds the numbers for the same filter.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("csv-critic").click()]);
  expect(download.suggestedFilename()).toMatch(/^toolemu-critic-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await download.path())!, "utf8").trim().split(/\r\n/);
  expect(lines[0]).toBe("section,method,critic_model,label_source,statistic,value,ci_lower,ci_upper,n,tau,error_policy,seed,resamples,note");
  expect(lines.some((l) => l.startsWith("metrics,INFERACT,e2e-critic,proxy: Qwen/Qwen3-32B safety ≤ 1,auc_pr,"))).toBe(true);
  expect(lines.some((l) => l.includes(",exclude,20260101,1000,"))).toBe(true);
});
