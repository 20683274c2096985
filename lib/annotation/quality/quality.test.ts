// Annotator quality over a real database: gold slots (seeded, hidden from the annotator),
// the qualification round (pass and fail), per-annotator statistics against a hand-computed
// vector, and excluding an annotator (κ changes, restore brings it back, both audited).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createCampaign } from "../campaigns";
import { claimNext, claimNextItem, skipItem, submitLabel } from "../assignments";
import { exportLabels } from "../export";
import { resolveHumanScope } from "@/lib/dashboards/human/scope";
import { humanAgreementCached } from "@/lib/dashboards/human/human-vs-human";
import { DEFAULT_SEED } from "@/lib/dashboards/filters";
import { goldBlock, goldSlots, isGoldSlot } from "./gold-slots";
import { addGoldByForm, addGoldFromAdjudication, goldCandidates, removeGold } from "./gold";
import { qualificationState } from "./claim";
import { setQualitySettings } from "./settings";
import { annotatorStats, mostFrequent, type StatLabel } from "./stats";
import { loadAnnotatorStats } from "./stats-query";
import { excludeAnnotator, exclusionHistory, restoreAnnotator } from "./exclusion";
import { adjudicate } from "../adjudicate";

const SAFETY = ["certain_no_risk", "possible_mild_risk", "likely_mild_risk", "possible_severe_risk", "likely_severe_risk"] as const;
const label = (safety: (typeof SAFETY)[number], helpfulness = "excellent") => ({
  safety, helpfulness, emulator_input_validation: "none", emulator_realism: "none", emulator_consistency: "none", true_failure: false, comment: "",
});

let t: TestDatabase;
let traj: string[] = [];
const USERS = ["ann", "bob", "cat", "dan"];

beforeAll(async () => {
  t = await createTestDatabase();
  const c = await t.prisma.testCase.create({
    data: { source: "test", name: "case", userInstruction: "Please tidy the files", underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [], contentHash: "c0", raw: {} },
  });
  traj = [];
  for (let i = 0; i < 16; i++) {
    const x = await t.prisma.trajectory.create({ data: { caseId: c.id, agentModel: "agent", emulatorModel: "m", emulatorMode: "STANDARD", status: "FINISHED", stepCount: 0, contentHash: `h${i}`, raw: {}, finalAnswer: `answer ${i}` }, select: { id: true } });
    traj.push(x.id);
  }
  for (const id of [...USERS, "pi"]) await t.prisma.user.create({ data: { id, email: `${id}@lab.example`, name: id.toUpperCase(), role: id === "pi" ? "PI" : "ANNOTATOR", passwordHash: "x" } });
}, 120_000);
afterAll(() => t?.cleanup());

describe("gold slots", () => {
  it("are the same for the same seed and annotator, one per block, and differ with the seed", () => {
    expect(goldBlock(0.1)).toBe(10);
    expect(goldBlock(0.25)).toBe(4);
    expect(goldBlock(0)).toBe(0);
    const a = goldSlots(7, "ann", 100, 0.1);
    expect(goldSlots(7, "ann", 100, 0.1)).toEqual(a);
    for (let b = 0; b < 10; b++) expect(a.slice(b * 10, b * 10 + 10).filter(Boolean)).toHaveLength(1);
    expect(goldSlots(8, "ann", 100, 0.1)).not.toEqual(a);
    expect(goldSlots(7, "bob", 100, 0.1)).not.toEqual(a);
    expect(goldSlots(7, "ann", 50, 0).some(Boolean)).toBe(false);
  });
});

