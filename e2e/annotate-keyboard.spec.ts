// Issue 18 items 1–4, keyboard only on the annotate screen: the task context, thoughts, final
// message and a long observation by their keys (c t f o [ ]), natural Tab order, a label given
// with each field's own keys without focusing a field, the sticky status / submit bar in view at
// 1366×768 and 1440×900, a visible and announced submit confirmation, "previous item" revising an
// earlier label (audited), finished items listed by content, and a finished campaign saying Done.
// Seeded on the e2e app's database (rows as lib/annotation/campaigns.ts writes them; its module is
// server-only): a campaign of two items for the demo annotator, one of them with a long
// observation; removed at the end (other specs open the annotator's newest campaign).
import { createHash, randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { itemHint } from "@/lib/annotation/my-items";
import type { Prisma, PrismaClient } from "@/lib/db/generated/client";
import { TOOLEMU_LABEL_SCHEMA } from "@/lib/trajectory/label-schema";
import { e2eDb } from "./support/e2e-db";
import { demoUser, signInAs } from "./support/session";

test.describe.configure({ mode: "serial" });

let db: PrismaClient;
let campaignId = "";
const name = `E2E keyboard campaign ${Date.now()}`;

test.beforeAll(async () => {
  db = e2eDb();
  const annotator = await db.user.findUniqueOrThrow({ where: { email: demoUser("ANNOTATOR").email }, select: { id: true } });
  // The trajectory with the longest observation (of a case with expected achievements); and one
  // more of another case.
  const [long] = await db.$queryRaw<{ id: string; caseId: string }[]>`
    SELECT t.id, t."caseId" FROM "Trajectory" t JOIN "TestCase" tc ON tc.id = t."caseId" JOIN "Step" s ON s."trajectoryId" = t.id
    WHERE cardinality(tc."expectedAchievements") > 0 AND t."agentModel" NOT ILIKE '%offline%' AND t."emulatorModel" NOT ILIKE '%offline%'
    ORDER BY length(coalesce(s."observationRaw", '')) DESC, t.id LIMIT 1`;
  const [other] = await db.$queryRaw<{ id: string }[]>`
    SELECT t.id FROM "Trajectory" t WHERE t."caseId" IS NOT NULL AND t."caseId" <> ${long!.caseId} AND t."stepCount" > 0
      AND t."agentModel" NOT ILIKE '%offline%' AND t."emulatorModel" NOT ILIKE '%offline%' ORDER BY t.id LIMIT 1`;
  const schema = TOOLEMU_LABEL_SCHEMA as unknown as Prisma.InputJsonValue;
  // Items are claimed in md5(seed:annotator:item) order (assignments.ts): pick a seed that gives the long one first.
  const ids = [long!.id, other!.id].map((trajectoryId) => ({ id: `it_${randomBytes(12).toString("base64url")}`, trajectoryId }));
  const order = (seed: number, itemId: string) => createHash("md5").update(`${seed}:${annotator.id}:${itemId}`).digest("hex");
  let seed = 1;
  while (order(seed, ids[0]!.id) >= order(seed, ids[1]!.id)) seed++;
  ({ id: campaignId } = await db.campaign.create({
    data: {
      name, k: 1, seed, labelSchema: schema, labelSchemaVersion: TOOLEMU_LABEL_SCHEMA.version,
      members: { create: [{ userId: annotator.id }] },
      items: { create: ids },
      formVersions: { create: [{ version: TOOLEMU_LABEL_SCHEMA.version, schema }] },
    },
    select: { id: true },
  }));
});

test.afterAll(async () => {
  if (campaignId) await db.campaign.delete({ where: { id: campaignId } });
  await db.$disconnect();
});

/** The item on screen, from the database: its trajectory's longest observation, and its hint. */
async function shown(page: Page) {
  const itemId = (await page.locator("[title='Opaque item id']").textContent())!;
  const item = await db.campaignItem.findUniqueOrThrow({
    where: { id: itemId },
    select: { trajectory: { select: { finalLog: true, steps: { select: { index: true, observationRaw: true, thought: true }, orderBy: { index: "asc" } }, case: { select: { userInstruction: true, expectedAchievements: true, toolkits: { select: { toolkit: { select: { nameForHuman: true } } }, orderBy: { position: "asc" } } } } } } },
  });
  const t = item.trajectory!;
  const longest = [...t.steps].sort((a, b) => (b.observationRaw?.length ?? 0) - (a.observationRaw?.length ?? 0))[0]!;
  return { itemId, hasThoughts: t.steps.some((s) => s.thought), hasFinalMessage: t.finalLog !== null, longStep: longest.index, longLength: longest.observationRaw?.length ?? 0, hint: itemHint(t.case!.userInstruction, t.case!.toolkits.map((x) => x.toolkit.nameForHuman)), achievement: t.case!.expectedAchievements[0]! };
}

const radio = (page: Page, field: string, label: RegExp) => page.getByTestId(`field-${field}`).getByRole("radio", { name: label });

async function openCampaign(page: Page) {
  await page.goto(`/annotate/${campaignId}`);
  await expect(page.getByTestId("user-instruction")).toBeVisible();
  await expect(page.getByTestId("field-safety")).toHaveAttribute("data-focused", "true");
  // The server's HTML already marks the first field; the focus itself comes only once the page has
  // hydrated and its key listener is in place — a key pressed before that would be lost.
  await expect(page.getByTestId("field-safety")).toBeFocused();
}

test("keyboard only: context, thoughts, final message and a long observation by their keys; a label by each field's own keys; the bar stays in view; the submit is confirmed", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInAs(page, "ANNOTATOR");
  await openCampaign(page);
  await page.screenshot({ path: "test-results/annotate-after-1366.png" });
  const first = await shown(page);
  expect(first.longLength).toBeGreaterThan(1000);

  // Keys are shown on the page, and each field shows its own.
  await expect(page.getByTestId("item-keys")).toContainText("c task context");
  await expect(page.getByTestId("field-safety").getByTestId("field-keys")).toHaveText("0–3");
  await expect(page.getByTestId("field-helpfulness").getByTestId("field-keys")).toHaveText("⇧ 0–3");
  await expect(page.getByTestId("field-emulator_input_validation").getByTestId("field-keys")).toHaveText("v then 0–2");
  await expect(page.getByTestId("field-true_failure").getByTestId("field-keys")).toHaveText("y / n");

  // The status and the submit button are in view before anything is answered, at both sizes.
  for (const size of [{ width: 1366, height: 768 }, { width: 1440, height: 900 }]) {
    await page.setViewportSize(size);
    await expect(page.getByTestId("form-status")).toContainText("Still to answer (6)");
    await expect(page.getByTestId("form-status")).toBeInViewport();
    await expect(page.getByRole("button", { name: /Submit & next/ })).toBeInViewport();
  }
  await page.setViewportSize({ width: 1366, height: 768 });

  // c: the task context with the expected achievements; t: the thoughts; f: the final message.
  const achievement = page.getByTestId("task-context").getByText(first.achievement, { exact: true });
  await expect(achievement).toBeHidden();
  await page.keyboard.press("c");
  await expect(achievement).toBeVisible();
  expect(first.hasThoughts || first.hasFinalMessage, "the item has thoughts or a final message to open").toBe(true);
  if (first.hasThoughts) {
    await expect(page.locator("[data-testid^='thought-'] > p").first()).toBeHidden();
    await page.keyboard.press("t");
    await expect(page.locator("[data-testid^='thought-'] > p").first()).toBeVisible();
  }
  if (first.hasFinalMessage) {
    await page.keyboard.press("f");
    await expect(page.getByTestId("final-message").locator("p")).toBeVisible();
    await page.keyboard.press("f");
    await expect(page.getByTestId("final-message").locator("p")).toBeHidden();
  }

  // ] moves step by step to the long observation's step; o shows it in full and back; it scrolls by keyboard.
  for (let i = 0; i <= first.longStep; i++) await page.keyboard.press("]");
  await expect(page.locator(`[data-step-index='${first.longStep}']`)).toBeFocused();
  const box = page.getByTestId(`observation-${first.longStep + 1}`);
  await expect(box).toHaveAttribute("role", "region");
  await expect(box).toHaveAttribute("tabindex", "0");
  await page.keyboard.press("o");
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute("data-expanded", "true");
  await page.keyboard.press("o");
  await expect(box).toHaveAttribute("data-expanded", "false");
  expect(await box.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  for (let i = 0; i < 3; i++) await page.keyboard.press("PageDown");
  await expect.poll(() => box.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  if (first.longStep > 0) {
    await page.keyboard.press("[");
    await expect(page.locator(`[data-step-index='${first.longStep - 1}']`)).toBeFocused();
  }

  // Tab is not taken by the form: from the item it walks on in reading order into the form's options.
  let reached = false;
  for (let i = 0; i < 200 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.closest("[data-field='safety']") !== null && document.activeElement?.tagName === "INPUT");
  }
  expect(reached, "Tab reaches the safety options").toBe(true);
  await page.keyboard.press("Tab");
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest("fieldset")?.dataset.field)).toBe("helpfulness");

  // Out of the form again (a step has focus), each field's own keys give the label.
  await page.keyboard.press("]");
  expect(await page.evaluate(() => document.activeElement?.closest("form"))).toBeNull();
  await page.keyboard.press("3");
  await page.keyboard.press("Shift+Digit2");
  await page.keyboard.press("v");
  await expect(page.getByTestId("prefix-pending")).toContainText("Emulator: input validation");
  await page.keyboard.press("0");
  for (const key of ["r", "1", "i", "0", "n"]) await page.keyboard.press(key);
  await expect(radio(page, "safety", /Certain No Risk/)).toBeChecked();
  await expect(radio(page, "helpfulness", /Good/)).toBeChecked();
  await expect(radio(page, "emulator_input_validation", /No issue/)).toBeChecked();
  await expect(radio(page, "emulator_realism", /Minor/)).toBeChecked();
  await expect(radio(page, "emulator_consistency", /No issue/)).toBeChecked();
  await expect(radio(page, "true_failure", /No/)).toBeChecked();
  await expect(page.getByTestId("form-status")).toHaveText("All answered — Enter submits");
  await expect(page.getByRole("button", { name: /Submit & next/ })).toBeInViewport();

  // Enter submits; the confirmation is visible and in a live region; the next item is on screen.
  await page.keyboard.press("Enter");
  const notice = page.getByTestId("submit-notice");
  await expect(notice).toHaveAttribute("role", "status");
  await expect(notice).toHaveAttribute("aria-live", "polite");
  await expect(notice).toContainText(`Label submitted for item 1: “${first.hint}”. Next item loaded.`);
  await expect(page.locator("[title='Opaque item id']")).not.toHaveText(first.itemId);
  await expect(notice).toBeInViewport();
  await page.screenshot({ path: "test-results/annotate-after-1366-submitted.png" });
});

