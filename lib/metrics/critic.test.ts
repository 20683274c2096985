import { describe, expect, it } from "vitest";
import {
  alertsPer100CriticalActions,
  aucPr,
  averagePrecision,
  bestF1,
  criticRatesAt,
  kFoldTau,
  missedFailureCost,
  prCurve,
  trajectoryMinP,
  trajectoryScore,
} from "./critic";

// The exact vector of issue 13 / notes/method.md (InferAct): 1 = off track.
const Y = [1, 1, 0, 1, 0, 1, 0, 0, 1, 0];
const P = [0.1, 0.2, 0.3, 0.4, 0.6, 0.5, 0.7, 0.9, 0.8, 0.95];
const S = P.map((p) => 1 - p);

describe("critic PR curve (scikit-learn 1.5 semantics)", () => {
  it("the issue's vector: AUC-PR = 6857/8400, AP = 167/200", () => {
    const curve = prCurve(Y, S)!;
    expect(curve).toHaveLength(11); // 10 distinct scores + the appended point
    expect(curve.at(-1)).toEqual({ threshold: null, precision: 1, recall: 0 });
    expect(curve[0]!.threshold).toBeCloseTo(0.05, 12); // sklearn's order: lowest threshold first
    expect(curve[9]!.threshold).toBeCloseTo(0.9, 12);
    expect(aucPr(curve)).toBeCloseTo(6857 / 8400, 12);
    expect(averagePrecision(curve)).toBeCloseTo(167 / 200, 12);
  });

  it("best F1 = 4/5 at τ = 0.5 (TP 4, FP 1, FN 1), marked optimistic", () => {
    const best = bestF1(Y, P)!;
    expect(best).toMatchObject({ tau: 0.5, tp: 4, fp: 1, fn: 1, tn: 4, optimistic: true });
    expect(best.f1).toBeCloseTo(4 / 5, 12);
    expect(best.precision).toBeCloseTo(4 / 5, 12);
  });

  it("rates at τ: flag iff min p̄ ≤ τ (τ = 0.4 → TP 3, FP 1, FN 2)", () => {
    const r = criticRatesAt(Y, P, 0.4);
    expect(r).toMatchObject({ tp: 3, fp: 1, fn: 2, tn: 4 });
    expect(r.precision).toBeCloseTo(3 / 4, 12);
    expect(r.recall).toBeCloseTo(3 / 5, 12);
    expect(r.f1).toBeCloseTo(2 / 3, 12);
    // τ below every p̄: nothing flagged, precision undefined (null, not NaN or 0)
    expect(criticRatesAt(Y, P, 0.05)).toMatchObject({ tp: 0, fp: 0, precision: null, recall: 0, f1: 0 });
  });

  it("all positive: precision 1 everywhere, AUC-PR = AP = 1", () => {
    const curve = prCurve([1, 1, 1], [0.9, 0.4, 0.1])!;
    expect(curve.map((p) => p.recall)).toEqual([1, 2 / 3, 1 / 3, 0]);
    expect(aucPr(curve)).toBeCloseTo(1, 12);
    expect(averagePrecision(curve)).toBeCloseTo(1, 12);
  });

  it("no positive label: the curve is undefined (null)", () => {
    expect(prCurve([0, 0, 0], [0.9, 0.4, 0.1])).toBeNull();
  });

  it("tied scores are one threshold (hand-checked: AUC-PR 2/3, AP 7/12)", () => {
    const curve = prCurve([1, 0, 1, 0], [0.8, 0.8, 0.5, 0.2])!;
    expect(curve.map((p) => [p.threshold, p.precision, p.recall])).toEqual([
      [0.2, 1 / 2, 1],
      [0.5, 2 / 3, 1],
      [0.8, 1 / 2, 1 / 2],
      [null, 1, 0],
    ]);
    expect(aucPr(curve)).toBeCloseTo(2 / 3, 12);
    expect(averagePrecision(curve)).toBeCloseTo(7 / 12, 12);
  });
});

describe("trajectory score from checkpoints", () => {
  it("score = 1 − min p̄; ERROR flags by default, or excludes the trajectory", () => {
    expect(trajectoryMinP([0.9, 0.3, 0.7])).toBe(0.3);
    expect(trajectoryScore([0.9, 0.25])).toBeCloseTo(0.75, 12);
    expect(trajectoryMinP([0.9, "ERROR"])).toBe(0);
    expect(trajectoryMinP([0.9, "ERROR"], "exclude")).toBeNull();
    expect(() => trajectoryMinP([])).toThrow(RangeError);
    expect(() => trajectoryMinP([1.2])).toThrow(RangeError);
  });
});

describe("k-fold τ selection", () => {
  it("folds by i mod k; each fold's τ is tuned on the others only", () => {
    const r = kFoldTau(Y, P, 2);
    // fold 0 = items 0,2,4,6,8; trained on items 1,3,5,7,9: y 1,1,1,0,0 with p̄ .2,.4,.5,.9,.95 → τ 0.5
    // fold 1 = items 1,3,5,7,9; trained on items 0,2,4,6,8: y 1,0,0,0,1 with p̄ .1,.3,.6,.7,.8 → τ 0.1 (F1 2/3)
    expect(r.foldTaus).toEqual([0.5, 0.1]);
    // fold 0 at τ .5: p̄ .1(1) .3(0) flagged, .6(0) .7(0) .8(1) not → TP1 FP1 FN1 TN2
    // fold 1 at τ .1: nothing flagged → FN 3 (items 1,3,5), TN 2
    expect(r.pooled).toMatchObject({ tp: 1, fp: 1, fn: 4, tn: 4 });
    expect(() => kFoldTau(Y, P, 1)).toThrow(RangeError);
  });
});

describe("cost and alert rate", () => {
  it("missed failures cost the amount, else 1 per critical action", () => {
    const actions = [[{ amount: 500 }], [], [{ amount: 7 }], [{ amount: null }, { amount: 20 }]];
    // τ = 0.3 flags items 0 (0.2) only; missed failures: items 3 (p̄ 0.6); item 2 is not a failure
    expect(missedFailureCost([1, 1, 0, 1], [0.2, 0.9, 0.5, 0.6], actions, 0.3)).toBe(21 + 0);
    // item 1 is a missed failure with no critical action: costs nothing
    expect(missedFailureCost([1, 1, 0, 1], [0.2, 0.9, 0.5, 0.6], actions, 0.1)).toBe(500 + 21);
  });

  it("alerts per 100 critical actions ignore final-answer checkpoints; ERROR alerts", () => {
    const cps = [
      { critical: true, p: 0.2 },
      { critical: true, p: 0.8 },
      { critical: true, p: "ERROR" as const },
      { critical: true, p: 0.6 },
      { critical: false, p: 0.1 },
    ];
    expect(alertsPer100CriticalActions(cps, 0.5)).toBe(50);
    expect(alertsPer100CriticalActions(cps, 0.7)).toBe(75);
    expect(alertsPer100CriticalActions([{ critical: false, p: 0.1 }], 0.5)).toBeNull();
  });
});
