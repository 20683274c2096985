import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";
import { labelAllViaApi, plainLabel } from "./support/annotate-api";
import { e2eDb } from "./support/e2e-db";

// Issue 18 #5: a PI adjudicates with the item in view, moves between disagreements with n / p,
// hides who labelled (b), asks for the evaluator scores (e) and decides with the keyboard.
test("a PI walks the disagreements with n / p, adjudicates blind with the keyboard, and the blind mode is recorded", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const name = `E2E adjudicate ${Date.now()}`;
  await signInAs(page, "PI");
  await page.goto("/campaigns/new");
  const form = page.getByRole("form", { name: "New campaign" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByTestId("kind-sample").check();
  await form.getByTestId("sample-n").fill("4");
  await form.getByTestId("campaign-k").fill("2");
  await form.getByTestId("invite-annotator@demo.local").check();
  await form.getByTestId("invite-annotator2@demo.local").check();
  await form.getByTestId("create-campaign").click();
  await expect(page.getByTestId("campaign-name")).toHaveText(name);
  const campaignId = new URL(page.url()).pathname.split("/").pop()!;

  // Ana: no risk everywhere; Ari agrees on his first two items and sees a severe risk on the others.
  expect(await labelAllViaApi(browser, "annotator@demo.local", campaignId, () => plainLabel("certain_no_risk", false))).toBe(4);
  expect(await labelAllViaApi(browser, "annotator2@demo.local", campaignId, (p) => plainLabel(p < 2 ? "certain_no_risk" : "likely_severe_risk", p >= 2))).toBe(4);

  await page.reload();
  // Items by disagreement: the first row is one of the two disagreements.
  await page.getByTestId("item-link").first().click();
  const toolbar = page.getByTestId("adjudication-toolbar");
  await expect(toolbar.getByTestId("disagreement-position")).toContainText(/Disagreement [12] of 2/);
  // The screen's own order (most disagreeing fields, then id) may differ from the table's: start at the first.
  if ((await toolbar.getByTestId("disagreement-position").textContent())!.includes("2 of 2")) await page.keyboard.press("p");
  await expect(toolbar.getByTestId("disagreement-position")).toContainText("Disagreement 1 of 2");
  // The item as annotators see it, the labels beside it, names shown.
  await expect(page.getByTestId("adjudication-item").getByTestId("user-instruction")).toBeVisible();
  await expect(page.getByTestId("label-columns")).toContainText("Ana Annotator");
  await expect(page.getByTestId("trajectory-link")).toHaveCount(0);
  await expect(page.getByTestId("evaluator-scores")).toHaveCount(0);
  const first = new URL(page.url()).pathname;

  // c and t: the item's own keys, as on the annotate screen — the task context, the agent's thoughts.
  const item = page.getByTestId("adjudication-item");
  const context = item.getByTestId("task-context");
  await expect(context).not.toHaveAttribute("open");
  await page.keyboard.press("c");
  await expect(context).toHaveAttribute("open", "");
  await expect(context.getByRole("heading", { name: "Expected achievements" })).toBeVisible();
  await page.keyboard.press("c");
  await expect(context).not.toHaveAttribute("open");
  const thoughts = item.locator("details[data-testid^='thought-']");
  if ((await thoughts.count()) > 0) {
    await expect(thoughts.first()).not.toHaveAttribute("open");
    await page.keyboard.press("t");
    await expect(thoughts.first()).toHaveAttribute("open", "");
    await page.keyboard.press("t");
    await expect(thoughts.first()).not.toHaveAttribute("open");
  }

  // n: the next disagreement; p: back.
  await page.keyboard.press("n");
  await expect(toolbar.getByTestId("disagreement-position")).toContainText("Disagreement 2 of 2");
  expect(new URL(page.url()).pathname).not.toBe(first);
  await page.keyboard.press("n");
  await expect(page.getByTestId("adjudication-notice")).toHaveText("No further disagreement.");
  await page.keyboard.press("p");
  await expect(toolbar.getByTestId("disagreement-position")).toContainText("Disagreement 1 of 2");
  expect(new URL(page.url()).pathname).toBe(first);

  // b: blind — no names anywhere on the page, "Annotator 1, 2" instead; e: evaluator scores.
  await page.keyboard.press("b");
  await expect(page).toHaveURL(/blind=1/);
  await expect(page.getByTestId("label-columns")).toContainText("Annotator 1");
  await expect(page.locator("main")).not.toContainText("Ana Annotator");
  await expect(page.locator("main")).not.toContainText("Ari Annotator");
  await page.keyboard.press("e");
  await expect(page.getByTestId("evaluator-scores")).toBeVisible();
  await expect(page).toHaveURL(/blind=1/);
  await page.keyboard.press("?");
  await expect(page.getByTestId("adjudication-keys")).toContainText("next / previous disagreement");
  await expect(page.getByTestId("adjudication-keys")).toContainText("show / hide the task context");
  await expect(page.getByTestId("adjudication-keys")).toContainText("show / hide the agent's thoughts");
  await page.screenshot({ path: "test-results/adjudicate-blind.png", fullPage: false });

  // Decision keys: 2 starts from annotator 2's label, r goes to the reason, Ctrl+Enter saves.
  await page.keyboard.press("2");
  await expect(page.getByTestId("adjudication-notice")).toContainText("Started from Annotator 2");
  await page.keyboard.press("r");
  await expect(page.getByTestId("adjudicate-reason")).toBeFocused();
  await page.keyboard.type("Severe risk: the agent ran the command without asking.");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("adjudication-message")).toContainText("Adjudicated label saved");
  await expect(page.getByTestId("existing-adjudication")).toContainText("blind");
  await expect(toolbar.getByTestId("disagreement-position")).toContainText("1 adjudicated");
  await page.screenshot({ path: "test-results/adjudicate-saved.png", fullPage: true });

  // Stored with the blind mode; the audit entry says so too.
  const db = e2eDb();
  try {
    const itemId = decodeURIComponent(first.split("/").pop()!);
    const adj = await db.adjudication.findUniqueOrThrow({ where: { itemId } });
    expect(adj.blind).toBe(true);
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "label.adjudicate", entityId: itemId } });
    expect((audit.after as { blind: boolean }).blind).toBe(true);
  } finally {
    await db.$disconnect();
  }

  // u (once the reason box has let go of the keyboard): the staff view shows the agent and the trajectory.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("u");
  await expect(page.getByTestId("trajectory-link")).toBeVisible();
});
