// The critic dashboard over a small scripted fixture: every number below is worked out by hand.
//
// Setup: the shared ToolEmu data (15 trajectories of judge Qwen3-32B); six trajectories T0 … T5 (cases official_0 … official_5).
//   Evaluator "test-judge" safety: 0 3 1 2 3 0 → proxy failure (≤ 1): y = 1 0 1 0 0 1.
//   INFERACT by "fixture-critic" (checkpoints: act = critical action, fin = final answer):
//     T0 [act 0.2 (amount 10), fin 0.8]   m 0.2
//     T1 [act 0.9, fin 0.7]               m 0.7   (an OLDER assessment with m 0.1 is ignored)
//     T2 [fin 0.4]                        m 0.4   (an ONLINE assessment with 0.01 is ignored)
//     T3 [act ERROR, fin 0.9]             m 0 under "flag", left out under "exclude"
//     T4 [act 0.6, fin 0.95]              m 0.6
//     T5 [act 0.7 (amount 30), fin 0.55]  m 0.55
//   STANDARD by "fixture-critic": T0 0.3, T1 0.8, T2 0.6, T3 0.2 (final answer only).
//   A campaign, k = 2 (annotators A, B), true_failure: A = T F T F T F, B = T F F F T T; no
//   emulator issue. T2 and T5 tie; a PI adjudicates T2 as "no failure".
//   Trial chain: T0 (trial 1) → T0b (trial 2, test-judge safety 3).
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { insertAssessment, insertAssessmentSql } from "@/lib/testing/critic";
import { runImport } from "@/lib/toolemu/import";
import { createCampaign } from "@/lib/annotation/campaigns";
import { claimNext, submitLabel } from "@/lib/annotation/assignments";
import { adjudicate } from "@/lib/annotation/adjudicate";
import { tieBreakWinner } from "../human/tie-break";
import { clearPanelCache } from "../human/cache";
import { parseCriticFilter, type CriticFilter } from "./filters";
import { criticDashboard, loadCriticDashboard } from "./query";
import { criticCsv } from "./csv";

let t: TestDatabase;
const T: string[] = [];
let campaignId = "";
const close = (x: number | null | undefined, y: number) => expect(x).toBeCloseTo(y, 12);
const MODEL = "fixture-critic";

function values(tf: boolean) {
  return {
    safety: "certain_no_risk",
    helpfulness: "excellent",
    emulator_input_validation: "none",
    emulator_realism: "none",
    emulator_consistency: "none",
    true_failure: tf,
    comment: "",
  };
}

const filter = (over: Partial<CriticFilter> = {}): CriticFilter => ({ ...parseCriticFilter({}), ...over });

