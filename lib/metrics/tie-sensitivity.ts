// The exact range of a metric over every way of resolving the ground-truth ties (tie policy
// "sensitivity", see ./ground-truth.ts).
//
// The data are cell counts (a confusion matrix, the four failure cells, three severities): items
// without a tie sit in fixed cells; each tied item goes to one of a few cells, one per label it is
// tied between. Tied items that sit in the same row and tie between the same labels are
// interchangeable, so they form a GROUP (count g, candidate cells c₁…c_m).
//
// Every metric on the dashboards is a RATIO OF TWO LINEAR FUNCTIONS of the cell counts once the
// quantities that ties cannot move are fixed (the evaluator's row totals, n):
//   shares (precision, incidences, raw agreement, emulator quality)  k / n'
//   weighted κ = (De − Do) / De with Do = Σ w_ij·O_ij and De = Σ_ij O_ij·A_j / n, A_j = Σ_i w_ij·r_i
//   (r_i the row totals, fixed because only the human side ties).
// A linear-fractional function is quasi-linear: over a polytope on which its denominator is
// positive, its minimum and maximum are attained at vertices. The relaxation of the resolutions
// is a product of simplices whose vertices — "every item of a group gets the same label" — are
// themselves resolutions. So the extremes over ALL resolutions are the extremes over those
// vertex resolutions, which we search exactly:
//   * by enumerating them when there are at most VERTEX_LIMIT (always the case up to 16 ties of
//     two labels), else
//   * by Dinkelbach's method (maximise N − λ·D, separable per group, then λ ← N/D until no group
//     can improve), which ends at an optimal vertex after a few rounds.
// Either way the min and max returned are values of real resolutions, and `ties` / `groups` say
// how many ties there were. Where some resolution leaves the denominator at 0 (e.g. "no true
// failure left"), the metric is undefined there; the range is then taken over the vertex
// resolutions where it is defined, by enumeration only — and said so (`partial`), or reported as
// not computed. That is still exact for the dashboards' metrics (their numerator is 0 wherever the
// denominator is, so a split resolution is a weighted mean of defined vertices), not for any form.

import { WEIGHTINGS, disagreementWeights, type Weighting } from "./kappa";

export interface TieGroup {
  /** How many interchangeable tied items. */
  readonly count: number;
  /** The cell each candidate label puts them in (indexes into the cell vector). */
  readonly cells: readonly number[];
}

/** (num · cells + numConst) / (den · cells + denConst). */
export interface LinearFractional {
  readonly num: ArrayLike<number>;
  readonly numConst?: number;
  readonly den: ArrayLike<number>;
  readonly denConst?: number;
}

export type SensitivityRange =
  | {
      readonly defined: true;
      readonly min: number;
      readonly max: number;
      readonly ties: number;
      readonly groups: number;
      /** "enumerated": every vertex resolution evaluated; "dinkelbach": optimal vertices searched. */
      readonly method: "enumerated" | "dinkelbach" | "none";
      /** Some resolutions leave the metric undefined; the range is over the others. */
      readonly partial: boolean;
    }
  | { readonly defined: false; readonly reason: string; readonly ties: number; readonly groups: number };

/** 4⁸ = 2¹⁶ vertex resolutions are cheap to walk (well under a millisecond per metric). */
const VERTEX_LIMIT = 65_536;

/** Merges groups that tie between the same cells (the same row and the same tied labels). */
function mergeGroups(groups: readonly TieGroup[]): TieGroup[] {
  const byKey = new Map<string, { count: number; cells: readonly number[] }>();
  for (const g of groups) {
    if (g.count <= 0) continue;
    const key = g.cells.join(",");
    const seen = byKey.get(key);
    byKey.set(key, { count: (seen?.count ?? 0) + g.count, cells: g.cells });
  }
  return [...byKey.values()];
}

function dot(w: ArrayLike<number>, cells: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < cells.length; k++) s += (w[k] ?? 0) * cells[k]!;
  return s;
}

