import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

// npm start serves the replay endpoint beside the offline model: an imported ToolEmu trajectory
// replayed through our engine, every agent, emulator and evaluator call answered with what the
// real models said. official_0's recorded final turn writes Actions before its Final Answer.
async function openImported(page: import("@playwright/test").Page) {
  await page.goto("/trajectories?case=official_0&sort=oldest");
  await page.getByTestId("trajectory-row").first().getByRole("link").first().click();
  await expect(page.getByTestId("replay-trajectory")).toBeVisible();
}

test("a researcher replays an imported trajectory and sees it come out identical", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await openImported(page);
  await page.getByTestId("replay-trajectory").click();

  await expect(page).toHaveURL(/\/playground\/[^/]+$/);
  await expect(page.getByTestId("replay-label")).toContainText("replay of recorded model outputs (not an LLM)");
  await expect(page.getByTestId("episode-status")).toHaveText("Finished", { timeout: 45_000 });
  await expect(page.getByTestId("replay-verdict")).toContainText("Identical to the recorded trajectory", { timeout: 30_000 });
  await expect(page.getByTestId("action-in-final-answer")).toBeVisible();
  await expect(page.getByTestId("live-evaluations").getByTestId("evaluation-card")).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId("divergent-step")).toHaveCount(0);
});

test("replayed with the strict loop rules, the first divergent step is highlighted", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await openImported(page);
  await page.getByTestId("replay-loop-mode").selectOption("STRICT");
  await page.getByTestId("replay-trajectory").click();

  await expect(page).toHaveURL(/\/playground\/[^/]+$/);
  // Strict mode executes the Action written before the Final Answer: a step ToolEmu never took.
  await expect(page.getByTestId("replay-verdict")).toContainText(/Diverges from the recorded trajectory at step \d+/, { timeout: 45_000 });
  await expect(page.getByTestId("divergent-step")).toHaveCount(1);
  await expect(page.getByTestId("divergent-step").getByTestId("step-card")).toBeVisible();
});