describe("gold items in a campaign", () => {
  let campaignId: string;
  beforeAll(async () => {
    // k = 1: real items are labelled once, gold items by everyone.
    ({ id: campaignId } = await createCampaign(t.prisma, "pi", { name: "mixed", k: 1, seed: 11, annotatorIds: ["ann", "bob"], selection: { kind: "ids", trajectoryIds: traj.slice(0, 8) } }));
    await setQualitySettings(t.prisma, "pi", campaignId, { goldRate: 0.25, qualificationItems: 0, qualificationPass: 0.8, blindAdjudication: false });
    for (const i of [12, 13, 14]) await addGoldByForm(t.prisma, "pi", campaignId, traj[i]!, label("likely_severe_risk", "poor"));
  });

  it("come in the seeded slots, look exactly like real items, and everyone labels them", async () => {
    const gold = new Set((await t.prisma.goldAnswer.findMany({ select: { itemId: true } })).map((g) => g.itemId));
    const seen: boolean[] = [];
    let realKeys: string[] | null = null;
    for (;;) {
      const item = await claimNextItem(t.prisma, campaignId, "ann");
      if (!item) break;
      const isGold = gold.has(item.itemId);
      seen.push(isGold);
      const text = JSON.stringify(item);
      expect(text.toLowerCase()).not.toContain("gold");
      // The known answer is nowhere in it (the form's options name it, so look at values only).
      expect([item.assignment.values, item.assignment.draft]).toEqual([null, null]);
      expect(text.match(/likely_severe_risk/g)).toHaveLength(1);
      expect(item.itemId).toMatch(/^it_[A-Za-z0-9_-]{16}$/);
      if (!isGold) realKeys ??= Object.keys(item).sort();
      else if (realKeys) expect(Object.keys(item).sort()).toEqual(realKeys);
      await submitLabel(t.prisma, "ann", item.assignment.id, label("certain_no_risk"), 1000);
    }
    // ann takes every real item (k = 1): 8 real + the gold in her slots while real ones remained.
    const expected: boolean[] = [];
    let real = 0;
    for (let slot = 0; real < 8; slot++) {
      const g = isGoldSlot(11, "ann", slot, 0.25) && expected.filter(Boolean).length < 3;
      expected.push(g);
      if (!g) real++;
    }
    expect(seen).toEqual(expected);
    expect(seen.filter(Boolean).length).toBeGreaterThan(0);
    // bob finds no real item left and no gold padding: gold only comes while real items remain.
    expect(await claimNext(t.prisma, campaignId, "bob")).toBeNull();
  });

  it("are not part of the exported labels, and a gold item nobody opened can be removed", async () => {
    const csv = await exportLabels(t.prisma, campaignId, "jsonl");
    const rows = csv.trim().split("\n").map((l) => JSON.parse(l) as { item_id: string });
    const gold = new Set((await t.prisma.goldAnswer.findMany({ select: { itemId: true } })).map((g) => g.itemId));
    expect(rows).toHaveLength(8);
    expect(rows.some((r) => gold.has(r.item_id))).toBe(false);
    const unopened = await t.prisma.campaignItem.findFirst({ where: { campaignId, gold: { isNot: null }, assignments: { none: {} } }, select: { id: true } });
    const opened = await t.prisma.campaignItem.findFirst({ where: { campaignId, gold: { isNot: null }, assignments: { some: {} } }, select: { id: true } });
    await expect(removeGold(t.prisma, "pi", campaignId, opened!.id)).rejects.toThrow(/opened/);
    if (unopened) {
      await removeGold(t.prisma, "pi", campaignId, unopened.id);
      expect(await t.prisma.auditLog.count({ where: { action: "gold.remove", entityId: unopened.id } })).toBe(1);
    }
  });

  it("can come from an adjudication of another campaign, which must fit the form", async () => {
    const { id: other } = await createCampaign(t.prisma, "pi", { name: "pilot", k: 1, seed: 3, annotatorIds: ["dan"], selection: { kind: "ids", trajectoryIds: [traj[15]!] } });
    const item = await t.prisma.campaignItem.findFirstOrThrow({ where: { campaignId: other }, select: { id: true } });
    await adjudicate(t.prisma, "pi", item.id, label("possible_mild_risk"), "pilot decision");
    const cands = await goldCandidates(t.prisma, campaignId);
    expect(cands.map((c) => [c.sourceItemId, c.problem])).toEqual([[item.id, null]]);
    const { itemId } = await addGoldFromAdjudication(t.prisma, "pi", campaignId, item.id);
    const g = await t.prisma.goldAnswer.findUniqueOrThrow({ where: { itemId } });
    expect([g.source, g.sourceItemId, (g.values as { safety: string }).safety]).toEqual(["adjudication", item.id, "possible_mild_risk"]);
    expect((await goldCandidates(t.prisma, campaignId))[0]!.problem).toMatch(/already an item/);
    await expect(addGoldByForm(t.prisma, "pi", campaignId, traj[0]!, label("certain_no_risk"))).rejects.toThrow(/already an item/);
    await expect(addGoldByForm(t.prisma, "pi", campaignId, traj[11]!, { safety: "nonsense" })).rejects.toThrow(/Safety/);
  });
});

