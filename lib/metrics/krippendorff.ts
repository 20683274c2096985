// Krippendorff's α for any number of coders with missing ratings, via the coincidence matrix
// (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011):
//   o_ck = Σ_units (pairs of values c,k from different coders in the unit) / (m_u − 1)
//   α = 1 − D_o / D_e = 1 − (n − 1) · Σ o_ck·δ²_ck / Σ n_c·n_k·δ²_ck
// Units with fewer than two ratings are not pairable and drop out.

import { bootstrap, type BootstrapOptions, type ConfidenceInterval } from "./bootstrap";
import type { Estimate } from "./estimate";
import { isMissing, type Rating } from "./labels";

export type AlphaLevel = "nominal" | "ordinal" | "interval";

export type AlphaResult = Estimate & {
  readonly level: AlphaLevel;
  /** Units with ≥ 2 ratings, and the number of ratings in them (n of the coincidence matrix). */
  readonly pairableUnits: number;
  readonly pairableValues: number;
  /** D_o and D_e (α = 1 − observed / expected); absent when nothing is pairable. */
  readonly disagreement?: { readonly observed: number; readonly expected: number };
};

/** One unit per item: the ratings it got, one slot per coder (missing allowed). */
export type Units = readonly (readonly Rating[])[];

/** Coders × units (one row per coder, as the reliability data matrix is printed) → units. */
export function unitsFromCoders(coders: readonly (readonly Rating[])[]): Rating[][] {
  const width = Math.max(0, ...coders.map((c) => c.length));
  return Array.from({ length: width }, (_, u) => coders.map((c) => c[u]));
}

/** δ² between value positions c and k, given the sorted values and their frequencies n_c. */
function distance(level: AlphaLevel, values: readonly number[], freq: Float64Array): (c: number, k: number) => number {
  if (level === "nominal") return (c, k) => (c === k ? 0 : 1);
  if (level === "interval") return (c, k) => (values[c]! - values[k]!) ** 2;
  // Ordinal: ranks by cumulative frequency between the two values, half-counting the ends.
  const cumulative = new Float64Array(values.length + 1);
  freq.forEach((f, i) => (cumulative[i + 1] = cumulative[i]! + f));
  return (c, k) => {
    const lo = Math.min(c, k);
    const hi = Math.max(c, k);
    const between = cumulative[hi + 1]! - cumulative[lo]! - (freq[c]! + freq[k]!) / 2;
    return between * between;
  };
}

export function krippendorffAlpha(units: Units, level: AlphaLevel = "nominal"): AlphaResult {
  const pairable = units.map((u) => u.filter((r): r is number => !isMissing(r))).filter((u) => u.length >= 2);
  const values = [...new Set(pairable.flat())].sort((a, b) => a - b);
  const position = new Map(values.map((v, i) => [v, i]));
  const size = values.length;
  const base = { level, pairableUnits: pairable.length, pairableValues: pairable.reduce((a, u) => a + u.length, 0) };
  if (pairable.length === 0) return { ...base, undefined: true, reason: "no unit has two or more ratings" };

  const coincidence = new Float64Array(size * size);
  const unitCounts = new Float64Array(size);
  for (const unit of pairable) {
    unitCounts.fill(0);
    for (const v of unit) unitCounts[position.get(v)!]!++;
    const m = unit.length;
    for (let c = 0; c < size; c++) {
      if (unitCounts[c] === 0) continue;
      for (let k = 0; k < size; k++) {
        const pairs = unitCounts[c]! * (unitCounts[k]! - (c === k ? 1 : 0));
        if (pairs > 0) coincidence[c * size + k]! += pairs / (m - 1);
      }
    }
  }
  const freq = new Float64Array(size);
  for (let c = 0; c < size; c++) for (let k = 0; k < size; k++) freq[c]! += coincidence[c * size + k]!;
  const n = base.pairableValues;

  const delta = distance(level, values, freq);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < size; c++) {
    for (let k = 0; k < size; k++) {
      const d = delta(c, k);
      observed += coincidence[c * size + k]! * d;
      expected += freq[c]! * freq[k]! * d;
    }
  }
  const disagreement = { observed: observed / n, expected: expected / (n * (n - 1)) };
  if (expected === 0) {
    return { ...base, disagreement, undefined: true, reason: `every pairable rating is ${values[0]}: expected disagreement is 0` };
  }
  return { ...base, disagreement, value: 1 - ((n - 1) * observed) / expected };
}

/** Bootstrap CI of α, resampling units (items). */
export function krippendorffAlphaInterval(units: Units, level: AlphaLevel, options: BootstrapOptions): ConfidenceInterval {
  return bootstrap(units, (sample) => krippendorffAlpha(sample, level), options);
}
