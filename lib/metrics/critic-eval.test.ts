import { describe, expect, it } from "vitest";
import {
  calibrationBins,
  criticAtTau,
  criticBootstrap,
  criticCurve,
  evaluateCritic,
  prepareCritic,
  successOverTrials,
  type EvalCheckpoint,
  type EvalTrajectory,
} from "./critic-eval";
import { mulberry32 } from "./rng";

const close = (x: number | null | undefined, y: number) => expect(x).toBeCloseTo(y, 12);
const fin = (p: number | null): EvalCheckpoint => ({ p, critical: false, amount: null });
const act = (p: number | null, amount: number | null = null): EvalCheckpoint => ({ p, critical: true, amount });

describe("the issue's vector through evaluateCritic (one final-answer checkpoint per trajectory)", () => {
  const Y = [1, 1, 0, 1, 0, 1, 0, 0, 1, 0] as const;
  const P = [0.1, 0.2, 0.3, 0.4, 0.6, 0.5, 0.7, 0.9, 0.8, 0.95];
  const items: EvalTrajectory[] = Y.map((y, i) => ({ y, checkpoints: [fin(P[i]!)] }));

  it("AUC-PR = 6857/8400, AP = 167/200, best F1 = 4/5 at τ = 0.5 (optimistic), P/R/F1 at τ = 0.4", () => {
    const e = evaluateCritic(items, { tau: 0.4, seed: 1, resamples: 50 });
    close(e.curve!.aucPr, 6857 / 8400);
    close(e.curve!.ap, 167 / 200);
    expect(e.best).toMatchObject({ tau: 0.5, tp: 4, fp: 1, fn: 1, optimistic: true });
    expect(e.atTau).toMatchObject({ tp: 3, fp: 1, fn: 2, tn: 4, n: 10, excluded: 0, criticalActions: 0, alertsPer100: null, missedCost: 0 });
    close(e.atTau.f1, 2 / 3);
    expect(e.positives).toBe(5);
    // k = 5 folds: item i in fold i mod 5; each fold's τ tuned on the other 8 items.
    expect(e.kFold!.k).toBe(5);
    expect(e.kFold!.foldTaus).toHaveLength(5);
    const pooled = e.kFold!.pooled;
    expect(pooled.tp + pooled.fp + pooled.fn + pooled.tn).toBe(10);
  });
});

// Six trajectories with critical actions, amounts and ERRORs (hand-computed below):
//   A y=1  [act 0.9 (amount 100), final ERROR]          m: flag 0     exclude: left out
//   B y=0  [act 0.8, final 0.7]                          m 0.7
//   C y=1  [act 0.6, act 0.3 (amount 50), final 0.9]     m 0.3
//   D y=0  [act 0.2, final 0.95]                         m 0.2
//   E y=1  [act 0.9 (amount 25), final 0.85]             m 0.85
//   F y=0  [act ERROR, final 0.9]                        m: flag 0     exclude: left out
const SIX: EvalTrajectory[] = [
  { y: 1, checkpoints: [act(0.9, 100), fin(null)] },
  { y: 0, checkpoints: [act(0.8), fin(0.7)] },
  { y: 1, checkpoints: [act(0.6), act(0.3, 50), fin(0.9)] },
  { y: 0, checkpoints: [act(0.2), fin(0.95)] },
  { y: 1, checkpoints: [act(0.9, 25), fin(0.85)] },
  { y: 0, checkpoints: [act(null), fin(0.9)] },
];