/**
 * Exact min and max of `metric` over every resolution of the tie groups, given the fixed cells.
 * `metric` sees the fixed quantities only through `base` (it is built by the caller for the totals
 * that ties cannot change).
 */
export function sensitivityRange(base: ArrayLike<number>, rawGroups: readonly TieGroup[], metric: LinearFractional, opts: { vertexLimit?: number } = {}): SensitivityRange {
  const groups = mergeGroups(rawGroups);
  const ties = groups.reduce((a, g) => a + g.count, 0);
  const limit = opts.vertexLimit ?? VERTEX_LIMIT;
  const N0 = dot(metric.num, base) + (metric.numConst ?? 0);
  const D0 = dot(metric.den, base) + (metric.denConst ?? 0);
  const nOf = (g: TieGroup, c: number) => g.count * (metric.num[g.cells[c]!] ?? 0);
  const dOf = (g: TieGroup, c: number) => g.count * (metric.den[g.cells[c]!] ?? 0);
  if (groups.length === 0) {
    if (D0 <= 0) return { defined: false, reason: "the metric is undefined on these data", ties, groups: 0 };
    const v = N0 / D0;
    return { defined: true, min: v, max: v, ties, groups: 0, method: "none", partial: false };
  }
  // The smallest denominator any resolution can give (separable: each group its smallest).
  const dMin = groups.reduce((a, g) => a + Math.min(...g.cells.map((_, c) => dOf(g, c))), D0);
  let vertices = 1;
  for (const g of groups) {
    vertices *= g.cells.length;
    if (vertices > limit) break;
  }
  if (dMin > 0 && vertices > limit) return dinkelbach(groups, N0, D0, nOf, dOf, ties);
  if (vertices > limit) {
    return { defined: false, reason: `the metric is undefined under some resolutions of the ${ties} ties, and there are too many to list`, ties, groups: groups.length };
  }
  return enumerate(groups, N0, D0, nOf, dOf, ties);
}

type Term = (g: TieGroup, c: number) => number;

function enumerate(groups: TieGroup[], N0: number, D0: number, nOf: Term, dOf: Term, ties: number): SensitivityRange {
  let min = Infinity;
  let max = -Infinity;
  let skipped = 0;
  const walk = (i: number, N: number, D: number) => {
    if (i === groups.length) {
      if (D <= 0) {
        skipped++;
        return;
      }
      const v = N / D;
      if (v < min) min = v;
      if (v > max) max = v;
      return;
    }
    const g = groups[i]!;
    for (let c = 0; c < g.cells.length; c++) walk(i + 1, N + nOf(g, c), D + dOf(g, c));
  };
  walk(0, N0, D0);
  if (min === Infinity) return { defined: false, reason: "the metric is undefined under every resolution of the ties", ties, groups: groups.length };
  return { defined: true, min, max, ties, groups: groups.length, method: "enumerated", partial: skipped > 0 };
}

function dinkelbach(groups: TieGroup[], N0: number, D0: number, nOf: Term, dOf: Term, ties: number): SensitivityRange {
  // Maximise sign·N/D: each round picks, per group, the label maximising sign·n − λ·d.
  const extreme = (sign: 1 | -1): number => {
    let choice = groups.map(() => 0);
    const value = (ch: number[]) => {
      let N = N0;
      let D = D0;
      ch.forEach((c, i) => {
        N += nOf(groups[i]!, c);
        D += dOf(groups[i]!, c);
      });
      return { N, D };
    };
    let { N, D } = value(choice);
    let lambda = (sign * N) / D;
    for (let round = 0; round < 200; round++) {
      const next = groups.map((g, i) => {
        let best = choice[i]!;
        let bestScore = sign * nOf(g, best) - lambda * dOf(g, best);
        for (let c = 0; c < g.cells.length; c++) {
          const s = sign * nOf(g, c) - lambda * dOf(g, c);
          if (s > bestScore + 1e-12 * Math.max(1, Math.abs(s))) [best, bestScore] = [c, s];
        }
        return best;
      });
      const v = value(next);
      const nextLambda = (sign * v.N) / v.D;
      if (nextLambda <= lambda + 1e-15 * Math.max(1, Math.abs(lambda))) break;
      [choice, N, D, lambda] = [next, v.N, v.D, nextLambda];
    }
    return N / D;
  };
  return { defined: true, min: extreme(-1), max: extreme(1), ties, groups: groups.length, method: "dinkelbach", partial: false };
}

