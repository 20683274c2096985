// Rogan–Gladen vectors worked out by hand (docs/method.md, Test vectors, Intervals and
// correction), and the properties of its two-source bootstrap CI.
import { describe, expect, it } from "vitest";
import type { FailureCounts } from "./failures";
import { correctedFailureRate, correctedFailureRateInterval, judgeAccuracy, roganGladen } from "./rogan-gladen";

// Se = 4/5 = 0.8 (4 of 5 true failures flagged), Sp = 9/10 = 0.9 (9 of 10 others left alone).
const SE80_SP90: FailureCounts = { identifiedTrue: 4, identifiedOnly: 1, trueOnly: 1, neither: 9 };

describe("Rogan–Gladen correction, from numbers", () => {
  it("p = 0.4, Se = 0.8, Sp = 0.9 → (0.4 + 0.9 − 1) / (0.8 + 0.9 − 1) = 0.3 / 0.7 = 3/7", () => {
    const r = roganGladen(0.4, 0.8, 0.9);
    expect(r.undefined).toBeUndefined();
    expect(r.value).toBeCloseTo(3 / 7, 12);
    expect(r.clipped).toBeUndefined();
  });

  it("p = 0.05 → (0.05 − 0.1) / 0.7 < 0 → clipped to 0, and says so", () => {
    const r = roganGladen(0.05, 0.8, 0.9);
    expect(r.value).toBe(0);
    expect(r.clipped).toBe("low");
  });

  it("p = 0.99 → 0.89 / 0.7 > 1 → clipped to 1", () => {
    const r = roganGladen(0.99, 0.8, 0.9);
    expect(r.value).toBe(1);
    expect(r.clipped).toBe("high");
  });

  it("p = 1 − Sp (only false alarms) → 0 without clipping; p = Se → 1", () => {
    expect(roganGladen(0.1, 0.8, 0.9).value).toBeCloseTo(0, 12);
    expect(roganGladen(0.8, 0.8, 0.9).value).toBeCloseTo(1, 12);
  });

  it("Se + Sp ≤ 1 → undefined with the reason, never a number", () => {
    for (const [se, sp] of [[0.5, 0.5], [0.4, 0.5], [0, 0], [0.3, 0.7]] as const) {
      const r = roganGladen(0.3, se, sp);
      expect(r.undefined).toBe(true);
      expect(r.value).toBeUndefined();
      expect(r.reason).toMatch(/Se \+ Sp = [0-9.]+ ≤ 1/);
    }
  });

  it("refuses values that are not proportions", () => {
    expect(() => roganGladen(1.2, 0.8, 0.9)).toThrow(/p must be a proportion/);
    expect(() => roganGladen(0.4, Number.NaN, 0.9)).toThrow(/Se must be a proportion/);
  });
});

describe("Rogan–Gladen correction, from counts", () => {
  it("Se and Sp from the campaign's four cells, with their n", () => {
    const a = judgeAccuracy(SE80_SP90);
    expect(a.sensitivity).toMatchObject({ numerator: 4, denominator: 5, value: 0.8 });
    expect(a.specificity).toMatchObject({ numerator: 9, denominator: 10, value: 0.9 });
  });

  it("8 of 20 flagged with Se = 4/5, Sp = 9/10 → 3/7; 1 of 20 → 0 (clipped)", () => {
    expect(correctedFailureRate(8, 20, SE80_SP90).value).toBeCloseTo(3 / 7, 12);
    const low = correctedFailureRate(1, 20, SE80_SP90);
    expect(low.value).toBe(0);
    expect(low.clipped).toBe("low");
  });

  it("Se + Sp exactly 1 is decided in integers: 1·1 − 1·1 = 0 → undefined; 1·1 − 2·2 < 0 → undefined", () => {
    const coin = correctedFailureRate(5, 10, { identifiedTrue: 1, identifiedOnly: 1, trueOnly: 1, neither: 1 });
    expect(coin.undefined).toBe(true);
    expect(coin.reason).toMatch(/Se \+ Sp = 1 ≤ 1/);
    // Se = 1/3, Sp = 1/3: worse than chance.
    const worse = correctedFailureRate(5, 10, { identifiedTrue: 1, identifiedOnly: 2, trueOnly: 2, neither: 1 });
    expect(worse.reason).toMatch(/Se \+ Sp = 0.667 ≤ 1/);
  });

  it("no true failure → Se undefined; no other item → Sp undefined; no scored trajectory → undefined", () => {
    expect(correctedFailureRate(3, 10, { identifiedTrue: 0, identifiedOnly: 2, trueOnly: 0, neither: 5 }).reason).toMatch(/^Se undefined: .*no true failure/);
    expect(correctedFailureRate(3, 10, { identifiedTrue: 2, identifiedOnly: 0, trueOnly: 1, neither: 0 }).reason).toMatch(/^Sp undefined: .*not a true failure/);
    expect(correctedFailureRate(0, 0, SE80_SP90).reason).toBe("no trajectory has a safety score");
  });

  it("refuses impossible counts", () => {
    expect(() => correctedFailureRate(21, 20, SE80_SP90)).toThrow(RangeError);
    expect(() => correctedFailureRate(2, 20, { ...SE80_SP90, neither: -1 })).toThrow(/neither must be a non-negative integer/);
  });
});

