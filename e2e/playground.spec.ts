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