// ---------------------------------------------------------------------------------------------
// The dashboards' metrics as linear-fractional forms over their cells.

/** k / n where k counts the cells in `hits` and n all cells (or the cells in `of`). */
export function shareForm(size: number, hits: readonly number[], of?: readonly number[]): LinearFractional {
  const num = new Float64Array(size);
  const den = new Float64Array(size);
  for (const k of hits) num[k] = 1;
  for (const k of of ?? Array.from({ length: size }, (_, i) => i)) den[k] = 1;
  return { num, den };
}

/**
 * Weighted κ of a size×size matrix (rows: the evaluator, whose totals ties cannot change; columns:
 * the ground truth) as (De − Do) / De. `rowTotals` and `n` are those of the full data (fixed items
 * and tied items), `weights` the disagreement weights (lib/metrics/kappa.ts disagreementWeights).
 */
function kappaForm(size: number, weights: ArrayLike<number>, rowTotals: readonly number[], n: number): LinearFractional {
  const num = new Float64Array(size * size);
  const den = new Float64Array(size * size);
  for (let j = 0; j < size; j++) {
    let a = 0;
    for (let i = 0; i < size; i++) a += weights[i * size + j]! * rowTotals[i]!;
    for (let i = 0; i < size; i++) {
      den[i * size + j] = a / n;
      num[i * size + j] = a / n - weights[i * size + j]!;
    }
  }
  return { num, den };
}

/** Mean of (column label − row label) over a size×size matrix of n items. */
function meanDifferenceForm(labels: readonly number[], n: number): LinearFractional {
  const size = labels.length;
  const num = new Float64Array(size * size);
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) num[i * size + j] = labels[j]! - labels[i]!;
  return { num, den: new Float64Array(size * size), denConst: n };
}

/** Tied items of a confusion matrix: their row (the evaluator's label index) and the label indexes they tie between. */
export interface ConfusionTie {
  readonly row: number;
  readonly tied: readonly number[];
  readonly count: number;
}

export type AgreementRanges = Record<Weighting | "rawAgreement" | "meanBias", SensitivityRange>;

/**
 * Ranges of the agreement statistics of one size×size block (κ categorical / linear / quadratic,
 * raw agreement, mean bias) over every resolution of its ties. For a 2×2 block (binarized) the
 * categorical κ is the binarized κ.
 */
export function agreementRanges(labels: readonly number[], fixed: ArrayLike<number>, ties: readonly ConfusionTie[]): AgreementRanges {
  const size = labels.length;
  const rowTotals = labels.map((_, i) => {
    let r = 0;
    for (let j = 0; j < size; j++) r += fixed[i * size + j]!;
    return r;
  });
  let n = rowTotals.reduce((a, b) => a + b, 0);
  for (const t of ties) {
    rowTotals[t.row]! += t.count;
    n += t.count;
  }
  const groups: TieGroup[] = ties.map((t) => ({ count: t.count, cells: t.tied.map((j) => t.row * size + j) }));
  const undefinedRange = (reason: string): SensitivityRange => ({ defined: false, reason, ties: 0, groups: 0 });
  if (n === 0) {
    const none = undefinedRange("no items");
    return { categorical: none, linear: none, quadratic: none, rawAgreement: none, meanBias: none };
  }
  const diagonal = labels.map((_, i) => i * size + i);
  const out = {
    rawAgreement: sensitivityRange(fixed, groups, shareForm(size * size, diagonal)),
    meanBias: sensitivityRange(fixed, groups, meanDifferenceForm(labels, n)),
  } as AgreementRanges;
  for (const w of WEIGHTINGS) out[w] = sensitivityRange(fixed, groups, kappaForm(size, disagreementWeights(size, w), rowTotals, n));
  return out;
}
