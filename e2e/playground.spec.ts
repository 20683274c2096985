import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

// The embedded start serves the offline heuristic model and registers it as an endpoint, so an
// episode runs end to end through the openai SDK over HTTP without any real LLM.
test("a researcher plays one case to the end and reads both evaluations", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/playground");
  await expect(page.getByTestId("playground-form")).toBeVisible();

  await page.getByTestId("case-filter").fill("official_1");
  await page.getByTestId("case-select").selectOption({ index: 0 });
  await expect(page.getByTestId("chosen-case")).toBeVisible();
  await page.getByTestId("mode-ADVERSARIAL").check();
  await page.getByTestId("run-episode").click();

  await expect(page).toHaveURL(/\/playground\/[^/]+$/);
  await expect(page.getByTestId("offline-label")).toContainText("offline-heuristic (not an LLM)");
  // Steps arrive, then the status settles and both evaluations appear.
  await expect(page.getByTestId("episode-status")).toHaveText(/Finished|Incomplete/, { timeout: 45_000 });
  await expect(page.getByTestId("live-evaluations").getByTestId("evaluation-card")).toHaveCount(2, { timeout: 30_000 });
  await expect(page.locator('[data-testid="evaluation-card"][data-kind="SAFETY"]')).toBeVisible();
  await expect(page.locator('[data-testid="evaluation-card"][data-kind="HELPFULNESS"]')).toBeVisible();
  await expect(page.getByTestId("episode-usage")).not.toHaveText(/^0 tokens/);
  const steps = await page.getByTestId("step-card").count();
  if (steps > 0) await expect(page.getByTestId("step-usage").first()).toContainText("tokens");
  // At the end both actions sit in one row, aligned (issue 18 #9).
  await expect(page.getByTestId("other-mode")).toBeVisible();
  await expect(page.getByTestId("open-trajectory")).toBeVisible();
  const rerunBox = (await page.getByTestId("other-mode").boundingBox())!;
  const openBox = (await page.getByTestId("open-trajectory").boundingBox())!;
  expect(Math.abs(rerunBox.y + rerunBox.height / 2 - (openBox.y + openBox.height / 2))).toBeLessThan(2);
  await expect(page.getByTestId("episode-progress")).toHaveCount(0);

  // Same case, the other mode: a new episode with the standard emulator.
  const first = page.url();
  await page.getByTestId("other-mode").click();
  await expect(page).not.toHaveURL(first);
  await expect(page.getByText(/Standard/).first()).toBeVisible();
  await expect(page.getByTestId("episode-status")).toHaveText(/Finished|Incomplete/, { timeout: 45_000 });
});

test("with self-critique on, each emulated step shows its critique rounds and their cost", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/playground");
  await page.getByTestId("case-filter").fill("official_0");
  await page.getByTestId("case-select").selectOption({ index: 0 });
  await expect(page.getByTestId("chosen-case")).toBeVisible();
  await page.getByTestId("mode-ADVERSARIAL").check();
  await page.getByTestId("self-critique-rounds").selectOption("2");
  await page.getByTestId("run-episode").click();

  await expect(page).toHaveURL(/\/playground\/[^/]+$/);
  await expect(page.getByTestId("episode-status")).toHaveText(/Finished|Incomplete/, { timeout: 45_000 });
  // official_0's naive agent makes tool calls the emulator answers: each shows two rounds.
  const badge = page.getByTestId("step-self-critique-badge").first();
  await expect(badge).toHaveText("2 self-critique rounds");
  const panel = page.getByTestId("self-critique").first();
  await panel.locator("summary").first().click();
  await expect(panel.getByTestId("self-critique-round")).toHaveCount(2);
  await expect(panel.getByTestId("self-critique-round").first()).toContainText(/Round 1 · revision used · \d+ tokens/);
  await expect(panel).toContainText("and the stress test");
});

// The live view mid-run (issue 18 #9), on an episode seeded as RUNNING in the e2e app's database
// (a real one finishes too fast to catch): the bar does not claim a fraction, usage is not
// "0 tokens", the step whose call the emulator has not answered yet says so.
test("the live view mid-run: indeterminate progress, no '0 tokens', a waiting step, a labelled evaluator select", async ({ page }) => {
  const { e2eDb } = await import("./support/e2e-db");
  const db = e2eDb();
  const id = `e2e-live-${Date.now()}`;
  try {
    const [c] = await db.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM "TestCase" WHERE name = 'official_1'`);
    await db.$executeRawUnsafe(
      `INSERT INTO "Trajectory" (id, "caseId", "agentModel", "emulatorModel", "emulatorMode", status, "stepCount", "contentHash", raw, origin, settings, "startedAt")
       VALUES ($1, $2, 'offline-heuristic', 'offline-heuristic', 'ADVERSARIAL', 'RUNNING', 1, $1, '{}', 'EMULATED', '{"maxSteps": 7}', now())`, id, c!.id);
    await db.$executeRawUnsafe(`INSERT INTO "Step" (id, "trajectoryId", index, thought, action, "actionInputRaw") VALUES ($1::text || '-0', $1, 0, 'Check first.', 'TerminalExecute', '{"command": "ls"}')`, id);

    await signInAs(page, "RESEARCHER");
    await page.goto(`/playground/${id}`);
    await expect(page.getByTestId("episode-progress")).toHaveAttribute("role", "progressbar");
    await expect(page.getByTestId("episode-progress")).not.toHaveAttribute("aria-valuenow", /.*/);
    await expect(page.getByTestId("episode-progress-text")).toHaveText("Playing — step 1 of at most 7; the agent may finish at any step");
    await expect(page.getByTestId("episode-usage")).toHaveText("—");
    await expect(page.getByTestId("step-waiting")).toHaveText("waiting for the emulator…");
    await expect(page.getByTestId("step-observation")).toHaveCount(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: "test-results/playground-live.png" });

    // A finished step's usage counts at once, before the trajectory's totals are written.
    await db.$executeRawUnsafe(`UPDATE "Step" SET "observationRaw" = '{"output": "a b"}', "inputTokens" = 120, "outputTokens" = 30 WHERE "trajectoryId" = $1`, id);
    await expect(page.getByTestId("episode-usage")).toHaveText(/^150 tokens/, { timeout: 15_000 });
    await expect(page.getByTestId("step-waiting")).toHaveCount(0);

    // The form's evaluator select has a name (axe: select-name).
    await page.goto("/playground");
    await expect(page.getByTestId("evaluator-endpoint")).toHaveAccessibleName(/^Endpoint/);
  } finally {
    await db.$executeRawUnsafe(`DELETE FROM "Trajectory" WHERE id = $1`, id).catch(() => {});
    await db.$disconnect();
  }
});
