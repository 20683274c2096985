// Campaign blinding options from the form to the annotator's screen: "redact model
// self-identification" is stored, shown on the campaign page, and annotators are told that
// model names appear as [model]. (What is redacted is tested over the shared data in
// lib/annotation/redact.test.ts.)
import { expect, test } from "@playwright/test";
import { signInAs, signOut } from "./support/session";

test("a campaign created with redaction on says so on its page and on the annotator's screen", async ({ page }) => {
  const name = `E2E redacted campaign ${Date.now()}`;
  await signInAs(page, "RESEARCHER");
  await page.goto("/campaigns/new");
  const form = page.getByRole("form", { name: "New campaign" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await expect(form.getByTestId("selection-count")).toContainText(/\d+ trajectories match/);
  await expect(form.getByTestId("include-offline")).not.toBeChecked();
  await form.getByTestId("kind-sample").check();
  await form.getByTestId("sample-n").fill("2");
  await form.getByTestId("campaign-k").fill("1");
  await form.getByTestId("invite-annotator@demo.local").check();
  await form.getByTestId("redact-model-names").check();
  await form.getByTestId("create-campaign").click();
  await expect(page).toHaveURL(/\/campaigns\/[^/]+$/);
  await expect(page.getByTestId("campaign-blinding")).toHaveText("model names redacted · offline-model trajectories left out");
  const campaignId = new URL(page.url()).pathname.split("/").pop()!;

  await signOut(page);
  await signInAs(page, "ANNOTATOR");
  await page.goto(`/annotate/${campaignId}`);
  await expect(page.getByTestId("names-redacted")).toHaveText("Names of AI models in this trajectory are shown as [model].");
  // The item itself is on screen (a sampled trajectory may have no tool call, so not a step).
  await expect(page.getByTestId("user-instruction")).toBeVisible();
  await expect(page.getByTestId("submit-bar")).toBeVisible();
});
