import { describe, expect, it } from "vitest";
import { confusionFromCells } from "./confusion";
import { groundTruth, resolvedLabel } from "./ground-truth";
import { kappaVariants, type Weighting } from "./kappa";
import { meanBias, rawAgreement } from "./agreement";
import { mulberry32 } from "./rng";
import { agreementRanges, sensitivityRange, shareForm, type ConfusionTie } from "./tie-sensitivity";
import { SCORE_LABELS } from "./labels";

describe("ground truth per item", () => {
  it("adjudicated label first, then the strict majority, else a tie", () => {
    expect(groundTruth([1, 1, 2], 3)).toEqual({ kind: "adjudicated", label: 3 });
    expect(groundTruth([1, 1, 2])).toEqual({ kind: "majority", label: 1, votes: 2, of: 3 });
    expect(groundTruth([1, 2])).toEqual({ kind: "tie", tiedBetween: [1, 2], votes: 1, of: 2 });
    expect(groundTruth([3, 0, 0, 3, null])).toEqual({ kind: "tie", tiedBetween: [0, 3], votes: 2, of: 4 });
    expect(groundTruth([null])).toEqual({ kind: "none" });
    expect(groundTruth([2, 1], null)).toMatchObject({ kind: "tie" });
  });

  it("each policy resolves a tie its own way; adjudications and majorities are never touched", () => {
    const pick = (t: readonly number[]) => t[t.length - 1]!;
    const tie = groundTruth([1, 2]);
    expect(resolvedLabel(tie, "exclude", pick)).toBeUndefined();
    expect(resolvedLabel(tie, "seeded", pick)).toBe(2);
    expect(resolvedLabel(tie, "sensitivity", pick)).toBe(2);
    for (const p of ["exclude", "seeded", "sensitivity"] as const) {
      expect(resolvedLabel(groundTruth([1, 2], 0), p, pick)).toBe(0);
      expect(resolvedLabel(groundTruth([2, 2, 1]), p, pick)).toBe(2);
    }
  });
});

/** Every resolution, item by item (no grouping, no vertex argument): the reference. */
function bruteForce(size: number, fixed: number[], ties: ConfusionTie[], stat: (flat: number[]) => number | undefined) {
  const items = ties.flatMap((t) => Array.from({ length: t.count }, () => t));
  let min = Infinity;
  let max = -Infinity;
  const cells = [...fixed];
  const walk = (i: number) => {
    if (i === items.length) {
      const v = stat(cells);
      if (v !== undefined) [min, max] = [Math.min(min, v), Math.max(max, v)];
      return;
    }
    const t = items[i]!;
    for (const j of t.tied) {
      cells[t.row * size + j]!++;
      walk(i + 1);
      cells[t.row * size + j]!--;
    }
  };
  walk(0);
  return { min, max };
}

const kappaOf = (w: Weighting) => (flat: number[]) => {
  const k = kappaVariants(confusionFromCells(flat.map((count, i) => ({ rater1: Math.floor(i / 4), rater2: i % 4, count })), SCORE_LABELS))[w];
  return k.undefined ? undefined : k.value;
};

