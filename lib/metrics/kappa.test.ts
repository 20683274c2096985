import { describe, expect, it } from "vitest";
import { agreementSummary, marginals, meanBias, rawAgreement } from "./agreement";
import { binarizeConfusion, confusionFromCells, confusionFromCounts, confusionFromPairs, type ConfusionMatrix } from "./confusion";
import type { Estimate } from "./estimate";
import { binarizedKappa, cohenKappa, kappaVariants, type Weighting } from "./kappa";

const EXACT = 1e-9;

/** The test vectors of docs/method.md (Test vectors, Cohen's κ; labels 0..3). */
const VECTORS: Record<string, { r1: number[]; r2: number[]; kappa: Record<Weighting, number | "undefined"> }> = {
  K1: {
    r1: [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3],
    r2: [0, 1, 2, 3, 1, 1, 2, 2, 0, 2, 3, 3],
    kappa: { categorical: 5 / 9, linear: 21 / 29, quadratic: 6 / 7 },
  },
  K2: {
    r1: [0, 0, 1, 1, 3, 3, 0, 1, 3, 3],
    r2: [0, 1, 1, 0, 3, 1, 0, 1, 3, 3],
    kappa: { categorical: 37 / 67, linear: 47 / 67, quadratic: 25 / 31 },
  },
  K3a: { r1: [0, 0, 0, 0, 0, 0], r2: [0, 1, 0, 2, 0, 3], kappa: { categorical: 0, linear: 0, quadratic: 0 } },
  K3b: { r1: [2, 2, 2, 2], r2: [2, 2, 2, 2], kappa: { categorical: "undefined", linear: "undefined", quadratic: "undefined" } },
  K4: {
    r1: [0, 1, 2, 2, 1, 0, 1, 2],
    r2: [1, 2, 3, 3, 2, 1, 2, 3],
    kappa: { categorical: -15 / 49, linear: 3 / 19, quadratic: 39 / 71 },
  },
};

function value(e: Estimate): number {
  if (e.undefined) throw new Error(`expected a value, got undefined: ${e.reason}`);
  return e.value;
}

describe("Cohen's κ — docs/method.md test vectors", () => {
  for (const [name, v] of Object.entries(VECTORS)) {
    for (const weighting of ["categorical", "linear", "quadratic"] as const) {
      const expected = v.kappa[weighting];
      it(`${name} ${weighting} = ${expected}`, () => {
        const k = cohenKappa(confusionFromPairs(v.r1, v.r2), weighting);
        expect(k.n).toBe(v.r1.length);
        if (expected === "undefined") {
          expect(k.undefined).toBe(true);
          expect(k.value).toBeUndefined();
          expect(k.reason).toMatch(/^every label is \d \(no variation\)$/);
        } else {
          expect(Math.abs(value(k) - expected)).toBeLessThan(EXACT);
        }
      });
    }
  }

  it("K3a is exactly 0, not merely close", () => {
    const cm = confusionFromPairs(VECTORS.K3a!.r1, VECTORS.K3a!.r2);
    for (const w of ["categorical", "linear", "quadratic"] as const) expect(value(cohenKappa(cm, w))).toBe(0);
  });

  it("K3b is undefined in every variant — never NaN, 0 or 1", () => {
    const cm = confusionFromPairs(VECTORS.K3b!.r1, VECTORS.K3b!.r2);
    for (const [variant, k] of Object.entries(kappaVariants(cm))) {
      expect(k).toMatchObject({ undefined: true });
      expect(k.value).toBeUndefined();
      // The reason in words the pages show after "κ undefined — "; binarized, 2 is 1 (safe).
      expect(k.reason).toBe(`every label is ${variant === "binarized" ? 1 : 2} (no variation)`);
    }
  });

  it("K2 on the full label set does NOT give the inferred-label figures 29/44 and 10/13", () => {
    const full = confusionFromPairs(VECTORS.K2!.r1, VECTORS.K2!.r2);
    expect(Math.abs(value(cohenKappa(full, "linear")) - 29 / 44)).toBeGreaterThan(0.01);
    expect(Math.abs(value(cohenKappa(full, "quadratic")) - 10 / 13)).toBeGreaterThan(0.01);
    // …which is what one gets by inferring the labels {0, 1, 3} from the data (3 sits next to 1).
    const inferred = confusionFromPairs(
      VECTORS.K2!.r1.map((l) => [0, 1, 3].indexOf(l)),
      VECTORS.K2!.r2.map((l) => [0, 1, 3].indexOf(l)),
      [0, 1, 2],
    );
    expect(Math.abs(value(cohenKappa(inferred, "linear")) - 29 / 44)).toBeLessThan(EXACT);
    expect(Math.abs(value(cohenKappa(inferred, "quadratic")) - 10 / 13)).toBeLessThan(EXACT);
  });

  it("counts, cells and pairs give the same matrix and κ", () => {
    const v = VECTORS.K1!;
    const fromPairs = confusionFromPairs(v.r1, v.r2);
    const fromCounts = confusionFromCounts(fromPairs.counts);
    const cells = fromPairs.counts.flatMap((row, i) => row.map((count, j) => ({ rater1: i, rater2: j, count: BigInt(count) })));
    const fromCells = confusionFromCells(cells.filter((c) => c.count > 0n));
    for (const cm of [fromCounts, fromCells]) {
      expect(cm.counts).toEqual(fromPairs.counts);
      expect(cm.n).toBe(12);
      expect(kappaVariants(cm)).toEqual(kappaVariants(fromPairs));
    }
  });

  it("κ is symmetric in the two raters", () => {
    for (const v of Object.values(VECTORS)) {
      const a = kappaVariants(confusionFromPairs(v.r1, v.r2));
      const b = kappaVariants(confusionFromPairs(v.r2, v.r1));
      for (const k of ["categorical", "linear", "quadratic", "binarized"] as const) {
        if (a[k].undefined) expect(b[k].undefined).toBe(true);
        else expect(Math.abs(value(b[k]) - a[k].value)).toBeLessThan(EXACT);
      }
    }
  });

  it("reports the disagreement sums κ is made of", () => {
    const k = cohenKappa(confusionFromPairs(VECTORS.K1!.r1, VECTORS.K1!.r2), "categorical");
    expect(k.disagreement).toBeDefined();
    expect(1 - k.disagreement!.observed / k.disagreement!.expected).toBeCloseTo(5 / 9, 12);
    expect(k.disagreement!.observed).toBeCloseTo(4 / 12, 12);
  });
});

