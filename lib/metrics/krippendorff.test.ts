import { describe, expect, it } from "vitest";
import type { Estimate } from "./estimate";
import { krippendorffAlpha, krippendorffAlphaInterval, unitsFromCoders } from "./krippendorff";
import type { Rating } from "./labels";

const _ = null;

function value(e: Estimate): number {
  if (e.undefined) throw new Error(`expected a value, got undefined: ${e.reason}`);
  return e.value;
}

// docs/method.md (Test vectors, Krippendorff's α): 3 coders × 7 units, `-` missing.
const NOTE: Rating[][] = [
  [0, 1, 2, 3, _, 1, 2],
  [0, 1, 3, 3, 2, _, 2],
  [_, 2, 2, 3, 2, 0, _],
];

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": 4 observers × 12 units;
// unit 12 has a single value and is not pairable.
const K2011: Rating[][] = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];

describe("Krippendorff's α — docs/method.md vectors", () => {
  const units = unitsFromCoders(NOTE);
  it.each([
    ["nominal", 55 / 103],
    ["ordinal", 5279 / 6307],
    ["interval", 125 / 149],
  ] as const)("3×7 %s = %f (exact to 1e-9)", (level, expected) => {
    const a = krippendorffAlpha(units, level);
    expect(Math.abs(value(a) - expected)).toBeLessThan(1e-9);
    expect(a.pairableUnits).toBe(7);
    expect(a.pairableValues).toBe(17);
  });
});

describe("Krippendorff's α — Krippendorff (2011) 4×12 example", () => {
  const units = unitsFromCoders(K2011);
  it("nominal 0.743421, interval 0.849107 (to 1e-6)", () => {
    expect(Math.abs(value(krippendorffAlpha(units, "nominal")) - 0.743421)).toBeLessThan(1e-6);
    expect(Math.abs(value(krippendorffAlpha(units, "interval")) - 0.849107)).toBeLessThan(1e-6);
  });
  it("ordinal 0.815 as published", () => {
    expect(value(krippendorffAlpha(units, "ordinal"))).toBeCloseTo(0.815, 3);
  });
  it("the single-valued unit 12 drops out: 11 pairable units, 40 pairable values", () => {
    const a = krippendorffAlpha(units, "nominal");
    expect(a.pairableUnits).toBe(11);
    expect(a.pairableValues).toBe(40);
    // Removing it (or adding more lone ratings) changes nothing.
    const without = krippendorffAlpha(units.slice(0, 11), "nominal");
    const more = krippendorffAlpha([...units, [_, 4, _, _], [1]], "nominal");
    expect(value(without)).toBe(value(a));
    expect(value(more)).toBe(value(a));
  });
});

describe("Krippendorff's α — edge cases", () => {
  it("undefined when no unit is pairable", () => {
    const a = krippendorffAlpha([[1, _], [_, 2], []], "interval");
    expect(a).toMatchObject({ undefined: true, pairableUnits: 0 });
    expect(a.reason).toMatch(/two or more/);
  });

  it("undefined (not 1, not NaN) when every rating is the same value", () => {
    const a = krippendorffAlpha([[2, 2], [2, 2, 2]], "nominal");
    expect(a.undefined).toBe(true);
    expect(a.value).toBeUndefined();
    expect(a.reason).toMatch(/expected disagreement is 0/);
  });

  it("perfect agreement with variation is 1", () => {
    expect(value(krippendorffAlpha([[0, 0], [3, 3, 3], [1, 1]], "ordinal"))).toBe(1);
  });

  it("bootstrap CI over units is seeded and contains the estimate", () => {
    const units = unitsFromCoders(K2011);
    const ci = krippendorffAlphaInterval(units, "nominal", { seed: 7, resamples: 500 });
    expect(ci).toEqual(krippendorffAlphaInterval(units, "nominal", { seed: 7, resamples: 500 }));
    if (ci.undefined) throw new Error(ci.reason);
    expect(ci.lower).toBeLessThanOrEqual(0.743421);
    expect(ci.upper).toBeGreaterThanOrEqual(0.743421);
  });
});