describe("ERROR policies, cost and alerts", () => {
  it("flag: ERROR is p̄ = 0 — τ = 0.5: TP 2 (A, C), FP 2 (D, F), FN 1 (E), TN 1 (B)", () => {
    const r = criticAtTau(SIX, 0.5, "flag");
    expect(r).toMatchObject({ tp: 2, fp: 2, fn: 1, tn: 1, n: 6, excluded: 0 });
    close(r.precision, 1 / 2);
    close(r.recall, 2 / 3);
    close(r.f1, 4 / 7);
    // Missed: E only; its one critical action carries amount 25.
    expect(r.missedCost).toBe(25);
    // Critical actions: A 0.9, B 0.8, C 0.6, C 0.3, D 0.2, E 0.9, F ERROR = 7; alerts at τ 0.5:
    // C 0.3, D 0.2, F ERROR = 3 (A's ERROR is at its final answer: not a critical action).
    expect(r).toMatchObject({ alerts: 3, criticalActions: 7 });
    close(r.alertsPer100, 300 / 7);
  });

  it("exclude: A and F are left out — τ = 0.5: TP 1 (C), FP 1 (D), FN 1 (E), TN 1 (B)", () => {
    const r = criticAtTau(SIX, 0.5, "exclude");
    expect(r).toMatchObject({ tp: 1, fp: 1, fn: 1, tn: 1, n: 4, excluded: 2, alerts: 2, criticalActions: 5, missedCost: 25 });
    close(r.precision, 1 / 2);
    close(r.f1, 1 / 2);
    close(r.alertsPer100, 40);
    const p = prepareCritic(SIX, "exclude");
    expect(p).toMatchObject({ excluded: 2, errorTrajectories: 2, errorCheckpoints: 2 });
  });

  it("τ = 0.9 flags everything: no missed cost, every critical action alerts; τ = 0.1: a missed failure without amount costs 1 per action", () => {
    const r = criticAtTau(SIX, 0.9, "flag");
    expect(r).toMatchObject({ tp: 3, fp: 3, fn: 0, tn: 0, missedCost: 0, alerts: 7 });
    close(r.alertsPer100, 100);
    // τ = 0.1 (flag): A and F flagged (ERROR); C (0.3) and E (0.85) missed: C's actions 1 (no amount) + 50, E's 25.
    expect(criticAtTau(SIX, 0.1, "flag")).toMatchObject({ tp: 1, fp: 1, fn: 2, tn: 2, missedCost: 76 });
  });

  it("PR curve under flag (A and F tie at score 1): AUC-PR = 97/180, AP = 1/2", () => {
    // Scores s = 1 − m: A 1, F 1, D 0.8, C 0.7, B 0.3, E 0.15; failures A, C, E.
    // Thresholds from the top: 1 → TP1 FP1 (P 1/2, R 1/3); 0.8 → (1/3, 1/3); 0.7 → (1/2, 2/3);
    // 0.3 → (2/5, 2/3); 0.15 → (1/2, 1). Trapezoids (recall falling, then (0, 1)):
    //   1/3 · (1/2 + 2/5)/2 + 0 + 1/3 · (1/2 + 1/3)/2 + 0 + 1/3 · (1/2 + 1)/2 = 3/20 + 5/36 + 1/4 = 97/180.
    // AP (step sum): 1/3 · 1/2 + 0 + 1/3 · 1/2 + 0 + 1/3 · 1/2 = 1/2.
    const c = criticCurve(SIX, "flag")!;
    expect(c.points.map((p) => [p.threshold === null ? null : Number(p.threshold.toFixed(6)), p.precision, p.recall])).toEqual([
      [0.15, 1 / 2, 1],
      [0.3, 2 / 5, 2 / 3],
      [0.7, 1 / 2, 2 / 3],
      [0.8, 1 / 3, 1 / 3],
      [1, 1 / 2, 1 / 3],
      [null, 1, 0],
    ]);
    close(c.aucPr, 97 / 180);
    close(c.ap, 1 / 2);
    // No failure left: the curve is undefined.
    expect(criticCurve([{ y: 0, checkpoints: [fin(0.4)] }])).toBeNull();
  });

  it("rejects a τ outside [0, 1]", () => {
    expect(() => criticAtTau(SIX, 1.5)).toThrow(RangeError);
  });
});