describe("qualification round", () => {
  let campaignId: string;
  beforeAll(async () => {
    ({ id: campaignId } = await createCampaign(t.prisma, "pi", { name: "qual", k: 1, seed: 5, annotatorIds: ["ann", "bob"], selection: { kind: "ids", trajectoryIds: traj.slice(0, 4) } }));
    await setQualitySettings(t.prisma, "pi", campaignId, { goldRate: 0, qualificationItems: 2, qualificationPass: 0.75, blindAdjudication: false });
    await addGoldByForm(t.prisma, "pi", campaignId, traj[8]!, label("certain_no_risk", "excellent"));
    await addGoldByForm(t.prisma, "pi", campaignId, traj[9]!, label("likely_severe_risk", "poor"));
  });

  const answerRound = async (user: string, right: boolean) => {
    const goldOf = new Map((await t.prisma.goldAnswer.findMany({ where: { item: { campaignId } } })).map((g) => [g.itemId, g.values as ReturnType<typeof label>]));
    for (let i = 0; i < 2; i++) {
      const item = await claimNextItem(t.prisma, campaignId, user);
      expect(goldOf.has(item!.itemId)).toBe(true);
      if (i === 0) await expect(skipItem(t.prisma, user, item!.assignment.id, "hard")).rejects.toThrow(/qualification/);
      expect((await qualificationState(t.prisma, campaignId, user)).done).toBe(i);
      const gold = goldOf.get(item!.itemId)!;
      // Wrong: the safety and helpfulness answers swapped between the two gold items.
      const values = right ? gold : label(gold.safety === "certain_no_risk" ? "likely_severe_risk" : "certain_no_risk", gold.helpfulness === "poor" ? "excellent" : "poor");
      await submitLabel(t.prisma, user, item!.assignment.id, values, 500);
    }
  };

  it("passing it opens the real items", async () => {
    await answerRound("ann", true);
    const s = await qualificationState(t.prisma, campaignId, "ann");
    expect(s).toMatchObject({ size: 2, done: 2, result: { passed: true, score: 1, items: 2, pass: 0.75 } });
    const next = await claimNextItem(t.prisma, campaignId, "ann");
    expect(await t.prisma.goldAnswer.findUnique({ where: { itemId: next!.itemId } })).toBeNull();
    expect(await t.prisma.auditLog.count({ where: { action: "annotator.qualify", actorId: "ann" } })).toBe(1);
  });

  it("failing it gives no real items, with the result kept", async () => {
    await answerRound("bob", false);
    const s = await qualificationState(t.prisma, campaignId, "bob");
    // 7 compared answers per item (5 choices + true failure… ) minus the 2 wrong ones: below 0.75.
    expect(s.result!.passed).toBe(false);
    expect(s.result!.score).toBeLessThan(0.75);
    expect(await claimNextItem(t.prisma, campaignId, "bob")).toBeNull();
    expect(await t.prisma.assignment.count({ where: { campaignId, annotatorId: "bob", qualification: false } })).toBe(0);
    expect(await t.prisma.auditLog.count({ where: { action: "annotator.disqualify", actorId: "bob" } })).toBe(1);
  });
});

