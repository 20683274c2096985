import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./support/session";

async function openDemoCampaign(page: Page) {
  await page.goto("/annotate");
  // By name: specs that run earlier leave campaigns of their own (some already Done) in the list.
  await page.getByTestId("my-campaign").filter({ hasText: "Demo: blinded review of 20 ToolEmu trajectories" }).getByRole("link").first().click();
  await expect(page.getByTestId("user-instruction")).toBeVisible();
  // On a first visit the guidelines come first; Enter starts (retried until the page is interactive).
  const dialog = page.getByRole("dialog", { name: "Guidelines" });
  if (await dialog.isVisible()) {
    await expect(async () => {
      await page.keyboard.press("Enter");
      await expect(dialog).toBeHidden({ timeout: 500 });
    }).toPass({ timeout: 10_000 });
  }
  await expect(page.getByTestId("field-safety")).toHaveAttribute("data-focused", "true");
}

test("an annotator labels three items with the keyboard only", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await openDemoCampaign(page);
  const progress = page.getByTestId("progress");
  const start = Number((await progress.textContent())!.split(" ")[0]);
  for (let i = 0; i < 3; i++) {
    const itemId = await page.locator("[title='Opaque item id']").textContent();
    await expect(page.getByTestId("field-safety")).toHaveAttribute("data-focused", "true");
    // safety, helpfulness, three emulator aspects, true failure
    for (const key of ["3", "ArrowDown", "2", "ArrowDown", "0", "ArrowDown", "1", "ArrowDown", "0", "ArrowDown", "n"]) await page.keyboard.press(key);
    await expect(page.getByTestId("field-safety").getByRole("radio", { name: /Certain No Risk/ })).toBeChecked();
    await expect(page.getByTestId("field-emulator_realism").getByRole("radio", { name: /Minor/ })).toBeChecked();
    await page.keyboard.press("Enter");
    await expect(page.locator("[title='Opaque item id']")).not.toHaveText(itemId!);
    await expect(progress).toHaveText(new RegExp(`^${start + i + 1} of`));
  }
});

test("pressing 1 twice switches between the two safety labels worth 1, and ? shows the shortcuts", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await openDemoCampaign(page);
  await page.keyboard.press("1");
  await expect(page.getByRole("radio", { name: /Likely Mild Risk/ })).toBeChecked();
  await page.keyboard.press("1");
  await expect(page.getByRole("radio", { name: /Possible Severe Risk/ })).toBeChecked();
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeHidden();
});

test("a draft survives a reload, and an incomplete label is not submitted", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await openDemoCampaign(page);
  const itemId = await page.locator("[title='Opaque item id']").textContent();
  await page.keyboard.press("2");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("1");
  await page.getByTestId("field-comment").getByRole("textbox").fill("half-way through; shortcuts 3 and n are text here");
  await expect(page.getByTestId("save-state")).toContainText("Draft saved");
  await page.reload();
  await expect(page.locator("[title='Opaque item id']")).toHaveText(itemId!);
  await expect(page.getByRole("radio", { name: /Possible Mild Risk/ })).toBeChecked();
  await expect(page.getByTestId("field-helpfulness").getByRole("radio", { name: /Unsatisfactory/ })).toBeChecked();
  await expect(page.getByTestId("field-comment").getByRole("textbox")).toHaveValue("half-way through; shortcuts 3 and n are text here");
  await page.getByRole("button", { name: /Submit & next/ }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Still to answer" })).toContainText("Emulator: input validation");
  await expect(page.locator("[title='Opaque item id']")).toHaveText(itemId!);
});

test("what an annotator's pages contain never names the models, the emulator mode or the evaluators", async ({ page }) => {
  const bodies: string[] = [];
  page.on("response", async (r) => {
    if (r.url().startsWith("http://localhost") && !/\/_next\/static\//.test(r.url())) bodies.push(await r.text().catch(() => ""));
  });
  await signInAs(page, "ANNOTATOR");
  await openDemoCampaign(page);
  await page.keyboard.press("3");
  await expect(page.getByTestId("save-state")).toContainText("Draft saved");
  await page.reload();
  await expect(page.getByTestId("user-instruction")).toBeVisible();
  bodies.push(await page.content());
  const all = bodies.join("\n");
  for (const forbidden of ["Qwen2.5-7B", "Qwen3-8B", "Qwen3-32B", "gpt-5-mini", "ADVERSARIAL", "Adversarial", "_eval_agent", ".jsonl", "ToolCallRisk"]) {
    expect(all.includes(forbidden), `annotator responses contain "${forbidden}"`).toBe(false);
  }
});

test("a RESEARCHER who is not invited cannot label, and sees no campaigns to label", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/annotate");
  await expect(page.getByTestId("no-campaigns")).toBeVisible();
});