test("previous item: p opens my earlier item, a changed label is saved as an audited revision, and my finished items are listed by content", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInAs(page, "ANNOTATOR");
  await openCampaign(page);
  const current = await shown(page);
  const [earlier] = await db.assignment.findMany({ where: { campaignId, status: "SUBMITTED" }, select: { id: true, itemId: true } });

  // My finished items: by content, not "Item 1".
  await page.getByText("My finished items (1)").click();
  const listed = page.getByTestId("finished-item");
  await expect(listed).toHaveCount(1);
  const hint = (await listed.textContent())!;
  expect(hint).not.toMatch(/^Item \d/);
  await page.keyboard.press("Escape");

  await page.keyboard.press("p");
  await expect(page).toHaveURL(new RegExp(`revise=${earlier!.id}`));
  await expect(page.getByTestId("revising")).toContainText(`item 1: “${hint}”`);
  await expect(page.locator("[title='Opaque item id']")).toHaveText(earlier!.itemId);
  await expect(radio(page, "safety", /Certain No Risk/)).toBeChecked();
  await expect(page.getByTestId("field-safety")).toHaveAttribute("data-focused", "true");
  await page.keyboard.press("0");
  await expect(radio(page, "safety", /Likely Severe Risk/)).toBeChecked();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("submit-notice")).toContainText(`Revision saved for item 1: “${hint}”. Back to the item you are working on.`);
  await expect(page.locator("[title='Opaque item id']")).toHaveText(current.itemId);

  const stored = await db.assignment.findUniqueOrThrow({ where: { id: earlier!.id }, select: { values: true, status: true } });
  expect(stored).toMatchObject({ status: "SUBMITTED", values: { safety: "likely_severe_risk" } });
  const audit = await db.auditLog.findMany({ where: { entityId: earlier!.id, action: "label.revise" }, select: { before: true, after: true } });
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({ before: { safety: "certain_no_risk" }, after: { safety: "likely_severe_risk" } });
});

test("the last item: the screen says Done and lists my items by content; the campaign's card says Done, not Continue", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await openCampaign(page);
  const last = await shown(page);
  for (const key of ["1", "Shift+Digit0", "v", "2", "r", "2", "i", "2", "y"]) await page.keyboard.press(key);
  await expect(page.getByTestId("form-status")).toHaveText("All answered — Enter submits");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("campaign-done")).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Done/ })).toBeVisible();
  await expect(page.getByTestId("submit-notice")).toContainText(`Label submitted for item 2: “${last.hint}”.`);
  await expect(page.getByTestId("finished-item")).toHaveCount(2);
  await expect(page.getByTestId("finished-item").nth(1)).toHaveText(last.hint);

  await page.goto("/annotate");
  const card = page.getByTestId("my-campaign").filter({ hasText: name });
  await expect(card.getByTestId("campaign-done-badge")).toHaveText("Done");
  await expect(card.getByRole("link")).toHaveText("Done · review my labels");
  await expect(card).not.toContainText("Continue");
});
