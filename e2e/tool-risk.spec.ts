import { expect, test } from "@playwright/test";
import { signInAs, signOut } from "./support/session";

test("a researcher curates a tool's risk on the toolkit page, sees it as curated, and resets it", async ({ page }) => {
  const me = await signInAs(page, "RESEARCHER");
  await page.goto("/toolkits/BankManager");
  const table = page.getByTestId("tool-risk-table");
  const row = table.locator("[data-tool='BankManagerSearchPayee']");
  await expect(row.getByTestId("risk-source")).toContainText("Default rule");
  await expect(row.getByTestId("risk-source")).toContainText("verb search");
  await expect(row.getByTestId("risk-level")).toHaveText("none");
  await expect(table.locator("[data-tool='BankManagerTransferFunds']").getByTestId("risk-amount")).toHaveText("amount");

  await row.getByTestId("risk-edit").click();
  const form = page.getByTestId("risk-form");
  await expect(form.getByLabel("Risk level")).toBeFocused();
  await form.getByLabel("Risk level").selectOption("mild");
  await form.getByTestId("risk-critical-input").check();
  await form.getByTestId("risk-save").click();
  await expect(page.getByTestId("risk-notice")).toContainText("BankManagerSearchPayee: curated");
  await expect(row.getByTestId("risk-source")).toContainText(`Curated by ${me.name}`);
  await expect(row.getByTestId("risk-level")).toHaveText("mild");
  await expect(row.getByTestId("risk-critical")).toHaveText("critical");
  await page.reload();
  await expect(row.getByTestId("risk-source")).toContainText(`Curated by ${me.name}`);
  await page.getByTestId("tool-risk-table").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/tool-risk-toolkit.png", fullPage: false });

  // The case page shows it among the critical tools from the toolkit.
  await page.goto("/cases/official_115");
  await expect(page.getByTestId("critical-from-toolkits")).toContainText("BankManagerSearchPayee");
  await page.locator("#critical-tools").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/tool-risk-case.png" });

  // The export carries it under the extra key.
  const exported = (await (await page.request.get("/toolkits/export")).json()) as { toolkit: string; tools: Record<string, unknown>[] }[];
  const search = exported.find((t) => t.toolkit === "BankManager")!.tools.find((t) => t.name === "SearchPayee")!;
  expect(search.x_toolemu_studio).toMatchObject({ risk_level: "mild", critical: true, amount_arg: null, curated_by: me.name });

  // Back to the rule (other specs read the default risk).
  await page.goto("/toolkits/BankManager");
  await row.getByTestId("risk-edit").click();
  await page.getByTestId("risk-reset").click();
  await expect(row.getByTestId("risk-source")).toContainText("Default rule");
  await expect(row.getByTestId("risk-level")).toHaveText("none");

  // A PI (staff, without toolkit:curate) sees the table read-only.
  await signOut(page);
  await signInAs(page, "PI");
  await page.goto("/toolkits/BankManager");
  await expect(page.getByTestId("tool-risk-table")).toBeVisible();
  await expect(page.getByTestId("risk-edit")).toHaveCount(0);
});

test("a campaign with the checkpoint form: the annotator answers each step with the keyboard", async ({ page }) => {
  const name = `E2E checkpoint campaign ${Date.now()}`;
  await signInAs(page, "RESEARCHER");
  await page.goto("/campaigns/new");
  const form = page.getByRole("form", { name: "New campaign" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByTestId("label-form").selectOption("toolemu-checkpoints");
  await expect(form.getByText("for every step, whether the agent was still on track")).toBeVisible();
  await expect(form.getByTestId("selection-count")).toContainText(/\d+ trajectories match/);
  await form.getByTestId("kind-sample").check();
  await form.getByTestId("sample-n").fill("4");
  await form.getByLabel("Sample seed").fill("7");
  await form.getByTestId("campaign-k").fill("1");
  await form.getByTestId("invite-annotator@demo.local").check();
  await form.getByTestId("create-campaign").click();
  await expect(page).toHaveURL(/\/campaigns\/[^/]+$/);
  await signOut(page);

  await signInAs(page, "ANNOTATOR");
  await page.goto("/annotate");
  await page.getByTestId("my-campaign").filter({ hasText: name }).getByRole("link").first().click();
  await expect(page.getByTestId("user-instruction")).toBeVisible();
  const dialog = page.getByRole("dialog", { name: "Guidelines" });
  if (await dialog.isVisible()) await page.keyboard.press("Escape");
  // safety, helpfulness, three emulator aspects, true failure.
  const sixFields = ["1", "ArrowDown", "1", "ArrowDown", "0", "ArrowDown", "0", "ArrowDown", "0", "ArrowDown", "y"];
  // A trajectory without tool steps has nothing to answer per step: label it and take the next.
  let steps = 0;
  for (let item = 0; item < 4; item++) {
    await expect(page.getByTestId("field-safety")).toHaveAttribute("data-focused", "true");
    steps = await page.getByTestId("annotate-step").count();
    if (steps > 0) break;
    const itemId = await page.locator("[title='Opaque item id']").textContent();
    for (const key of sixFields) await page.keyboard.press(key);
    await page.keyboard.press("Enter");
    await expect(page.locator("[title='Opaque item id']")).not.toHaveText(itemId!);
  }
  expect(steps).toBeGreaterThan(0);

  // safety, helpfulness, three emulator aspects, true failure, then the per-step field.
  for (const key of [...sixFields, "ArrowDown"]) await page.keyboard.press(key);
  const field = page.getByTestId("field-on_track_before_step");
  await expect(field).toHaveAttribute("data-focused", "true");
  await expect(field.getByTestId("steps-progress")).toContainText(`0 of ${steps} answered`);
  // An incomplete per-step answer is not submitted.
  await page.keyboard.press("y");
  if (steps > 1) {
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "Still to answer" })).toContainText("On track before each step?");
    await field.focus();
  }
  // y for the first, n for the rest; Backspace takes the last answer back once.
  for (let i = 1; i < steps; i++) await page.keyboard.press("n");
  await page.keyboard.press("Backspace");
  await expect(field.getByTestId(`step-answer-${steps}`)).toHaveAttribute("data-answer", "");
  await page.keyboard.press("u");
  await expect(field.getByTestId("step-answer-1")).toHaveAttribute("data-answer", steps > 1 ? "y" : "u");
  await expect(field.getByTestId(`step-answer-${steps}`)).toHaveAttribute("data-answer", "u");
  await expect(field.getByTestId("steps-progress")).toContainText(`${steps} of ${steps} answered`);
  await field.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/per-step-annotate.png" });
  const itemId = await page.locator("[title='Opaque item id']").textContent();
  await page.keyboard.press("Enter");
  await expect(page.locator("[title='Opaque item id']").or(page.getByRole("heading", { name: "Nothing left for you here" }))).not.toHaveText(itemId!);
});
