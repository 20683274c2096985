// Label forms per campaign (issue 18 item 6): a PI defines a custom form with a per-step rating
// in the form editor (a located error shown and fixed on the way), two annotators label with it,
// and the per-step field's κ appears on the campaign's agreement panel.
import { expect, test, type Page } from "@playwright/test";
import { signInAs, signOut } from "./support/session";

test.setTimeout(240_000);

/** Labels every item of the campaign: overall 4, and step i rated by `rate(item, i)`. */
async function labelAll(page: Page, campaign: string, rate: (item: number, step: number) => number) {
  await page.goto("/annotate");
  await page.getByTestId("my-campaign").filter({ hasText: campaign }).getByRole("link").first().click();
  const dialog = page.getByRole("dialog", { name: "Guidelines" });
  let shot = false;
  for (let item = 0; ; item++) {
    const nothingLeft = page.getByRole("heading", { name: "Nothing left for you here" });
    const overall = page.getByTestId("field-overall");
    await expect(overall.or(nothingLeft)).toBeVisible();
    if (await nothingLeft.isVisible()) return item;
    if (await dialog.isVisible()) await page.keyboard.press("Escape");
    await overall.getByText("4", { exact: true }).click();
    const field = page.getByTestId("field-progress");
    const steps = await page.getByTestId("annotate-step").count();
    // Click the visible digit (the radio itself is visually hidden).
    for (let s = 1; s <= steps; s++) {
      const row = field.getByTestId(`step-rating-${s}`);
      await row.getByText(String(rate(item, s)), { exact: true }).click();
      await expect(row).toHaveAttribute("data-rating", String(rate(item, s)));
    }
    if (steps > 0) await expect(field.getByTestId("step-ratings-progress")).toContainText(`${steps} of ${steps} rated`);
    if (steps > 0 && !shot) {
      shot = true;
      await field.scrollIntoViewIfNeeded();
      await page.screenshot({ path: "test-results/label-forms-annotate.png", fullPage: false });
    }
    const itemId = await page.locator("[title='Opaque item id']").textContent();
    await page.getByRole("button", { name: /^Submit/ }).click();
    await expect(page.locator("[title='Opaque item id']").or(nothingLeft)).not.toHaveText(itemId!);
  }
}

test("a PI defines a custom form with a per-step rating; annotators label; κ appears on the campaign page", async ({ page }) => {
  const name = `E2E custom form ${Date.now()}`;
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInAs(page, "PI");
  await page.goto("/campaigns/new");
  const form = page.getByRole("form", { name: "New campaign" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByTestId("label-form").selectOption("custom");
  const editor = form.getByTestId("label-form-editor");
  await expect(editor.getByTestId("form-check")).toContainText("The form is valid: 2 fields");

  // Add a third field, make it a per-step rating; a bad key is pointed at where it is.
  await editor.getByTestId("add-field").click();
  await editor.getByTestId("field-kind-2").selectOption("step_rating");
  await editor.getByTestId("field-key-2").fill("Progress");
  await editor.getByTestId("field-label-2").fill("Progress at this step");
  await expect(editor.getByTestId("field-errors-2")).toContainText("fields[2].key: a key is lower-case letters");
  await expect(editor.getByTestId("form-check")).toContainText("1 problem to fix");
  await editor.getByTestId("form-view-json").click();
  await expect(editor.getByTestId("form-issues")).toContainText(/line \d+ · fields\[2\]\.key/);
  await page.screenshot({ path: "test-results/label-forms-editor-error.png", fullPage: false });
  await editor.getByTestId("form-view-form").click();
  await editor.getByTestId("field-key-2").fill("progress");
  await editor.getByTestId("field-max-2").fill("3");
  await expect(editor.getByTestId("form-check")).toContainText("The form is valid: 3 fields");
  await editor.getByTestId("form-view-json").click();
  await expect(editor.getByTestId("form-json")).toHaveValue(/"kind": "step_rating"/);
  await editor.getByTestId("form-view-form").click();
  await editor.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/label-forms-editor.png", fullPage: false });

  await expect(form.getByTestId("selection-count")).toContainText(/\d+ trajectories match/);
  await form.getByTestId("kind-sample").check();
  await form.getByTestId("sample-n").fill("3");
  await form.getByLabel("Sample seed").fill("11");
  await form.getByTestId("campaign-k").fill("2");
  await form.getByTestId("invite-annotator@demo.local").check();
  await form.getByTestId("invite-annotator2@demo.local").check();
  await form.getByTestId("create-campaign").click();
  await expect(page).toHaveURL(/\/campaigns\/(?!new$)[^/]+$/);
  const campaignUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId("field-agreement")).toContainText("Form version 1");
  await signOut(page);

  // Both rate step s with (s mod 3) + 1; the second annotator rates every first step 3 instead.
  await signInAs(page, "ANNOTATOR");
  const labelled = await labelAll(page, name, (_item, s) => (s % 3) + 1);
  expect(labelled).toBe(3);
  await signOut(page);
  await page.goto("/signin");
  await page.getByLabel("Email").fill("annotator2@demo.local");
  await page.getByLabel("Password").fill("annotator-demo-2");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeVisible();
  // Step 1 of every item gets 3 (not 2): the seeded sample of 3 trajectories may hold only 0- or 1-step
  // ones, and with one answer used throughout κ is undefined (chance disagreement 0).
  await labelAll(page, name, (_item, s) => (s === 1 ? 3 : (s % 3) + 1));
  await signOut(page);

  await signInAs(page, "PI");
  await page.goto(campaignUrl);
  const panel = page.getByTestId("field-agreement");
  const row = panel.getByTestId("agreement-progress");
  await expect(row).toContainText("Progress at this step");
  await expect(row).toContainText("per step");
  await expect(row.getByTestId("kappa-linear-progress")).toHaveText(/^−?[01]\.\d{3}/);
  await expect(row.getByTestId("kappa-quadratic-progress")).toHaveText(/^−?[01]\.\d{3}/);
  await panel.getByText("How is this computed").click();
  await expect(panel).toContainText("pooled pairs");
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/label-forms-agreement.png", fullPage: false });
});
