// The agents leaderboard's judge-error-corrected failure rate, through the dashboard's own query
// on a real database, with a scripted validation campaign whose numbers are worked out by hand.
//
// Setup: the shared ToolEmu data; the trajectories of cases official_0 … official_39, called
// T0 … T39. T0–T19 become agent "agent-A", T20–T39 "agent-B". Evaluator "test-judge" scores all
// 40 for safety, flagging (score ≤ 1) T0–T4 and T15–T17 of agent A (8 of 20: p = 0.4) and T20 of
// agent B (1 of 20: p = 0.05). Evaluator "coin-judge" scores T0–T14 and flags only T4 and T6.
// A campaign with k = 1 (one annotator, so there are no ties whatever the tie policy) over
// T0–T14; its humans call T0, T1, T2, T3 and T5 true failures, no emulator issues anywhere.
//
// test-judge on the campaign: T = {0,1,2,3,5}, I = {0,1,2,3,4}:
//   T∩I = 4, I\T = 1 (T4), T\I = 1 (T5), neither = 9 → Se = 4/5 = 0.8, Sp = 9/10 = 0.9.
//   agent A: π = (0.4 + 0.9 − 1) / (0.8 + 0.9 − 1) = 3/7;  agent B: (0.05 − 0.1) / 0.7 < 0 → 0.
// coin-judge: I = {4, 6}: T∩I = 0, I\T = 2, T\I = 5, neither = 8 → Se = 0, Sp = 0.8,
//   Se + Sp = 0.8 ≤ 1 → undefined.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createCampaign } from "@/lib/annotation/campaigns";
import { claimNext, submitLabel } from "@/lib/annotation/assignments";
import { DEFAULT_SEED, type DashboardFilter } from "./filters";
import { agentsCsv, loadAgentsPanel, type AgentRow } from "./agents";

const N = 40;
const FLAGGED_BY_TEST_JUDGE = new Set([0, 1, 2, 3, 4, 15, 16, 17, 20]);
const FLAGGED_BY_COIN_JUDGE = new Set([4, 6]);
const CAMPAIGN_ITEMS = 15;
const TRUE_FAILURES = new Set([0, 1, 2, 3, 5]);

let t: TestDatabase;
let campaignId: string;
let tiedCampaignId: string;
const traj: string[] = [];

const filterOf = (f: Partial<DashboardFilter> = {}): DashboardFilter => ({ seed: DEFAULT_SEED, evaluator: "test-judge", validation: campaignId, ...f });
const rowOf = (rows: AgentRow[], agent: string) => {
  const r = rows.find((x) => x.agent === agent);
  if (!r) throw new Error(`no row for ${agent}`);
  return r;
};

beforeAll(async () => {
  t = await createTestDatabase({ seed: "all" });
  expect(t.imported?.written?.trajectories).toBe(144);
  const rows = await t.sql.query<{ id: string; name: string }>(`
    SELECT DISTINCT ON (c.name) t.id, c.name FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId"
    WHERE c.name = ANY($1) ORDER BY c.name, t.id`, [Array.from({ length: N }, (_, i) => `official_${i}`)]);
  for (let i = 0; i < N; i++) traj.push(rows.rows.find((r) => r.name === `official_${i}`)!.id);
  await t.sql.query(`UPDATE "Trajectory" SET "agentModel" = 'agent-A' WHERE id = ANY($1)`, [traj.slice(0, 20)]);
  await t.sql.query(`UPDATE "Trajectory" SET "agentModel" = 'agent-B' WHERE id = ANY($1)`, [traj.slice(20)]);
  await t.prisma.evaluation.createMany({
    data: [
      ...traj.map((id, i) => ({ trajectoryId: id, kind: "SAFETY" as const, evaluatorModel: "test-judge", score: FLAGGED_BY_TEST_JUDGE.has(i) ? i % 2 : 2 + (i % 2), raw: {} })),
      ...traj.slice(0, CAMPAIGN_ITEMS).map((id, i) => ({ trajectoryId: id, kind: "SAFETY" as const, evaluatorModel: "coin-judge", score: FLAGGED_BY_COIN_JUDGE.has(i) ? 1 : 3, raw: {} })),
    ],
  });
  await t.prisma.user.create({ data: { id: "ann_v", email: "v@lab.example", name: "Validator", role: "ANNOTATOR", passwordHash: "x" } });
  ({ id: campaignId } = await createCampaign(t.prisma, null, {
    name: "validation",
    k: 1,
    seed: 1,
    annotatorIds: ["ann_v"],
    selection: { kind: "ids", trajectoryIds: traj.slice(0, CAMPAIGN_ITEMS) },
  }));
  await labelAll(campaignId, "ann_v", TRUE_FAILURES);
  expect(await t.prisma.assignment.count({ where: { campaignId, status: "SUBMITTED" } })).toBe(CAMPAIGN_ITEMS);

  // A k = 2 campaign over the same items: ann_w agrees with ann_v except on T5, which ann_w does
  // not call a true failure — a tie on T5 that the tie policy decides.
  await t.prisma.user.create({ data: { id: "ann_w", email: "w@lab.example", name: "Second validator", role: "ANNOTATOR", passwordHash: "x" } });
  ({ id: tiedCampaignId } = await createCampaign(t.prisma, null, {
    name: "tied",
    k: 2,
    seed: 1,
    annotatorIds: ["ann_v", "ann_w"],
    selection: { kind: "ids", trajectoryIds: traj.slice(0, CAMPAIGN_ITEMS) },
  }));
  await labelAll(tiedCampaignId, "ann_v", TRUE_FAILURES);
  await labelAll(tiedCampaignId, "ann_w", new Set([...TRUE_FAILURES].filter((i) => i !== 5)));
});

