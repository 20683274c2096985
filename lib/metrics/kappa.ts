// Cohen's κ exactly as docs/method.md (Cohen's κ) defines it:
//   κ = 1 − Σ w_ij·O_ij / Σ w_ij·E_ij,  E = outer(row sums, column sums) / n,
//   w = [i≠j] (categorical), |i−j| (linear), (i−j)² (quadratic),
// over the FULL label set of the confusion matrix (a category nobody used still counts: inferring
// the labels from the data changes weighted κ). κ is undefined when Σ w·E = 0.
//
// Computed as (Σ w·r_i·c_j − n·Σ w·O) / Σ w·r_i·c_j: every sum is over integer counts, so it is
// exact, and a single division keeps e.g. K3a at exactly 0.

import { binarizeConfusion, flattenCounts, type ConfusionMatrix } from "./confusion";
import type { Estimate } from "./estimate";
import { BINARY_THRESHOLD } from "./labels";

export type Weighting = "categorical" | "linear" | "quadratic";
export const WEIGHTINGS: readonly Weighting[] = ["categorical", "linear", "quadratic"];

/** The three weightings on the 0..3 scale, plus (categorical) κ on the binarized scale. */
export type KappaVariant = Weighting | "binarized";
export const KAPPA_VARIANTS: readonly KappaVariant[] = ["categorical", "linear", "quadratic", "binarized"];

export type KappaResult = Estimate & {
  readonly variant: KappaVariant;
  readonly n: number;
  /** Σw·O/n and Σw·E/n, so κ = 1 − observed/expected; absent when there are no items. */
  readonly disagreement?: { readonly observed: number; readonly expected: number };
};

/** Disagreement weights by label position, row-major size×size. */
export function disagreementWeights(size: number, weighting: Weighting): Float64Array {
  const w = new Float64Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      const d = Math.abs(i - j);
      w[i * size + j] = weighting === "categorical" ? (d === 0 ? 0 : 1) : weighting === "linear" ? d : d * d;
    }
  }
  return w;
}

/** The sums κ is made of. `expected` is n·Σw·E (= Σ w·r_i·c_j), kept unscaled to stay exact. */
interface KappaSums {
  n: number;
  observed: number; // Σ w·O
  expected: number; // Σ w·r_i·c_j
}

/**
 * A κ evaluator for flat size×size counts that allocates nothing per call — the bootstrap calls
 * it once per resample.
 */
export function kappaEvaluator(size: number, weighting: Weighting): (flat: ArrayLike<number>) => number | undefined {
  const sums = kappaSums(size, weighting);
  return (flat) => {
    const s = sums(flat);
    return s.n === 0 || s.expected === 0 ? undefined : (s.expected - s.n * s.observed) / s.expected;
  };
}

function kappaSums(size: number, weighting: Weighting): (flat: ArrayLike<number>) => KappaSums {
  const w = disagreementWeights(size, weighting);
  const rows = new Float64Array(size);
  const cols = new Float64Array(size);
  const out: KappaSums = { n: 0, observed: 0, expected: 0 };
  return (flat) => {
    rows.fill(0);
    cols.fill(0);
    let n = 0;
    let observed = 0;
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        const c = flat[i * size + j]!;
        rows[i]! += c;
        cols[j]! += c;
        n += c;
        observed += w[i * size + j]! * c;
      }
    }
    let expected = 0;
    for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) expected += w[i * size + j]! * rows[i]! * cols[j]!;
    out.n = n;
    out.observed = observed;
    out.expected = expected;
    return out;
  };
}

function singleLabel(cm: ConfusionMatrix): number | undefined {
  const used = cm.labels.filter((_, i) => cm.counts[i]!.some((c) => c > 0) || cm.counts.some((row) => row[i]! > 0));
  return used.length === 1 ? used[0] : undefined;
}

function result(cm: ConfusionMatrix, weighting: Weighting, variant: KappaVariant): KappaResult {
  const size = cm.labels.length;
  const { n, observed, expected } = kappaSums(size, weighting)(flattenCounts(cm));
  if (n === 0) return { variant, n, undefined: true, reason: "no item has a label from both raters" };
  const disagreement = { observed: observed / n, expected: expected / (n * n) };
  if (expected === 0) {
    // Said in the words the pages show after "κ undefined — " (components/dashboards/undefined-value.tsx).
    const only = singleLabel(cm);
    return {
      variant,
      n,
      disagreement,
      undefined: true,
      reason: only === undefined ? "chance disagreement is 0 (no variation)" : `every label is ${only} (no variation)`,
    };
  }
  return { variant, n, disagreement, value: (expected - n * observed) / expected };
}

/** Cohen's κ on the matrix's own (full) label set. */
export function cohenKappa(cm: ConfusionMatrix, weighting: Weighting = "categorical"): KappaResult {
  return result(cm, weighting, weighting);
}

/**
 * κ on the binarized scale (label ≥ threshold → 1; a matrix already on [0, 1] is used as is).
 * All weightings coincide on two labels.
 */
export function binarizedKappa(cm: ConfusionMatrix, threshold = BINARY_THRESHOLD): KappaResult {
  return result(binarizeConfusion(cm, threshold), "categorical", "binarized");
}

export function kappaOf(cm: ConfusionMatrix, variant: KappaVariant, threshold = BINARY_THRESHOLD): KappaResult {
  return variant === "binarized" ? binarizedKappa(cm, threshold) : cohenKappa(cm, variant);
}

/** All four variants at once — what the agreement table shows per row. */
export function kappaVariants(cm: ConfusionMatrix, threshold = BINARY_THRESHOLD): Record<KappaVariant, KappaResult> {
  return {
    categorical: cohenKappa(cm, "categorical"),
    linear: cohenKappa(cm, "linear"),
    quadratic: cohenKappa(cm, "quadratic"),
    binarized: binarizedKappa(cm, threshold),
  };
}