describe("confusion matrix", () => {
  it("drops pairs with a missing label and says how many", () => {
    const cm = confusionFromPairs([0, null, 2, 3, undefined, Number.NaN], [0, 1, undefined, 3, 2, 1]);
    expect(cm.n).toBe(2);
    expect(cm.dropped).toBe(4);
  });

  it("refuses labels outside the set, bad counts and mismatched shapes", () => {
    expect(() => confusionFromPairs([4], [0])).toThrow(/not in the label set/);
    expect(() => confusionFromPairs([0, 1], [0])).toThrow(/differ in length/);
    expect(() => confusionFromCounts([[1, 2], [3, 4]])).toThrow(/4×4/);
    expect(() => confusionFromCounts([[1.5, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])).toThrow(/integer/);
    expect(() => confusionFromCells([{ rater1: 0, rater2: 7, count: 1 }])).toThrow(/not in the label set/);
  });

  it("an empty matrix gives undefined κ, agreement and bias", () => {
    const cm = confusionFromPairs([null], [1]);
    expect(cohenKappa(cm)).toMatchObject({ undefined: true, n: 0 });
    expect(rawAgreement(cm).undefined).toBe(true);
    expect(meanBias(cm).undefined).toBe(true);
  });
});

describe("binarized κ, raw agreement, marginals, mean bias", () => {
  const k1: ConfusionMatrix = confusionFromPairs(VECTORS.K1!.r1, VECTORS.K1!.r2);

  it("binarizes at ≥ 2", () => {
    const b = binarizeConfusion(k1);
    // r1 binary: 0,0,1,1 ×3; r2 binary: 0,0,1,1,0,0,1,1,0,1,1,1
    expect(b.labels).toEqual([0, 1]);
    expect(b.counts).toEqual([[5, 1], [0, 6]]);
    // po = 11/12, pe = (6·5 + 6·7)/144 = 1/2 → κ = (11/12 − 1/2)/(1/2) = 5/6
    expect(Math.abs(value(binarizedKappa(k1)) - 5 / 6)).toBeLessThan(EXACT);
    expect(binarizedKappa(k1).variant).toBe("binarized");
  });

  it("K4: raw agreement 0, rater 2 one point higher on every item", () => {
    const cm = confusionFromPairs(VECTORS.K4!.r1, VECTORS.K4!.r2);
    expect(rawAgreement(cm)).toMatchObject({ numerator: 0, denominator: 8, value: 0 });
    expect(meanBias(cm)).toMatchObject({ numerator: 8, denominator: 8, value: 1 });
    const m = marginals(cm);
    expect(m.rater1).toEqual([2, 3, 3, 0]);
    expect(m.rater2).toEqual([0, 2, 3, 3]);
    expect(m.rater1Shares.map((s) => s.value)).toEqual([2 / 8, 3 / 8, 3 / 8, 0]);
  });

  it("summary bundles them with n and dropped", () => {
    const s = agreementSummary(confusionFromPairs([...VECTORS.K1!.r1, null], [...VECTORS.K1!.r2, 1]));
    expect(s.n).toBe(12);
    expect(s.dropped).toBe(1);
    expect(s.rawAgreement).toMatchObject({ numerator: 8, denominator: 12 });
    expect(Math.abs(value(s.kappa.quadratic) - 6 / 7)).toBeLessThan(EXACT);
    // K1: rater 2 is higher on items 5, 10, 11 (+1 each) and lower on item 8 (−1): bias 2/12.
    expect(Math.abs(value(s.meanBias) - 2 / 12)).toBeLessThan(EXACT);
  });
});

describe("binarizing", () => {
  it("leaves a [0, 1] matrix as it is and refuses a threshold that does not split the labels", () => {
    const b = confusionFromPairs([0, 1, 1], [0, 1, 0], [0, 1]);
    expect(binarizeConfusion(b)).toEqual(b);
    expect(binarizedKappa(b)).toEqual({ ...cohenKappa(b), variant: "binarized" });
    expect(() => binarizeConfusion(confusionFromPairs([0], [0]), 4)).toThrow(/does not split/);
  });
});