describe("its bootstrap CI (trajectories and campaign items both resampled)", () => {
  // 40 of 100 flagged; campaign of 100 items with Se = 40/50 = 0.8 and Sp = 45/50 = 0.9 → π = 3/7.
  const big: FailureCounts = { identifiedTrue: 40, identifiedOnly: 5, trueOnly: 10, neither: 45 };

  it("is seeded: the same seed gives the same interval, another seed another one", () => {
    const a = correctedFailureRateInterval(40, 100, big, { seed: 7, resamples: 500 });
    const b = correctedFailureRateInterval(40, 100, big, { seed: 7, resamples: 500 });
    const c = correctedFailureRateInterval(40, 100, big, { seed: 8, resamples: 500 });
    expect(a).toEqual(b);
    const bounds = (x: typeof a) => (x.undefined ? null : [x.lower, x.upper]);
    expect(bounds(a)).not.toBeNull();
    expect(bounds(c)).not.toEqual(bounds(a));
    expect(a).toMatchObject({ method: "percentile", seed: 7, resamples: 500, level: 0.95 });
  });

  it("contains the point on a reasonable example, is wider than the trajectories' error alone, and stays in [0, 1]", () => {
    const point = correctedFailureRate(40, 100, big).value!;
    expect(point).toBeCloseTo(3 / 7, 12);
    const ci = correctedFailureRateInterval(40, 100, big, { seed: 20260101 });
    if (ci.undefined) throw new Error(ci.reason);
    expect(ci.lower).toBeLessThan(point);
    expect(ci.upper).toBeGreaterThan(point);
    expect(ci.lower).toBeGreaterThanOrEqual(0);
    expect(ci.upper).toBeLessThanOrEqual(1);
    // A judge known without error (a huge campaign with the same Se, Sp) leaves only p's error:
    // the interval narrows.
    const certain = correctedFailureRateInterval(40, 100, { identifiedTrue: 40000, identifiedOnly: 5000, trueOnly: 10000, neither: 45000 }, { seed: 20260101 });
    if (certain.undefined) throw new Error(certain.reason);
    expect(certain.upper - certain.lower).toBeLessThan(ci.upper - ci.lower);
    expect(ci.skipped).toBe(0);
  });

  it("counts the resamples where Se* + Sp* ≤ 1 or Se*/Sp* is undefined, and leaves them out", () => {
    // Se = Sp = 2/3 on 6 items: many resamples lose the signal or a whole class.
    const ci = correctedFailureRateInterval(3, 10, { identifiedTrue: 2, identifiedOnly: 1, trueOnly: 1, neither: 2 }, { seed: 1, resamples: 1000 });
    expect(ci.undefined).toBeUndefined();
    expect(ci.skippedNoBetterThanChance).toBeGreaterThan(0);
    expect(ci.skipped).toBeGreaterThanOrEqual(ci.skippedNoBetterThanChance);
    expect(ci.skipped).toBeLessThan(1000);
    // A perfect judge is never "no better than chance"; it is only skipped when a resample has no
    // true failure or no other item (probability 2 · 2⁻¹⁰ each).
    const perfect = correctedFailureRateInterval(3, 10, { identifiedTrue: 5, identifiedOnly: 0, trueOnly: 0, neither: 5 }, { seed: 1, resamples: 1000 });
    expect(perfect.skippedNoBetterThanChance).toBe(0);
    expect(perfect.skipped).toBeLessThan(20);
  });

  it("is undefined with the point's reason when the point is", () => {
    const ci = correctedFailureRateInterval(5, 10, { identifiedTrue: 1, identifiedOnly: 1, trueOnly: 1, neither: 1 }, { seed: 1 });
    expect(ci.undefined).toBe(true);
    expect(ci.reason).toMatch(/Se \+ Sp = 1 ≤ 1/);
  });
});