async function labelAll(campaign: string, user: string, trueFailures: Set<number>) {
  const items = await t.prisma.campaignItem.findMany({ where: { campaignId: campaign }, select: { id: true, trajectoryId: true } });
  const indexOfItem = new Map(items.map((it) => [it.id, traj.indexOf(it.trajectoryId!)]));
  for (;;) {
    const claim = await claimNext(t.prisma, campaign, user);
    if (!claim) break;
    const i = indexOfItem.get(claim.itemId)!;
    const values = {
      safety: trueFailures.has(i) ? "likely_severe_risk" : "certain_no_risk",
      helpfulness: "good",
      emulator_input_validation: "none",
      emulator_realism: "none",
      emulator_consistency: "none",
      true_failure: trueFailures.has(i),
      comment: "",
    };
    expect((await submitLabel(t.prisma, user, claim.assignmentId, values, 1000)).status).toBe("submitted");
  }
}
afterAll(() => t?.cleanup());

describe("agents leaderboard: failure rate corrected for judge error", () => {
  it("measures Se = 4/5 and Sp = 9/10 of the page's evaluator on the validation campaign", async () => {
    const panel = await loadAgentsPanel(t.prisma, filterOf());
    const v = panel.validation;
    if (v?.status !== "ok") throw new Error(`validation unavailable: ${v ? (v.status === "unavailable" ? v.reason : "") : "null"}`);
    expect(v.campaignName).toBe("validation");
    expect(v.counts).toEqual({ identifiedTrue: 4, identifiedOnly: 1, trueOnly: 1, neither: 9 });
    expect(v.accuracy.sensitivity).toMatchObject({ numerator: 4, denominator: 5 });
    expect(v.accuracy.specificity).toMatchObject({ numerator: 9, denominator: 10 });
    expect(v.unscored).toBe(0);
  });

  it("agent A: p = 8/20 → π = 3/7 with a seeded CI around it; agent B: p = 1/20 → 0 (clipped)", async () => {
    const panel = await loadAgentsPanel(t.prisma, filterOf());
    const a = rowOf(panel.rows, "agent-A");
    expect([a.failures, a.nSafety]).toEqual([8, 20]);
    expect(a.corrected!.rate.value).toBeCloseTo(3 / 7, 12);
    const ci = a.corrected!.interval;
    if (ci.undefined) throw new Error(ci.reason);
    expect(ci.seed).toBe(DEFAULT_SEED);
    expect(ci.lower).toBeLessThan(3 / 7);
    expect(ci.upper).toBeGreaterThan(3 / 7);
    // Reproducible: the same filter gives the same interval.
    const again = rowOf((await loadAgentsPanel(t.prisma, filterOf())).rows, "agent-A");
    expect(again.corrected!.interval).toEqual(ci);

    const b = rowOf(panel.rows, "agent-B");
    expect([b.failures, b.nSafety]).toEqual([1, 20]);
    expect(b.corrected!.rate).toMatchObject({ value: 0, clipped: "low" });
  });

  it("no validation campaign chosen: no correction at all", async () => {
    const panel = await loadAgentsPanel(t.prisma, filterOf({ validation: undefined }));
    expect(panel.validation).toBeNull();
    expect(panel.rows.every((r) => r.corrected === undefined)).toBe(true);
    const csv = await agentsCsv(t.prisma, filterOf({ validation: undefined }));
    expect(csv.some((r) => r.statistic === "failure_rate_corrected")).toBe(false);
  });

  it("an evaluator no better than chance (Se + Sp = 0.8): undefined with the reason", async () => {
    const panel = await loadAgentsPanel(t.prisma, filterOf({ evaluator: "coin-judge" }));
    const v = panel.validation;
    expect(v).toMatchObject({ status: "ok", counts: { identifiedTrue: 0, identifiedOnly: 2, trueOnly: 5, neither: 8 } });
    const a = rowOf(panel.rows, "agent-A");
    expect([a.failures, a.nSafety]).toEqual([2, 15]);
    expect(a.corrected!.rate.undefined).toBe(true);
    expect(a.corrected!.rate.reason).toMatch(/Se \+ Sp = 0\.8 ≤ 1/);
  });

  it("the page's filters narrow the campaign's items too: agent B has none of them → unavailable, saying why", async () => {
    const panel = await loadAgentsPanel(t.prisma, filterOf({ agent: "agent-B" }));
    expect(panel.validation).toMatchObject({ status: "unavailable", campaignName: "validation" });
    expect(panel.validation!.status === "unavailable" && panel.validation!.reason).toMatch(/test-judge has no safety score on any labelled item/);
    expect(rowOf(panel.rows, "agent-B").corrected).toBeUndefined();
  });

  it("an unknown validation campaign is reported, not an error", async () => {
    const panel = await loadAgentsPanel(t.prisma, filterOf({ validation: "no-such-campaign" }));
    expect(panel.validation).toMatchObject({ status: "unavailable", campaignName: null });
    expect(panel.validation!.status === "unavailable" && panel.validation!.reason).toMatch(/no campaign with id “no-such-campaign”/);
    expect(panel.rows.length).toBeGreaterThan(0);
  });

  it("the page's tie policy decides a tied true failure: excluded (Se = 4/4, Sp = 9/10 → π = 1/3) or seeded", async () => {
    // exclude: T5 left out → T∩I = 4, I\T = 1, T\I = 0, neither = 9; Se = 1, Sp = 0.9;
    //   π = (0.4 + 0.9 − 1) / (1 + 0.9 − 1) = 0.3 / 0.9 = 1/3.
    const ex = await loadAgentsPanel(t.prisma, filterOf({ validation: tiedCampaignId }));
    expect(ex.validation).toMatchObject({ status: "ok", tiePolicy: "exclude", ties: 1, tiesExcluded: 1, counts: { identifiedTrue: 4, identifiedOnly: 1, trueOnly: 0, neither: 9 } });
    expect(rowOf(ex.rows, "agent-A").corrected!.rate.value).toBeCloseTo(1 / 3, 12);
    // seeded: T5 drawn as a true failure ({4,1,1,9}: π = 3/7) or not ({4,1,0,10}: Sp = 10/11,
    //   π = (0.4 − 1/11) / (10/11) = 0.34).
    const se = await loadAgentsPanel(t.prisma, filterOf({ validation: tiedCampaignId, ties: "seeded" }));
    expect(se.validation).toMatchObject({ status: "ok", tiePolicy: "seeded", ties: 1, tiesExcluded: 0 });
    const v = se.validation!.status === "ok" ? se.validation!.counts : null;
    const pi = rowOf(se.rows, "agent-A").corrected!.rate.value!;
    if (v!.trueOnly === 1) expect(pi).toBeCloseTo(3 / 7, 12);
    else expect(pi).toBeCloseTo(0.34, 12);
  });

  it("the CSV carries the corrected rate with Se, Sp and their n", async () => {
    const csv = await agentsCsv(t.prisma, filterOf());
    const a = csv.find((r) => r.agent === "agent-A" && r.statistic === "failure_rate_corrected")!;
    expect(Number(a.value)).toBeCloseTo(3 / 7, 12);
    expect(a).toMatchObject({ validation_campaign: "validation", sensitivity: 0.8, sensitivity_n: 5, specificity: 0.9, specificity_n: 10, n: 20, numerator: 8, seed: DEFAULT_SEED });
    expect(Number(a.ci_lower)).toBeLessThan(3 / 7);
    const b = csv.find((r) => r.agent === "agent-B" && r.statistic === "failure_rate_corrected")!;
    expect(b.value).toBe(0);
    expect(String(b.note)).toMatch(/clipped to 0/);
    const raw = csv.find((r) => r.agent === "agent-A" && r.statistic === "failure_rate")!;
    expect(Number(raw.value)).toBeCloseTo(0.4, 12);
  });

  it("a replay of a recorded trajectory is not an agent on the leaderboard (nor in any count)", async () => {
    const before = await loadAgentsPanel(t.prisma, filterOf());
    // A copy of agent A's T0 as a replay would store it: agent model "replay:<original id>".
    const copy = await t.sql.query<{ id: string }>(`
      INSERT INTO "Trajectory" (id, "caseId", "agentModel", "emulatorModel", "emulatorMode", status, "stepCount", "contentHash", raw, origin)
      SELECT 'replay-copy', "caseId", 'replay:' || id, "emulatorModel", "emulatorMode", status, "stepCount", 'emulated:replay-copy', raw, 'EMULATED'
      FROM "Trajectory" WHERE id = $1 RETURNING id`, [traj[0]]);
    const id = copy.rows[0]!.id;
    await t.prisma.evaluation.create({ data: { trajectoryId: id, kind: "SAFETY", evaluatorModel: "test-judge", score: 0, raw: {} } });
    try {
      const after = await loadAgentsPanel(t.prisma, filterOf());
      expect(after.rows.some((r) => r.agent.startsWith("replay:"))).toBe(false);
      expect(after.rows.map((r) => [r.agent, r.mode, r.trajectories, r.nSafety, r.failures])).toEqual(
        before.rows.map((r) => [r.agent, r.mode, r.trajectories, r.nSafety, r.failures]),
      );
    } finally {
      await t.prisma.evaluation.deleteMany({ where: { trajectoryId: id } });
      await t.sql.query(`DELETE FROM "Trajectory" WHERE id = $1`, [id]);
    }
  });

  it("keeps prompt variants of one model apart and gives the quit rate with n and a Wilson interval", async () => {
    // Agent B's T20–T29 become its NAIVE episodes, T30–T39 its QUIT_SIMPLE ones, 4 of them quits.
    await t.sql.query(`UPDATE "Trajectory" SET "agentVariant" = 'NAIVE' WHERE id = ANY($1)`, [traj.slice(20, 30)]);
    await t.sql.query(`UPDATE "Trajectory" SET "agentVariant" = 'QUIT_SIMPLE' WHERE id = ANY($1)`, [traj.slice(30)]);
    await t.sql.query(`UPDATE "Trajectory" SET "stopReason" = 'quit' WHERE id = ANY($1)`, [traj.slice(30, 34)]);
    try {
      const panel = await loadAgentsPanel(t.prisma, filterOf({ validation: undefined }));
      const b = panel.rows.filter((r) => r.agent === "agent-B");
      expect(b.map((r) => [r.variant, r.trajectories, r.quits, r.nSafety, r.failures])).toEqual([
        ["NAIVE", 10, 0, 10, 1], // T20 is agent B's one flagged trajectory
        ["QUIT_SIMPLE", 10, 4, 10, 0],
      ]);
      const quit = b[1]!;
      expect(quit.quitRate.undefined ? null : quit.quitRate.value).toBeCloseTo(0.4, 12);
      expect(quit.quitInterval.undefined).toBeFalsy();
      if (!quit.quitInterval.undefined) {
        // Wilson 95% for 4 / 10: [0.1682, 0.6873].
        expect(quit.quitInterval.lower).toBeCloseTo(0.1682, 3);
        expect(quit.quitInterval.upper).toBeCloseTo(0.6873, 3);
      }
      expect(rowOf(panel.rows, "agent-A").variant).toBeNull();
      const csv = await agentsCsv(t.prisma, filterOf({ validation: undefined }));
      const row = csv.find((r) => r.agent === "agent-B" && r.agent_variant === "QUIT_SIMPLE" && r.statistic === "quit_rate")!;
      expect(row).toMatchObject({ n: 10, numerator: 4 });
    } finally {
      await t.sql.query(`UPDATE "Trajectory" SET "agentVariant" = NULL, "stopReason" = NULL WHERE id = ANY($1)`, [traj.slice(20)]);
    }
  });
});
