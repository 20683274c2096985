// Pure statistics behind the human-agreement panels that lib/metrics offers only over item lists,
// recomputed here from GROUPED counts so the database can do the counting (./human-vs-human.ts):
//
//   looFromPatterns(patterns, annotators, variant)      leave-one-out κ (each annotator vs the
//   looIntervals(patterns, annotators, variants, opts)  majority of the others), per annotator and
//                                                       averaged, + a bootstrap CI over items
//   alphaFromPatterns(patterns, level)                  Krippendorff's α (coincidence matrix)
//   alphaInterval(patterns, level, options)             + a bootstrap CI over items
//
// A "pattern" stands for all items that look alike: for leave-one-out, the same list of
// (annotator, own label, majority of the others) triples; for α, the same number of ratings per
// label. Items with the same pattern contribute identically to the statistic, so resampling n items
// with replacement is a Multinomial(n, pattern shares) draw of pattern counts — lib/metrics'
// `bootstrapCountsMany`, O(resamples × patterns) whatever the number of items. The point estimates
// equal lib/metrics' `leaveOneOutKappa` / `krippendorffAlpha` on the expanded items (stats.test.ts).
import {
  BINARY_LABELS,
  SCORE_LABELS,
  bootstrapCountsMany,
  confusionFromCounts,
  defined,
  kappaEvaluator,
  kappaOf,
  undefinedBecause,
  type AlphaLevel,
  type AlphaResult,
  type BootstrapOptions,
  type ConfidenceInterval,
  type ConfusionMatrix,
  type Estimate,
  type KappaResult,
  type KappaVariant,
} from "@/lib/metrics";

/** The label set a κ variant is computed on: 0..3, or [0, 1] for "binarized" (binarize, then vote). */
function labelsFor(variant: KappaVariant): readonly number[] {
  return variant === "binarized" ? BINARY_LABELS : SCORE_LABELS;
}

// ---------------------------------------------------------------------------------------------
// Leave-one-out κ

export interface LooEntry {
  /** Index into the annotator list. */
  readonly annotator: number;
  /** The annotator's own label (on the variant's scale). */
  readonly own: number;
  /** The majority label of the OTHER annotators of the item (after the seeded tie-break). */
  readonly majority: number;
}

export interface LooPattern {
  readonly entries: readonly LooEntry[];
  /** How many items have exactly this pattern. */
  readonly items: number;
}

export interface LooAnnotator {
  readonly annotator: number;
  /** Rows: this annotator; columns: the majority of the others, over the items they labelled. */
  readonly confusion: ConfusionMatrix;
  readonly kappa: KappaResult;
}

export interface LooResult {
  readonly variant: KappaVariant;
  readonly perAnnotator: readonly LooAnnotator[];
  /** Mean of the defined per-annotator κ; `annotators` counts them, `excluded` lists the others. */
  readonly mean: Estimate & { readonly annotators: number; readonly excluded: readonly number[] };
  /** Items with at least one (annotator, others' majority) pair. */
  readonly items: number;
  /** (annotator, item) pairs compared. */
  readonly pairs: number;
}

function labelIndex(labels: readonly number[], label: number): number {
  const i = labels.indexOf(label);
  if (i < 0) throw new RangeError(`label ${label} is not in the label set [${labels.join(", ")}]`);
  return i;
}

/**
 * The flat cell index (annotator·size² + own·size + majority) of every entry, pattern after
 * pattern: pattern k's are cells[start[k]] up to cells[start[k + 1]]. One array, walked once per
 * resample by looIntervals.
 */
interface CompiledPatterns {
  readonly start: Int32Array;
  readonly cells: Int32Array;
}