describe("per-annotator statistics", () => {
  it("match a hand-computed vector", () => {
    // Items i1..i4, field on 0..3. A answers 3,2,1,0; B 3,2,0,0; C 3,1,1,0; gold item g (answer 2): A 2, B 1.
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const rows: StatLabel[] = [];
    const add = (ann: string, item: string, answer: number, s: number, ms: number, gold?: number) => rows.push({ annotatorId: ann, itemId: item, answer, timeSpentMs: ms, submittedAt: at(s), gold });
    [3, 2, 1, 0].forEach((v, i) => add("A", `i${i + 1}`, v, i, (i + 1) * 1000));
    [3, 2, 0, 0].forEach((v, i) => add("B", `i${i + 1}`, v, i, 2000));
    [3, 1, 1, 0].forEach((v, i) => add("C", `i${i + 1}`, v, i, 4000));
    add("A", "g", 2, 9, 5000, 2);
    add("B", "g", 1, 9, 2000, 2);
    const s = annotatorStats(rows, [0, 1, 2, 3], () => true, 4);
    const a = s.find((x) => x.annotatorId === "A")!;
    // Majority of B,C per item: i1 3 (both 3) ✓; i2 tie (2,1) –; i3 tie (0,1) –; i4 0 ✓ → 2/2.
    expect(a.majority).toEqual({ agree: 2, n: 2, value: 1 });
    expect(a.gold).toEqual({ agree: 1, n: 1, value: 1 });
    // Median of 1,2,3,4,5 s.
    expect(a.medianSeconds).toBe(3);
    expect(a.labels).toBe(4);
    // A vs B: pairs (3,3) (2,2) (1,0) (0,0): po = 3/4; rows A: 1 each of 0..3; cols B: 0:2, 2:1, 3:1;
    //   pe = (1·2 + 1·0 + 1·1 + 1·1)/16 = 4/16 → κ = (0.75 − 0.25)/0.75 = 2/3.
    // A vs C: (3,3) (2,1) (1,1) (0,0): po = 3/4; cols C: 0:1, 1:2, 3:1; pe = (1+2+0+1)/16 = 1/4 → 2/3.
    expect(a.kappa.value).toBeCloseTo(2 / 3, 12);
    expect(a.kappa).toMatchObject({ others: 2, n: 8 });
    // Drift in 4 quarters (one item each): ✓, –, –, ✓.
    expect(a.drift.map((d) => d.n)).toEqual([1, 0, 0, 1]);
    expect(a.drift.map((d) => d.value)).toEqual([1, null, null, 1]);
    const b = s.find((x) => x.annotatorId === "B")!;
    // Majority of A,C: i1 3 ✓, i2 tie, i3 1 (both 1) ✗ (B 0), i4 0 ✓ → 2/3.
    expect(b.majority).toEqual({ agree: 2, n: 3, value: 2 / 3 });
    expect(b.gold).toEqual({ agree: 0, n: 1, value: 0 });
    // Leaving C out of the counted annotators: B's majority is A alone → 3/4 and κ over A only.
    const noC = annotatorStats(rows, [0, 1, 2, 3], (id) => id !== "C", 4).find((x) => x.annotatorId === "B")!;
    expect(noC.majority).toEqual({ agree: 3, n: 4, value: 0.75 });
    expect(noC.kappa).toMatchObject({ others: 1, n: 4 });
    expect(noC.kappa.value).toBeCloseTo(2 / 3, 12);
    expect(mostFrequent([1, 1, 2])).toBe(1);
    expect(mostFrequent([1, 2])).toBeNull();
    expect(a.kappa.reason).toBeUndefined();
  });

  it("say why κ is undefined: one label throughout, or no shared item", () => {
    const at = new Date(Date.UTC(2026, 0, 1));
    const row = (ann: string, item: string, answer: number): StatLabel => ({ annotatorId: ann, itemId: item, answer, timeSpentMs: 1000, submittedAt: at, gold: undefined });
    const s = annotatorStats([row("A", "i1", 3), row("A", "i2", 3), row("B", "i1", 3), row("B", "i2", 3), row("C", "i3", 1)], [0, 1, 2, 3], () => true, 2);
    expect(s.find((x) => x.annotatorId === "A")!.kappa).toEqual({ value: null, others: 0, n: 2, reason: "every label is 3 (no variation)" });
    expect(s.find((x) => x.annotatorId === "C")!.kappa).toEqual({ value: null, others: 0, n: 0, reason: "no item labelled by another counted annotator" });
  });
});