describe("sensitivity range over tie resolutions", () => {
  it("a scripted k = 2 example by hand: 3 agreeing items, 2 ties", () => {
    // Evaluator 3 & humans agree on 3 (two items), evaluator 0 & humans agree on 0 (one item);
    // tie A: evaluator 3, humans split 0 / 3; tie B: evaluator 0, humans split 0 / 3.
    const fixed = new Array(16).fill(0);
    fixed[3 * 4 + 3] = 2;
    fixed[0] = 1;
    const ties: ConfusionTie[] = [
      { row: 3, tied: [0, 3], count: 1 },
      { row: 0, tied: [0, 3], count: 1 },
    ];
    const r = agreementRanges(SCORE_LABELS, fixed, ties);
    // Raw agreement: both ties agree → 5/5; both disagree → 3/5.
    expect(r.rawAgreement).toMatchObject({ defined: true, min: 3 / 5, max: 1, ties: 2, method: "enumerated" });
    // κ categorical: all agree → 1. Worst: both disagree: O = [[1,0,0,1]…[1,0,0,2]] rows 0: (0→0:1, 0→3:1), 3: (3→3:2, 3→0:1);
    // po = 3/5, row totals (2, 0, 0, 3), column totals (2, 0, 0, 3): pe = (4 + 9)/25 = 13/25 → κ = (15/25 − 13/25)/(12/25) = 1/6.
    if (!r.categorical.defined) throw new Error("defined");
    expect(r.categorical.max).toBeCloseTo(1, 12);
    expect(r.categorical.min).toBeCloseTo(1 / 6, 12);
    expect(r.meanBias).toMatchObject({ defined: true });
  });

  it("matches brute force over every resolution on random small data (κ three weightings, raw agreement, mean bias)", () => {
    const rng = mulberry32(99);
    const int = (n: number) => Math.floor(rng() * n);
    for (let trial = 0; trial < 60; trial++) {
      const fixed = Array.from({ length: 16 }, () => (rng() < 0.4 ? int(4) : 0));
      const ties: ConfusionTie[] = Array.from({ length: 1 + int(4) }, () => {
        const a = int(4);
        let b = int(4);
        if (b === a) b = (a + 1) % 4;
        const drop = int(4);
        const tied = rng() < 0.2 ? [0, 1, 2, 3].filter((x) => x !== drop) : [Math.min(a, b), Math.max(a, b)];
        return { row: int(4), tied, count: 1 + int(3) };
      });
      const r = agreementRanges(SCORE_LABELS, fixed, ties);
      for (const w of ["categorical", "linear", "quadratic"] as const) {
        const ref = bruteForce(4, fixed, ties, kappaOf(w));
        const got = r[w];
        if (ref.min === Infinity) {
          expect(got.defined).toBe(false);
          continue;
        }
        if (!got.defined) throw new Error(`trial ${trial} ${w}: ${got.reason}`);
        expect(got.min).toBeCloseTo(ref.min, 10);
        expect(got.max).toBeCloseTo(ref.max, 10);
      }
      const cm = (flat: number[]) => confusionFromCells(flat.map((count, i) => ({ rater1: Math.floor(i / 4), rater2: i % 4, count })), SCORE_LABELS);
      const raw = bruteForce(4, fixed, ties, (f) => rawAgreement(cm(f)).value);
      const bias = bruteForce(4, fixed, ties, (f) => meanBias(cm(f)).value);
      if (!r.rawAgreement.defined || !r.meanBias.defined) throw new Error("defined");
      expect(r.rawAgreement.min).toBeCloseTo(raw.min, 12);
      expect(r.rawAgreement.max).toBeCloseTo(raw.max, 12);
      expect(r.meanBias.min).toBeCloseTo(bias.min, 12);
      expect(r.meanBias.max).toBeCloseTo(bias.max, 12);
    }
  });

  it("Dinkelbach's search finds the same extremes as enumeration (forced with a vertex limit of 1)", () => {
    const rng = mulberry32(7);
    for (let trial = 0; trial < 40; trial++) {
      const base = Array.from({ length: 4 }, () => Math.floor(rng() * 6));
      const groups = Array.from({ length: 1 + Math.floor(rng() * 6) }, () => {
        const row = rng() < 0.5 ? 0 : 2; // identified → cells {0, 1}; not identified → {2, 3}
        return { count: 1 + Math.floor(rng() * 5), cells: [row, row + 1] };
      });
      const precision = shareForm(4, [0], [0, 1]);
      const incidence = shareForm(4, [0], [0, 2]);
      for (const form of [precision, incidence]) {
        const exact = sensitivityRange(base, groups, form);
        const searched = sensitivityRange(base, groups, form, { vertexLimit: 1 });
        if (!exact.defined || exact.partial) continue; // a denominator that can be 0: enumeration only (tested below)
        if (!searched.defined) throw new Error("defined");
        expect(searched.method).toBe("dinkelbach");
        expect(searched.min).toBeCloseTo(exact.min, 12);
        expect(searched.max).toBeCloseTo(exact.max, 12);
      }
    }
  });

  it("thousands of ties: Dinkelbach's search; its extremes agree with a coarser enumeration bound", () => {
    // Every row × every pair of labels: 24 groups of two-way ties (2²⁴ vertices) on a 4×4 matrix.
    const fixed = new Array(16).fill(5);
    const pairs = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];
    const ties: ConfusionTie[] = [0, 1, 2, 3].flatMap((row) => pairs.map((tied, i) => ({ row, tied, count: 50 + 7 * row + i })));
    const r = agreementRanges(SCORE_LABELS, fixed, ties);
    if (!r.quadratic.defined) throw new Error("defined");
    expect(r.quadratic.method).toBe("dinkelbach");
    expect(r.quadratic.min).toBeLessThan(r.quadratic.max);
    expect(r.quadratic.ties).toBe(ties.reduce((a, t) => a + t.count, 0));
    // Each extreme is attained by a vertex: enumeration over a limit large enough agrees.
    const enumerated = agreementRanges(SCORE_LABELS, fixed, ties.slice(0, 12));
    const searched = sensitivityRange(
      fixed,
      ties.slice(0, 12).map((t) => ({ count: t.count, cells: t.tied.map((j) => t.row * 4 + j) })),
      { num: new Float64Array(16).map((_, k) => (Math.floor(k / 4) === k % 4 ? 1 : 0)), den: new Float64Array(16).fill(1) },
      { vertexLimit: 1 },
    );
    if (!enumerated.rawAgreement.defined || !searched.defined) throw new Error("defined");
    expect(searched.min).toBeCloseTo(enumerated.rawAgreement.min, 12);
    expect(searched.max).toBeCloseTo(enumerated.rawAgreement.max, 12);
  });

  it("a denominator that some resolutions make 0 (no true failure left): range over the others, marked partial", () => {
    // Incidence |T∩I| / |T|: T only from ties.
    const r = sensitivityRange([0, 2, 0, 3], [{ count: 1, cells: [0, 1] }, { count: 1, cells: [2, 3] }], shareForm(4, [0], [0, 2]));
    expect(r).toMatchObject({ defined: true, partial: true, min: 0, max: 1 });
  });
});