function compile(patterns: readonly LooPattern[], annotators: number, labels: readonly number[]): CompiledPatterns {
  const size = labels.length;
  const start = new Int32Array(patterns.length + 1);
  patterns.forEach((p, k) => (start[k + 1] = start[k]! + p.entries.length));
  const cells = new Int32Array(start[patterns.length]!);
  let i = 0;
  for (const p of patterns) {
    for (const e of p.entries) {
      if (!Number.isInteger(e.annotator) || e.annotator < 0 || e.annotator >= annotators) throw new RangeError(`annotator index ${e.annotator} out of range`);
      cells[i++] = e.annotator * size * size + labelIndex(labels, e.own) * size + labelIndex(labels, e.majority);
    }
  }
  return { start, cells };
}

/** flat[cell] += weights[k] for every entry of every pattern k, in pattern order. */
function accumulate({ start, cells }: CompiledPatterns, weights: ArrayLike<number>, flat: Float64Array): void {
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    if (w === 0) continue;
    for (let i = start[k]!, end = start[k + 1]!; i < end; i++) flat[cells[i]!]! += w;
  }
}

function meanOf(values: number[]): Estimate {
  return values.length === 0
    ? undefinedBecause("no annotator has a defined κ against the majority of the others")
    : defined(values.reduce((a, b) => a + b, 0) / values.length);
}

export function looFromPatterns(patterns: readonly LooPattern[], annotators: number, variant: KappaVariant): LooResult {
  const labels = labelsFor(variant);
  const size = labels.length;
  const flat = new Float64Array(annotators * size * size);
  accumulate(compile(patterns, annotators, labels), patterns.map((p) => p.items), flat);
  let items = 0;
  let pairs = 0;
  for (const p of patterns) {
    items += p.items;
    pairs += p.items * p.entries.length;
  }
  const perAnnotator = Array.from({ length: annotators }, (_, a): LooAnnotator => {
    const counts = labels.map((_, i) => labels.map((_, j) => flat[a * size * size + i * size + j]!));
    const confusion = confusionFromCounts(counts, labels);
    return { annotator: a, confusion, kappa: kappaOf(confusion, variant) };
  }).filter((e) => e.confusion.n > 0);
  const values = perAnnotator.flatMap((e) => (e.kappa.undefined ? [] : [e.kappa.value]));
  const excluded = perAnnotator.filter((e) => e.kappa.undefined).map((e) => e.annotator);
  return { variant, perAnnotator, mean: { ...meanOf(values), annotators: values.length, excluded }, items, pairs };
}

/**
 * Bootstrap CIs of the mean leave-one-out κ, resampling items (as patterns), of several variants on the SAME resamples (categorical, linear and quadratic share their
 * patterns): one multinomial draw per resample serves all of them. All variants must share a
 * label set (the 0..3 ones, or "binarized" alone).
 */
export function looIntervals(
  patterns: readonly LooPattern[],
  annotators: number,
  variants: readonly KappaVariant[],
  options: BootstrapOptions,
): Partial<Record<KappaVariant, ConfidenceInterval>> {
  const labels = labelsFor(variants[0]!);
  if (variants.some((v) => labelsFor(v) !== labels)) throw new RangeError("variants on different label sets need separate patterns");
  const size = labels.length;
  const compiled = compile(patterns, annotators, labels);
  const flat = new Float64Array(annotators * size * size);
  const perAnnotator = Array.from({ length: annotators }, (_, a) => flat.subarray(a * size * size, (a + 1) * size * size));
  // bootstrapCountsMany calls every statistic once per resample, in key order, on a reused
  // buffer: the first call of each round accumulates the per-annotator matrices for all of them.
  let calls = 0;
  const fill = (resampled: Float64Array) => {
    if (calls++ % variants.length !== 0) return;
    flat.fill(0);
    accumulate(compiled, resampled, flat);
  };
  const statistic = (variant: KappaVariant) => {
    const kappa = kappaEvaluator(size, variant === "binarized" ? "categorical" : variant);
    return (resampled: Float64Array) => {
      fill(resampled);
      let sum = 0;
      let count = 0;
      for (const matrix of perAnnotator) {
        const v = kappa(matrix);
        if (v !== undefined) {
          sum += v;
          count++;
        }
      }
      return count === 0 ? undefined : sum / count;
    };
  };
  return bootstrapCountsMany(
    patterns.map((p) => p.items),
    Object.fromEntries(variants.map((v) => [v, statistic(v)])) as Record<KappaVariant, (r: Float64Array) => number | undefined>,
    options,
  );
}

