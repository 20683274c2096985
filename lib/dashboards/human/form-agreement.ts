// Agreement between annotators on ANY field of a campaign's label form (issue 18 item 6): ordinal
// fields get κ categorical / linear / quadratic and Krippendorff's α ordinal and interval;
// categorical ones κ and α nominal. Pure (the loader is ./form-agreement-query.ts).
//
// κ here is pooled over annotator pairs: every two labels of the same unit by two different
// people add one pair to a confusion matrix, in both orders, so chance agreement comes from the
// pooled distribution of labels (Scott's π / Fleiss' κ style, weighted as Cohen's). With a
// different set of annotators on each item there is no fixed "rater 1", which per-pair Cohen's κ
// would need. CIs: percentile bootstrap over items (an item's steps stay together).
import {
  bootstrapMany,
  confusionFromCounts,
  cohenKappa,
  kappaEvaluator,
  krippendorffAlpha,
  type AlphaLevel,
  type AlphaResult,
  type KappaResult,
  type PercentileInterval,
  type Rating,
  type Weighting,
} from "@/lib/metrics";
import type { LabelValues } from "@/lib/trajectory/label-schema";
import type { FieldScale, MeasuredField } from "./field-codes";

export interface FieldLabel {
  item: string;
  annotator: string;
  values: LabelValues;
}

export interface FieldAgreement {
  id: string;
  label: string;
  kind: MeasuredField["kind"];
  scale: FieldScale;
  perStep: boolean;
  /** Items with ≥ 2 labels answering the field; units (items, or (item, step)) with ≥ 2 answers; label pairs counted. */
  n: { items: number; units: number; pairs: number };
  /** Share of label pairs that agree exactly. */
  observedAgreement: number | null;
  kappa: Partial<Record<Weighting, { result: KappaResult; interval: PercentileInterval }>>;
  alpha: Partial<Record<AlphaLevel, { result: AlphaResult; interval: PercentileInterval }>>;
}

interface ItemUnits {
  /** Per unit of this item, the codes given (one per annotator who answered). */
  units: number[][];
  /** Symmetric pair counts, row-major codes × codes. */
  pairs: Float64Array;
}

function itemUnits(f: MeasuredField, labels: readonly FieldLabel[]): ItemUnits[] {
  const size = f.codes.length;
  const pos = new Map(f.codes.map((c, i) => [c, i]));
  const byItem = new Map<string, Map<string, (number | null)[]>>();
  for (const l of labels) {
    const codes = f.code(l.values[f.fieldKey]);
    if (!codes.some((c) => c !== null)) continue;
    (byItem.get(l.item) ?? byItem.set(l.item, new Map()).get(l.item)!).set(l.annotator, codes);
  }
  const out: ItemUnits[] = [];
  for (const [, anns] of [...byItem].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (anns.size < 2) continue;
    const width = Math.max(...[...anns.values()].map((c) => c.length));
    const units: number[][] = [];
    const pairs = new Float64Array(size * size);
    for (let u = 0; u < width; u++) {
      const given = [...anns.values()].map((c) => c[u]).filter((c): c is number => c !== null && c !== undefined && pos.has(c));
      if (given.length < 2) continue;
      units.push(given);
      for (let i = 0; i < given.length; i++)
        for (let j = i + 1; j < given.length; j++) {
          const a = pos.get(given[i]!)!;
          const b = pos.get(given[j]!)!;
          pairs[a * size + b]! += 1;
          pairs[b * size + a]! += 1;
        }
    }
    if (units.length) out.push({ units, pairs });
  }
  return out;
}

const KAPPAS: Record<FieldScale, Weighting[]> = { ordinal: ["categorical", "linear", "quadratic"], categorical: ["categorical"] };
const ALPHAS: Record<FieldScale, AlphaLevel[]> = { ordinal: ["ordinal", "interval"], categorical: ["nominal"] };

function sumPairs(items: readonly ItemUnits[], size: number): Float64Array {
  const flat = new Float64Array(size * size);
  for (const it of items) for (let i = 0; i < flat.length; i++) flat[i]! += it.pairs[i]!;
  return flat;
}

/** Agreement on one measured field over the submitted labels of a campaign. */
export function fieldAgreement(f: MeasuredField, labels: readonly FieldLabel[], opts: { seed: number; resamples?: number }): FieldAgreement {
  const size = f.codes.length;
  const items = itemUnits(f, labels);
  const flat = sumPairs(items, size);
  const total = flat.reduce((a, b) => a + b, 0);
  let diag = 0;
  for (let i = 0; i < size; i++) diag += flat[i * size + i]!;
  const units = items.flatMap((it) => it.units);
  const matrix = (x: Float64Array) => Array.from({ length: size }, (_, i) => Array.from(x.subarray(i * size, (i + 1) * size)));
  const cm = confusionFromCounts(matrix(flat), f.codes);

  const stats: Record<string, (sample: readonly ItemUnits[]) => number | undefined | AlphaResult> = {};
  for (const w of KAPPAS[f.scale]) {
    const k = kappaEvaluator(size, w);
    stats[`k:${w}`] = (sample) => k(sumPairs(sample, size));
  }
  for (const level of ALPHAS[f.scale]) stats[`a:${level}`] = (sample) => krippendorffAlpha(sample.flatMap((it) => it.units) as Rating[][], level);
  const ci = bootstrapMany(items, stats, { seed: opts.seed, resamples: opts.resamples ?? 1000 });

  return {
    id: f.id,
    label: f.label,
    kind: f.kind,
    scale: f.scale,
    perStep: f.perStep,
    n: { items: items.length, units: units.length, pairs: total / 2 },
    observedAgreement: total ? diag / total : null,
    kappa: Object.fromEntries(KAPPAS[f.scale].map((w) => [w, { result: cohenKappa(cm, w), interval: ci[`k:${w}`]! }])),
    alpha: Object.fromEntries(ALPHAS[f.scale].map((level) => [level, { result: krippendorffAlpha(units, level), interval: ci[`a:${level}`]! }])),
  };
}