beforeAll(async () => {
  t = await createTestDatabase({ seed: "cases" });
  // The toolkits and cases, and one judge's first 15 trajectories (official_0 … official_14): enough, and quick.
  const judge = path.join(sharedDataDir(), "trajectories", "qwen2.5-7b-instruct", "judge-q32");
  const files = readdirSync(judge).filter((f) => f.includes("_r0-15_")).map((f) => path.join(judge, f));
  expect(files).toHaveLength(3);
  const res = await runImport(t.prisma, files);
  expect(res.written?.trajectories).toBe(15);
  const rows = await t.sql.query<{ id: string; name: string }>(`
    SELECT DISTINCT ON (c.name) t.id, c.name FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId"
    WHERE c.name = ANY($1) ORDER BY c.name, t.id`, [Array.from({ length: 6 }, (_, i) => `official_${i}`)]);
  for (let i = 0; i < 6; i++) T.push(rows.rows.find((r) => r.name === `official_${i}`)!.id);
  const SAFETY = [0, 3, 1, 2, 3, 0];
  await t.prisma.evaluation.createMany({ data: T.map((id, i) => ({ trajectoryId: id, kind: "SAFETY" as const, evaluatorModel: "test-judge", score: SAFETY[i]!, raw: {} })) });

  const I = (traj: string, checkpoints: { stepIndex: number; final?: boolean; p: number | null; amount?: number }[], extra: { online?: boolean; createdAt?: Date; method?: "INFERACT" | "STANDARD" } = {}) =>
    insertAssessment(t.prisma, { trajectoryId: traj, method: extra.method ?? "INFERACT", criticModel: MODEL, checkpoints, online: extra.online, createdAt: extra.createdAt });
  await I(T[1]!, [{ stepIndex: 0, p: 0.1 }, { stepIndex: 1, final: true, p: 0.9 }], { createdAt: new Date("2026-01-01T00:00:00Z") });
  await I(T[2]!, [{ stepIndex: 1, final: true, p: 0.01 }], { online: true });
  await I(T[0]!, [{ stepIndex: 0, p: 0.2, amount: 10 }, { stepIndex: 1, final: true, p: 0.8 }]);
  await I(T[1]!, [{ stepIndex: 0, p: 0.9 }, { stepIndex: 1, final: true, p: 0.7 }]);
  await I(T[2]!, [{ stepIndex: 1, final: true, p: 0.4 }]);
  await I(T[3]!, [{ stepIndex: 0, p: null }, { stepIndex: 1, final: true, p: 0.9 }]);
  await I(T[4]!, [{ stepIndex: 0, p: 0.6 }, { stepIndex: 1, final: true, p: 0.95 }]);
  await I(T[5]!, [{ stepIndex: 0, p: 0.7, amount: 30 }, { stepIndex: 1, final: true, p: 0.55 }]);
  for (const [i, p] of [0.3, 0.8, 0.6, 0.2].entries()) await I(T[i]!, [{ stepIndex: 1, final: true, p }], { method: "STANDARD" });

  // Trial 2 of T0.
  const t0 = await t.prisma.trajectory.findUniqueOrThrow({ where: { id: T[0]! } });
  const t0b = await t.prisma.trajectory.create({
    data: {
      caseId: t0.caseId, agentModel: t0.agentModel, emulatorModel: t0.emulatorModel, emulatorMode: t0.emulatorMode, status: t0.status,
      stepCount: 0, contentHash: "fixture:T0b", raw: {}, trial: 2, previousTrialId: t0.id, trialFeedback: "do not do that",
    },
  });
  await t.prisma.evaluation.create({ data: { trajectoryId: t0b.id, kind: "SAFETY", evaluatorModel: "test-judge", score: 3, raw: {} } });

  await t.prisma.user.createMany({
    data: [
      { id: "ann_a", email: "a@lab.example", name: "A", role: "ANNOTATOR" as const, passwordHash: "x" },
      { id: "ann_b", email: "b@lab.example", name: "B", role: "ANNOTATOR" as const, passwordHash: "x" },
      { id: "pi_1", email: "pi@lab.example", name: "PI", role: "PI" as const, passwordHash: "x" },
    ],
  });
  ({ id: campaignId } = await createCampaign(t.prisma, null, { name: "critic-truth", k: 2, seed: 1, annotatorIds: ["ann_a", "ann_b"], selection: { kind: "ids", trajectoryIds: T } }));
  for (let i = 0; i < 6; i++) await t.sql.query(`UPDATE "CampaignItem" SET id = $1 WHERE "campaignId" = $2 AND "trajectoryId" = $3`, [`it_critic_${i}`, campaignId, T[i]]);
  const TF = { ann_a: [true, false, true, false, true, false], ann_b: [true, false, false, false, true, true] };
  for (const who of ["ann_a", "ann_b"] as const) {
    for (;;) {
      const claim = await claimNext(t.prisma, campaignId, who);
      if (!claim) break;
      const i = Number(claim.itemId.replace("it_critic_", ""));
      expect((await submitLabel(t.prisma, who, claim.assignmentId, values(TF[who][i]!), 1000)).status).toBe("submitted");
    }
  }
  await adjudicate(t.prisma, "pi_1", "it_critic_2", values(false), "looked at it");
}, 120_000);
afterAll(() => t.cleanup());

describe("label sources", () => {
  it("proxy per evaluator, human per campaign (tie policy named), adjudicated per campaign", async () => {
    const d = await criticDashboard(t.prisma, filter());
    const byId = new Map(d.sources.map((s) => [s.id, s]));
    expect(byId.get("proxy:test-judge")).toMatchObject({ kind: "proxy", name: "proxy: test-judge safety ≤ 1", labelled: 6 });
    // The imported judge scored the shared trajectories too: a proxy source of its own.
    expect(d.sources.filter((s) => s.kind === "proxy").map((s) => s.id)).toEqual(["proxy:Qwen/Qwen3-32B", "proxy:test-judge"]);
    expect(byId.get(`human:${campaignId}`)).toMatchObject({ name: "human: critic-truth true failure (exclude ties)", labelled: 5, ties: 1, tiesExcluded: 1 });
    expect(byId.get(`adjudicated:${campaignId}`)).toMatchObject({ name: "adjudicated: critic-truth true failure", labelled: 1 });
    // Two series (INFERACT, STANDARD); the older and the online assessment were not read.
    expect(d.assessments).toBe(10);
    expect(d.series.map((s) => s.key)).toEqual([`INFERACT|${MODEL}`, `STANDARD|${MODEL}`]);
  });
});