// ---------------------------------------------------------------------------------------------
// Krippendorff's α from per-item value counts

export interface UnitPattern {
  /** counts[i] = ratings of labels[i] in the unit (item). */
  readonly counts: readonly number[];
  /** How many units have exactly these counts. */
  readonly units: number;
}

/**
 * α = 1 − (n − 1) · Σ o_ck·δ²_ck / Σ n_c·n_k·δ²_ck over the coincidence matrix
 * o_ck = Σ_units n_c·(n_k − [c = k]) / (m_u − 1) (units with m_u ≥ 2 ratings only) — exactly
 * lib/metrics' `krippendorffAlpha`, with each pattern weighted by its number of units.
 */
export function alphaFromPatterns(patterns: readonly UnitPattern[], level: AlphaLevel, labels: readonly number[] = SCORE_LABELS): AlphaResult {
  return alphaOf(patterns.map((p) => p.counts), patterns.map((p) => p.units), level, labels);
}

function alphaOf(counts: readonly (readonly number[])[], weights: ArrayLike<number>, level: AlphaLevel, labels: readonly number[]): AlphaResult {
  const size = labels.length;
  const coincidence = new Float64Array(size * size);
  let pairableUnits = 0;
  let pairableValues = 0;
  counts.forEach((c, u) => {
    if (c.length !== size) throw new RangeError(`expected ${size} counts per unit, got ${c.length}`);
    const w = weights[u]!;
    const m = c.reduce((a, b) => a + b, 0);
    if (m < 2 || w === 0) return;
    pairableUnits += w;
    pairableValues += w * m;
    for (let i = 0; i < size; i++) {
      if (c[i] === 0) continue;
      for (let j = 0; j < size; j++) {
        const pairs = c[i]! * (c[j]! - (i === j ? 1 : 0));
        if (pairs > 0) coincidence[i * size + j]! += (w * pairs) / (m - 1);
      }
    }
  });
  const base = { level, pairableUnits, pairableValues };
  if (pairableUnits === 0) return { ...base, undefined: true, reason: "no unit has two or more ratings" };
  const freq = new Float64Array(size);
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) freq[i]! += coincidence[i * size + j]!;
  const cumulative = new Float64Array(size + 1);
  freq.forEach((f, i) => (cumulative[i + 1] = cumulative[i]! + f));
  const delta = (i: number, j: number): number => {
    if (level === "nominal") return i === j ? 0 : 1;
    if (level === "interval") return (labels[i]! - labels[j]!) ** 2;
    const lo = Math.min(i, j);
    const hi = Math.max(i, j);
    const between = cumulative[hi + 1]! - cumulative[lo]! - (freq[i]! + freq[j]!) / 2;
    return between * between;
  };
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      const d = delta(i, j);
      observed += coincidence[i * size + j]! * d;
      expected += freq[i]! * freq[j]! * d;
    }
  }
  const n = pairableValues;
  const disagreement = { observed: observed / n, expected: expected / (n * (n - 1)) };
  if (expected === 0) {
    const only = labels.find((_, i) => freq[i]! > 0);
    return { ...base, disagreement, undefined: true, reason: `every pairable rating is ${only}: expected disagreement is 0` };
  }
  return { ...base, disagreement, value: 1 - ((n - 1) * observed) / expected };
}

/** Bootstrap CI of α, resampling items (as patterns; items with < 2 ratings are resampled too). */
export function alphaInterval(patterns: readonly UnitPattern[], level: AlphaLevel, options: BootstrapOptions, labels: readonly number[] = SCORE_LABELS): ConfidenceInterval {
  const counts = patterns.map((p) => p.counts);
  return bootstrapCountsMany(
    patterns.map((p) => p.units),
    { value: (resampled) => alphaOf(counts, resampled, level, labels) },
    options,
  ).value;
}
