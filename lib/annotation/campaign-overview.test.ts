// The campaign page's overview (issue 19 #4): totals and the order of "items by disagreement" come
// from one aggregate in the database (per-label safety scores kept in LabelVote), one page of items
// is read with its labels; gold items stay out; a page past the end shows the last one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createCampaign } from "./campaigns";
import { campaignItemsPageCached, campaignPageOverview } from "@/lib/dashboards/campaign-page";
import { campaignOverview } from "./queries";

const SAFETY = ["likely_severe_risk", "likely_mild_risk", "possible_mild_risk", "certain_no_risk"]; // scores 0, 1, 2, 3
const label = (s: number) => ({ safety: SAFETY[s], helpfulness: "good", emulator_input_validation: "none", emulator_realism: "none", emulator_consistency: "none", true_failure: false, comment: "" });

describe("campaignOverview", () => {
  let t: TestDatabase;
  let campaignId: string;
  const itemOf = new Map<string, string>(); // case name → item id
  beforeAll(async () => {
    t = await createTestDatabase();
    const trajIds: string[] = [];
    for (const name of ["case_a", "case_b", "case_c", "case_d", "case_e", "case_gold"]) {
      const c = await t.prisma.testCase.create({
        data: { source: "test", name, userInstruction: "Do it", underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [], contentHash: name, raw: {} },
      });
      const traj = await t.prisma.trajectory.create({
        data: { caseId: c.id, agentModel: `agent/${name}`, emulatorModel: "m", emulatorMode: "ADVERSARIAL", status: "FINISHED", stepCount: 0, contentHash: `h_${name}`, raw: {} },
      });
      trajIds.push(traj.id);
    }
    await t.prisma.user.createMany({ data: ["ann1", "ann2", "ann3"].map((id) => ({ id, email: `${id}@lab.example`, name: `Name ${id}`, role: "ANNOTATOR" as const, passwordHash: "x" })) });
    ({ id: campaignId } = await createCampaign(t.prisma, null, { name: "overview", k: 3, seed: 1, annotatorIds: ["ann1", "ann2", "ann3"], selection: { kind: "ids", trajectoryIds: trajIds } }));
    const items = await t.prisma.campaignItem.findMany({ where: { campaignId }, select: { id: true, trajectory: { select: { case: { select: { name: true } } } } } });
    for (const it of items) itemOf.set(it.trajectory!.case!.name, it.id);
    // Safety scores per case (one per annotator): spreads a 3, b 0, c 1, d 3, e — (one label), gold 3.
    const scores: Record<string, number[]> = { case_a: [0, 3, 3], case_b: [2, 2, 2], case_c: [1, 2], case_d: [3, 0, 1], case_e: [3], case_gold: [0, 3] };
    for (const [name, ss] of Object.entries(scores)) {
      await t.prisma.assignment.createMany({
        data: ss.map((s, i) => ({ campaignId, itemId: itemOf.get(name)!, annotatorId: `ann${i + 1}`, status: "SUBMITTED" as const, values: label(s), submittedAt: new Date(), timeSpentMs: 1000 })),
      });
    }
    // In progress and skipped: counted per annotator, not as labels.
    await t.prisma.assignment.create({ data: { campaignId, itemId: itemOf.get("case_e")!, annotatorId: "ann2", status: "CLAIMED", leaseUntil: new Date(Date.now() + 60_000) } });
    await t.prisma.assignment.create({ data: { campaignId, itemId: itemOf.get("case_c")!, annotatorId: "ann3", status: "SKIPPED" } });
    await t.prisma.goldAnswer.create({ data: { itemId: itemOf.get("case_gold")!, values: label(3), source: "form" } });
    await t.prisma.adjudication.create({ data: { itemId: itemOf.get("case_d")!, values: label(1), reason: "looked again" } });
  });
  afterAll(async () => t?.cleanup());

  it("counts the real items and their labels in the database, gold items left out", async () => {
    const o = await campaignOverview(t.prisma, campaignId);
    expect(o.totals).toEqual({ items: 5, labelsNeeded: 15, labelsSubmitted: 12, complete: 3, disagreements: 3, adjudicated: 1 });
    expect(o.page).toEqual({ page: 1, pageSize: 50, pageCount: 1 });
    const progress = Object.fromEntries(o.progress.map((p) => [p.userId, [p.submitted, p.claimed, p.skipped]]));
    // The gold item's two labels count in the annotators' progress (they did label it), not in the items.
    expect(progress).toEqual({ ann1: [6, 0, 0], ann2: [5, 1, 0], ann3: [3, 0, 1] });
  });

  it("sorts the items by safety spread, largest first, then case name; fewer than two scores last", async () => {
    const o = await campaignOverview(t.prisma, campaignId);
    expect(o.items.map((i) => [i.caseName, i.safetySpread])).toEqual([["case_a", 3], ["case_d", 3], ["case_c", 1], ["case_b", 0], ["case_e", null]]);
    const d = o.items[1]!;
    expect(d.agentModel).toBe("agent/case_d");
    expect(d.emulatorMode).toBe("ADVERSARIAL");
    expect(d.labels.map((l) => [l.annotator, l.values.safety])).toEqual([["Name ann1", "certain_no_risk"], ["Name ann2", "likely_severe_risk"], ["Name ann3", "likely_mild_risk"]]);
    expect(d.adjudication?.reason).toBe("looked again");
    expect(o.items[0]!.adjudication).toBeNull();
  });

  it("reads one page of items at a time; a page past the end shows the last", async () => {
    const p2 = await campaignOverview(t.prisma, campaignId, { page: 2, pageSize: 2 });
    expect(p2.page).toEqual({ page: 2, pageSize: 2, pageCount: 3 });
    expect(p2.items.map((i) => i.caseName)).toEqual(["case_c", "case_b"]);
    expect(p2.items[0]!.labels).toHaveLength(2);
    expect(p2.totals.items).toBe(5);
    const past = await campaignOverview(t.prisma, campaignId, { page: 99, pageSize: 2 });
    expect(past.page.page).toBe(3);
    expect(past.items.map((i) => i.caseName)).toEqual(["case_e"]);
  });

  it("follows a revised label: the spread and the order change", async () => {
    await t.prisma.assignment.updateMany({ where: { itemId: itemOf.get("case_b")!, annotatorId: "ann1" }, data: { values: label(0) } });
    const o = await campaignOverview(t.prisma, campaignId);
    expect(o.items.map((i) => [i.caseName, i.safetySpread])).toEqual([["case_a", 3], ["case_d", 3], ["case_b", 2], ["case_c", 1], ["case_e", null]]);
    expect(o.totals.disagreements).toBe(4);
  });

  it("keeps a page of items per campaign version: a submitted label or an adjudication is a new version", async () => {
    const first = await campaignOverview(t.prisma, campaignId, { itemsPage: campaignItemsPageCached });
    const again = await campaignItemsPageCached(t.prisma, campaignId, 3);
    expect(again.cache.status).toBe("hit");
    expect(again.items.map((i) => i.itemId)).toEqual(first.items.map((i) => i.itemId));
    await t.prisma.assignment.update({ where: { itemId_annotatorId: { itemId: itemOf.get("case_c")!, annotatorId: "ann3" } }, data: { status: "SUBMITTED", values: label(3), submittedAt: new Date() } });
    const after = await campaignOverview(t.prisma, campaignId, { itemsPage: campaignItemsPageCached });
    expect(after.totals.labelsSubmitted).toBe(first.totals.labelsSubmitted + 1);
    expect(after.items.find((i) => i.caseName === "case_c")!.safetySpread).toBe(2);
    await t.prisma.adjudication.create({ data: { itemId: itemOf.get("case_a")!, values: label(0), reason: "decided" } });
    const adjudicated = await campaignItemsPageCached(t.prisma, campaignId, 3);
    expect(adjudicated.cache.status).toBe("miss");
    expect(adjudicated.totals.adjudicated).toBe(2);
  });

  it("counts an excluded annotator's labels too (read from the labels' votes, not the per-item vectors that leave them out)", async () => {
    const before = await campaignOverview(t.prisma, campaignId);
    const x = await t.prisma.labelExclusion.create({ data: { campaignId, annotatorId: "ann1", reason: "test" } });
    const during = await campaignOverview(t.prisma, campaignId);
    expect(during.totals).toEqual(before.totals);
    expect(during.items.map((i) => [i.itemId, i.safetySpread, i.labels.length])).toEqual(before.items.map((i) => [i.itemId, i.safetySpread, i.labels.length]));
    await t.prisma.labelExclusion.update({ where: { id: x.id }, data: { restoredAt: new Date() } });
    expect((await campaignOverview(t.prisma, campaignId)).totals).toEqual(before.totals);
  });

  /** The campaign page's overview (case names read per spread level, progress partly kept) is campaignOverview's, page by page. */
  async function expectPageOverviewEqual() {
    for (const pageSize of [1, 50]) {
      for (let page = 1; page <= Math.ceil(6 / pageSize) + 1; page++) {
        expect(await campaignPageOverview(t.prisma, campaignId, { page, pageSize }), `page ${page} of ${pageSize}`).toEqual(await campaignOverview(t.prisma, campaignId, { page, pageSize }));
      }
    }
  }

  it("the campaign page's overview is campaignOverview's: every page, every spread level, with and without an exclusion", async () => {
    await expectPageOverviewEqual();
    const x = await t.prisma.labelExclusion.create({ data: { campaignId, annotatorId: "ann2", reason: "test" } });
    await expectPageOverviewEqual();
    await t.prisma.labelExclusion.update({ where: { id: x.id }, data: { restoredAt: new Date() } });
    // An item without any label (no vote vector): the "none" level.
    const c = await t.prisma.testCase.create({
      data: { source: "test", name: "case_f", userInstruction: "Do it", underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [], contentHash: "case_f", raw: {} },
    });
    const traj = await t.prisma.trajectory.create({ data: { caseId: c.id, agentModel: "agent/case_f", emulatorModel: "m", emulatorMode: "STANDARD", status: "FINISHED", stepCount: 0, contentHash: "h_case_f", raw: {} } });
    await t.prisma.campaignItem.create({ data: { id: "overview_item_f", campaignId, trajectoryId: traj.id } });
    const o = await campaignPageOverview(t.prisma, campaignId);
    expect(o.items.map((i) => [i.caseName, i.safetySpread])).toEqual([["case_a", 3], ["case_d", 3], ["case_b", 2], ["case_c", 2], ["case_e", null], ["case_f", null]]);
    await expectPageOverviewEqual();
  });

  it("progress: submitted counts kept per campaign version, claimed and skipped read live", async () => {
    const counts = async () => Object.fromEntries((await campaignPageOverview(t.prisma, campaignId)).progress.map((p) => [p.userId, [p.submitted, p.claimed, p.skipped]]));
    const before = await counts();
    expect(before).toEqual(Object.fromEntries((await campaignOverview(t.prisma, campaignId)).progress.map((p) => [p.userId, [p.submitted, p.claimed, p.skipped]])));
    // A claim and a skip change no counter: still seen at once.
    await t.prisma.assignment.create({ data: { campaignId, itemId: "overview_item_f", annotatorId: "ann1", status: "CLAIMED", leaseUntil: new Date(Date.now() + 60_000) } });
    await t.prisma.assignment.create({ data: { campaignId, itemId: "overview_item_f", annotatorId: "ann3", status: "SKIPPED" } });
    const claimed = await counts();
    expect(claimed.ann1).toEqual([before.ann1![0], before.ann1![1]! + 1, before.ann1![2]]);
    expect(claimed.ann3).toEqual([before.ann3![0], before.ann3![1], before.ann3![2]! + 1]);
    // Submitting it, then deleting a submitted label: the submitted counts follow.
    await t.prisma.assignment.update({ where: { itemId_annotatorId: { itemId: "overview_item_f", annotatorId: "ann1" } }, data: { status: "SUBMITTED", values: label(2), submittedAt: new Date() } });
    expect((await counts()).ann1).toEqual([before.ann1![0]! + 1, before.ann1![1], before.ann1![2]]);
    await t.prisma.assignment.delete({ where: { itemId_annotatorId: { itemId: itemOf.get("case_a")!, annotatorId: "ann2" } } });
    const after = await counts();
    expect(after.ann2).toEqual([before.ann2![0]! - 1, before.ann2![1], before.ann2![2]]);
    expect(after).toEqual(Object.fromEntries((await campaignOverview(t.prisma, campaignId)).progress.map((p) => [p.userId, [p.submitted, p.claimed, p.skipped]])));
  });

  it("404s an unknown campaign", async () => {
    await expect(campaignOverview(t.prisma, "nope")).rejects.toMatchObject({ status: 404 });
    await expect(campaignPageOverview(t.prisma, "nope")).rejects.toMatchObject({ status: 404 });
  });
});