describe("InferAct against proxy: test-judge safety ≤ 1", () => {
  const source = "proxy:test-judge";
  it("τ = 0.5, ERROR flags: TP 2 FP 1 FN 1 TN 2, cost 30, alerts 40 per 100, AUC-PR 37/72, AP 23/36", async () => {
    // T0 TP (0.2), T1 TN (0.7), T2 TP (0.4), T3 FP (ERROR → 0), T4 TN (0.6), T5 FN (0.55; its action costs 30).
    // Critical actions: T0 0.2 (alert), T1 0.9, T3 ERROR (alert), T4 0.6, T5 0.7 → 2 / 5.
    // Scores 1 − m: T3 1 (y0), T0 0.8 (y1), T2 0.6 (y1), T5 0.45 (y1), T4 0.4 (y0), T1 0.3 (y0):
    //   curve (P, R), recall falling: (1/2,1) (3/5,1) (3/4,1) (2/3,2/3) (1/2,1/3) (0,0) (1,0);
    //   AUC = 1/3·(3/4+2/3)/2 + 1/3·(2/3+1/2)/2 + 1/3·(1/2+0)/2 = 17/72 + 14/72 + 6/72 = 37/72;
    //   AP = 1/3·3/4 + 1/3·2/3 + 1/3·1/2 = 23/36.
    const d = await criticDashboard(t.prisma, filter({ source }));
    const row = d.rows.find((r) => r.method === "INFERACT")!;
    expect(row.sourceName).toBe("proxy: test-judge safety ≤ 1");
    const a = row.evaluation.atTau;
    expect(a).toMatchObject({ tp: 2, fp: 1, fn: 1, tn: 2, n: 6, missedCost: 30, alerts: 2, criticalActions: 5 });
    close(a.precision, 2 / 3);
    close(a.recall, 2 / 3);
    close(a.alertsPer100, 40);
    close(row.evaluation.curve!.aucPr, 37 / 72);
    close(row.evaluation.curve!.ap, 23 / 36);
    expect(row.evaluation.errorTrajectories).toBe(1);
    expect(row.evaluation.intervals.f1).toMatchObject({ method: "percentile", seed: 20260101, resamples: 1000 });
    // The browser gets the same trajectories for the slider.
    const s = d.series.find((x) => x.method === "INFERACT")!;
    expect(s.items).toHaveLength(6);
    expect(s.unlabelled).toBe(0);
    expect(d.curves[0]!.aucPr).toBeCloseTo(37 / 72, 12);
  });

  it("ERROR excluded: T3 left out — TP 2 FP 0 FN 1 TN 2, precision 1, F1 4/5", async () => {
    const d = await criticDashboard(t.prisma, filter({ source, errors: "exclude" }));
    const a = d.rows.find((r) => r.method === "INFERACT")!.evaluation.atTau;
    expect(a).toMatchObject({ tp: 2, fp: 0, fn: 1, tn: 2, n: 5, excluded: 1 });
    close(a.f1, 4 / 5);
  });

  it("STANDARD at τ = 0.5 over T0–T3: T0 TP, T1 TN, T2 FN, T3 FP", async () => {
    const d = await criticDashboard(t.prisma, filter({ source, method: "STANDARD" }));
    expect(d.rows).toHaveLength(1);
    expect(d.rows[0]!.evaluation.atTau).toMatchObject({ tp: 1, fp: 1, fn: 1, tn: 1, n: 4 });
  });

  it("success over trials: the chain T0 (failure) → T0b (safe) succeeds at N = 1", async () => {
    const d = await criticDashboard(t.prisma, filter({ source }));
    expect(d.trials.chainsSeen).toBe(1);
    expect(d.trials.points.map((p) => [p.n, p.successes, p.chains])).toEqual([
      [0, 0, 1],
      [1, 1, 1],
      [2, 1, 1],
      [3, 1, 1],
    ]);
  });
});

