import { describe, expect, it } from "vitest";
import { normalQuantileTwoSided, wilsonInterval as wilsonOrUndefined } from "./wilson";

/** The interval's bounds (these vectors are all defined). */
function wilsonInterval(k: number, n: number) {
  const ci = wilsonOrUndefined(k, n);
  if (ci.undefined) throw new Error(`undefined: ${ci.reason}`);
  return ci;
}

// Vectors of docs/method.md (Test vectors, Intervals and correction), z = 1.959964.
describe("Wilson score interval", () => {
  it("3/3 → [0.4385, 1]", () => {
    const ci = wilsonInterval(3, 3);
    expect(ci).toMatchObject({ method: "wilson", level: 0.95, successes: 3, trials: 3, upper: 1 });
    expect(ci.lower).toBeCloseTo(0.4385, 4);
  });

  it("0/5 → [0, 0.4345]", () => {
    const ci = wilsonInterval(0, 5);
    expect(ci.lower).toBe(0);
    expect(ci.upper).toBeCloseTo(0.4345, 4);
  });

  it("4/5 → [0.3755, 0.9638]", () => {
    const ci = wilsonInterval(4, 5);
    expect(ci.lower).toBeCloseTo(0.3755, 4);
    expect(ci.upper).toBeCloseTo(0.9638, 4);
  });

  it("never has zero width for n > 0, and is symmetric under k ↔ n − k", () => {
    for (let n = 1; n <= 30; n++) {
      for (let k = 0; k <= n; k++) {
        const a = wilsonInterval(k, n);
        const b = wilsonInterval(n - k, n);
        expect(a.upper - a.lower).toBeGreaterThan(0);
        expect(a.lower).toBeLessThanOrEqual(k / n);
        expect(a.upper).toBeGreaterThanOrEqual(k / n);
        expect(a.lower).toBeCloseTo(1 - b.upper, 12);
      }
    }
  });

  it("n = 0 is undefined with the reason given; bad counts throw", () => {
    expect(wilsonOrUndefined(0, 0, 0.95, "nothing identified")).toMatchObject({ undefined: true, reason: "nothing identified" });
    expect(() => wilsonOrUndefined(4, 3)).toThrow(/0 ≤ k ≤ n/);
    expect(() => wilsonOrUndefined(1.5, 3)).toThrow();
  });

  it("other levels use the normal quantile (90 % → 1.6449, 99 % → 2.5758)", () => {
    expect(normalQuantileTwoSided(0.9)).toBeCloseTo(1.644854, 5);
    expect(normalQuantileTwoSided(0.99)).toBeCloseTo(2.575829, 5);
  });
});