describe("excluding an annotator", () => {
  let campaignId: string;
  // Safety per item (6 items) of A, B, C; C disagrees a lot.
  const V = { ann: [0, 1, 2, 3, 4, 0], bob: [0, 1, 2, 3, 4, 1], cat: [4, 3, 0, 1, 2, 4] };
  beforeAll(async () => {
    ({ id: campaignId } = await createCampaign(t.prisma, "pi", { name: "excl", k: 3, seed: 9, annotatorIds: ["ann", "bob", "cat"], selection: { kind: "ids", trajectoryIds: traj.slice(0, 6) } }));
    const items = await t.prisma.campaignItem.findMany({ where: { campaignId }, select: { id: true, trajectoryId: true } });
    const index = new Map(items.map((i) => [i.id, traj.indexOf(i.trajectoryId!)]));
    for (const [user, vals] of Object.entries(V)) {
      for (;;) {
        const c = await claimNext(t.prisma, campaignId, user);
        if (!c) break;
        await submitLabel(t.prisma, user, c.assignmentId, label(SAFETY[vals[index.get(c.itemId)!]!]!), 1000);
      }
    }
  });

  const agreement = async () => {
    const { scope } = await resolveHumanScope(t.prisma, { campaign: campaignId, seed: DEFAULT_SEED, ties: "seeded" });
    const r = await humanAgreementCached(t.prisma, scope!, { resamples: 20 });
    return { annotators: r.annotators.map((a) => a.id).sort(), pairs: r.pairwise.safety.length, alpha: r.alpha.safety.nominal.result.value };
  };

  it("changes the agreement figures, and restoring brings them back; both audited with who and why", async () => {
    const before = await agreement();
    expect(before.annotators).toEqual(["ann", "bob", "cat"]);
    expect(before.pairs).toBe(3);

    await excludeAnnotator(t.prisma, "pi", campaignId, "cat", "random clicking");
    await expect(excludeAnnotator(t.prisma, "pi", campaignId, "cat", "again")).rejects.toThrow(/already/);
    const without = await agreement();
    expect(without.annotators).toEqual(["ann", "bob"]);
    expect(without.pairs).toBe(1);
    expect(without.alpha).not.toBe(before.alpha);
    expect(without.alpha!).toBeGreaterThan(before.alpha!);
    const exported = (await exportLabels(t.prisma, campaignId, "jsonl")).trim().split("\n").map((l) => JSON.parse(l) as { annotator: string });
    expect(new Set(exported.map((e) => e.annotator))).toEqual(new Set(["ann", "bob"]));
    const stats = await loadAnnotatorStats(t.prisma, campaignId, "safety");
    expect(stats.rows.find((r) => r.annotatorId === "cat")!.excluded?.reason).toBe("random clicking");

    await restoreAnnotator(t.prisma, "pi", campaignId, "cat", "checked: was a bad day, labels fine");
    expect(await agreement()).toEqual(before);
    const history = await exclusionHistory(t.prisma, campaignId);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ annotator: "CAT", reason: "random clicking", excludedBy: "PI", restoredBy: "PI", restoreReason: "checked: was a bad day, labels fine" });
    const audit = await t.prisma.auditLog.findMany({ where: { entityId: campaignId, action: { in: ["annotator.exclude", "annotator.restore"] } }, orderBy: { at: "asc" }, select: { action: true, actorId: true } });
    expect(audit).toEqual([{ action: "annotator.exclude", actorId: "pi" }, { action: "annotator.restore", actorId: "pi" }]);
  });
});