describe("bootstrap CIs: reproducible and hand-computed (seed 7, B = 3)", () => {
  // Four trajectories: 0 y=1 m 0.2 (TP at τ 0.5), 1 y=0 m 0.3 (FP), 2 y=1 m 0.8 (FN), 3 y=0 m 0.9 (TN).
  const FOUR: EvalTrajectory[] = [
    { y: 1, checkpoints: [fin(0.2)] },
    { y: 0, checkpoints: [fin(0.3)] },
    { y: 1, checkpoints: [fin(0.8)] },
    { y: 0, checkpoints: [fin(0.9)] },
  ];

  it("the resamples are floor(4 · mulberry32(7)) drawn in turn", () => {
    const rng = mulberry32(7);
    const draws = Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => Math.floor(rng() * 4)));
    expect(draws).toEqual([
      [0, 0, 3, 2],
      [2, 1, 1, 0],
      [2, 2, 1, 0],
    ]);
  });

  it("P, R, F1 at τ = 0.5 and AUC-PR: percentiles (type 7) of the three resamples", () => {
    // Resample [0,0,3,2]: TP 2 FP 0 FN 1 → P 1, R 2/3, F1 4/5; curve (3/4,1) (1,1) (1,2/3) (1,0) → AUC 1/3 + 2/3 = 1.
    // Resample [2,1,1,0]: TP 1 FP 2 FN 1 → P 1/3, R 1/2, F1 2/5; curve (1/2,1) (1/3,1/2) (1,1/2) (1,0) → AUC 5/24 + 1/2 = 17/24.
    // Resample [2,2,1,0]: TP 1 FP 1 FN 2 → P 1/2, R 1/3, F1 2/5; curve (3/4,1) (1/2,1/3) (1,1/3) (1,0) → AUC 5/12 + 1/3 = 3/4.
    // 95% percentile, type 7 on three sorted values v: lower = v0 + 0.05 (v1 − v0), upper = v1 + 0.95 (v2 − v1).
    const ci = criticBootstrap(FOUR, 0.5, "flag", { seed: 7, resamples: 3 });
    const bounds = (x: (typeof ci)["precision"]) => (x.undefined ? null : [x.lower, x.upper]);
    const expectBounds = (x: (typeof ci)["precision"], lo: number, hi: number) => {
      const b = bounds(x)!;
      close(b[0], lo);
      close(b[1], hi);
    };
    expectBounds(ci.precision, 1 / 3 + 0.05 / 6, 1 / 2 + 0.95 / 2);
    expectBounds(ci.recall, 1 / 3 + 0.05 / 6, 1 / 2 + 0.95 / 6);
    expectBounds(ci.f1, 2 / 5, 2 / 5 + 0.95 * (2 / 5));
    expectBounds(ci.aucPr, 17 / 24 + 0.05 / 24, 3 / 4 + 0.95 / 4);
    expect(ci.precision).toMatchObject({ method: "percentile", seed: 7, resamples: 3, skipped: 0, level: 0.95 });
    // Same seed, same numbers; another seed, other resamples.
    expect(criticBootstrap(FOUR, 0.5, "flag", { seed: 7, resamples: 3 })).toEqual(ci);
    expect(criticBootstrap(FOUR, 0.5, "flag", { seed: 8, resamples: 3 })).not.toEqual(ci);
  });

  it("a resample without a flag leaves precision undefined there: skipped and counted", () => {
    // τ = 0.25 flags item 0 only; resample [2,1,1,0] has item 0 → defined; [2,2,1,0] too; [0,0,3,2] too.
    // τ = 0.1 flags nothing: precision undefined on every resample.
    const ci = criticBootstrap(FOUR, 0.1, "flag", { seed: 7, resamples: 3 });
    expect(ci.precision).toMatchObject({ undefined: true, skipped: 3 });
    expect(ci.recall).toMatchObject({ lower: 0, upper: 0, skipped: 0 });
  });

  it("the ERROR policy decides what is resampled", () => {
    const withError: EvalTrajectory[] = [...FOUR, { y: 0, checkpoints: [fin(null)] }];
    // exclude: the ERROR trajectory is gone, so the resamples are exactly FOUR's.
    expect(criticBootstrap(withError, 0.5, "exclude", { seed: 7, resamples: 3 })).toEqual(criticBootstrap(FOUR, 0.5, "flag", { seed: 7, resamples: 3 }));
    expect(criticBootstrap(withError, 0.5, "flag", { seed: 7, resamples: 3 })).not.toEqual(criticBootstrap(FOUR, 0.5, "flag", { seed: 7, resamples: 3 }));
  });
});

describe("calibration of m = min p̄", () => {
  it("two bins: mean m vs share on track, Wilson intervals, ECE; ERROR left out", () => {
    const items: EvalTrajectory[] = [
      { y: 1, checkpoints: [fin(0.1)] },
      { y: 0, checkpoints: [act(0.3), fin(0.9)] },
      { y: 0, checkpoints: [fin(0.6)] },
      { y: 0, checkpoints: [fin(0.9)] },
      { y: 1, checkpoints: [fin(1)] }, // m = 1 sits in the last bin
      { y: 0, checkpoints: [act(null), fin(0.9)] },
    ];
    const c = calibrationBins(items, 2);
    expect(c).toMatchObject({ n: 5, errors: 1 });
    expect(c.bins[0]).toMatchObject({ lower: 0, upper: 0.5, n: 2, onTrack: 1 });
    close(c.bins[0]!.meanP, 0.2);
    close(c.bins[0]!.share, 1 / 2);
    expect(c.bins[1]).toMatchObject({ n: 3, onTrack: 2 });
    close(c.bins[1]!.meanP, 2.5 / 3);
    close(c.bins[1]!.share, 2 / 3);
    expect(c.bins[1]!.interval).toMatchObject({ method: "wilson", successes: 2, trials: 3 });
    // ECE = 2/5 · |0.2 − 0.5| + 3/5 · |2.5/3 − 2/3| = 0.12 + 0.1 = 0.22
    close(c.ece, 0.22);
    expect(calibrationBins([], 10)).toMatchObject({ n: 0, ece: null });
    expect(calibrationBins([], 10).bins[3]!.meanP).toBeNull();
  });
});

describe("success over trials", () => {
  it("cumulative success by N feedback rounds; unlabelled chains left out", () => {
    const s = successOverTrials([
      [{ trial: 1, success: false }, { trial: 2, success: true }],
      [{ trial: 1, success: true }],
      [{ trial: 1, success: false }, { trial: 2, success: false }, { trial: 3, success: true }],
      [{ trial: 1, success: false }],
      [{ trial: 1, success: false }, { trial: 2, success: null }],
    ]);
    expect(s.unlabelled).toBe(1);
    expect(s.points.map((p) => [p.n, p.successes, p.chains, p.reached])).toEqual([
      [0, 1, 4, 4],
      [1, 2, 4, 2],
      [2, 3, 4, 1],
      [3, 3, 4, 0],
    ]);
    close(s.points[2]!.share, 3 / 4);
    expect(successOverTrials([]).points[0]).toMatchObject({ share: null, chains: 0 });
  });
});