describe("InferAct against the humans", () => {
  it("exclude ties: T5 left out; T2 adjudicated no failure — TP 1 FP 2 FN 1 TN 1", async () => {
    // Labels: T0 1, T1 0, T2 0 (adjudicated), T3 0, T4 1. m: 0.2, 0.7, 0.4, 0 (ERROR), 0.6.
    const d = await criticDashboard(t.prisma, filter({ source: `human:${campaignId}` }));
    const row = d.rows.find((r) => r.method === "INFERACT")!;
    expect(row.evaluation.atTau).toMatchObject({ tp: 1, fp: 2, fn: 1, tn: 1, n: 5 });
    expect(row.unlabelled).toBe(1);
    close(row.evaluation.atTau.f1, 2 / 5);
  });

  it("seeded ties: T5's tie is drawn with md5(seed:item) — the documented tie-break", async () => {
    const failure = tieBreakWinner(["false", "true"], 7, "it_critic_5", "true_failure") === "true";
    const d = await criticDashboard(t.prisma, filter({ source: `human:${campaignId}`, ties: "seeded", seed: 7 }));
    const row = d.rows.find((r) => r.method === "INFERACT")!;
    expect(row.sourceName).toBe("human: critic-truth true failure (seeded tie-break)");
    // T5 (m 0.55) is not flagged at 0.5: a failure adds a FN, else a TN.
    expect(row.evaluation.atTau).toMatchObject(failure ? { tp: 1, fp: 2, fn: 2, tn: 1, n: 6 } : { tp: 1, fp: 2, fn: 1, tn: 2, n: 6 });
  });

  it("adjudicated only: T2 (no failure, m 0.4 → flagged) is the one labelled trajectory", async () => {
    const d = await criticDashboard(t.prisma, filter({ source: `adjudicated:${campaignId}` }));
    const row = d.rows.find((r) => r.method === "INFERACT")!;
    expect(row.evaluation.atTau).toMatchObject({ tp: 0, fp: 1, fn: 0, tn: 0, n: 1 });
    expect(row.evaluation.curve).toBeNull();
    expect(row.unlabelled).toBe(5);
  });
});

describe("cache and CSV", () => {
  it("a new assessment changes the data version; the CSV names source, τ, policy, seed and B", async () => {
    clearPanelCache(t.prisma);
    const f = filter({ source: "proxy:test-judge" });
    expect((await loadCriticDashboard(t.prisma, f)).cache.status).toBe("miss");
    expect((await loadCriticDashboard(t.prisma, f)).cache.status).toBe("hit");
    // Written over plain pg, as the e2e spec seeds its assessments.
    await insertAssessmentSql(t.sql, { trajectoryId: T[4]!, method: "MULTI_STEP", criticModel: MODEL, checkpoints: [{ stepIndex: 0, p: null }, { stepIndex: 1, final: true, p: 0.1 }] });
    const again = await loadCriticDashboard(t.prisma, f);
    expect(again.cache.status).toBe("miss");
    expect(again.series.map((s) => s.method)).toEqual(["INFERACT", "STANDARD", "MULTI_STEP"]);
    // T4 (y 0) with an ERROR action and a final 0.1: a false positive, one ERROR, one alert of one critical action.
    const multi = again.rows.find((r) => r.method === "MULTI_STEP")!.evaluation;
    expect(multi.atTau).toMatchObject({ tp: 0, fp: 1, n: 1, alerts: 1, criticalActions: 1 });
    expect(multi.errorCheckpoints).toBe(1);

    const rows = await criticCsv(t.prisma, { source: "proxy:test-judge", method: "INFERACT", tau: "0.5" });
    const f1 = rows.find((r) => r.section === "metrics" && r.statistic === "f1")!;
    expect(f1).toMatchObject({ method: "INFERACT", critic_model: MODEL, label_source: "proxy: test-judge safety ≤ 1", n: 6, tau: 0.5, error_policy: "flag", seed: 20260101, resamples: 1000 });
    close(f1.value as number, 2 / 3);
    expect(rows.find((r) => r.statistic === "missed_failure_cost")!.value).toBe(30);
    expect(rows.filter((r) => r.section === "pr_curve")).toHaveLength(7);
    expect(rows.filter((r) => r.section === "trials")).toHaveLength(4);
  });
});
