// Seeded percentile-bootstrap confidence intervals over items. Two engines:
//  - `bootstrap`: any statistic of a list of items; resamples item indices, O(resamples × n).
//  - `bootstrapCounts`: statistics that depend only on how many items fall in each category
//    (κ from a confusion matrix, shares, means of 0–3 scores). Resampling n items is then exactly
//    a Multinomial(n, observed shares) draw, sampled in O(categories) per resample — fast on
//    counts straight from SQL however many items they stand for.
// Resamples on which the statistic is undefined are skipped and counted, never imputed.

import { multinomialChain, sampleMultinomialInto } from "./binomial";
import type { Estimate, Undefined } from "./estimate";
import { mulberry32, normalizeSeed } from "./rng";

export interface BootstrapOptions {
  /** 32-bit integer seed; show it beside the interval so the figure can be reproduced. */
  readonly seed: number;
  /** Default 1,000. */
  readonly resamples?: number;
  /** Default 0.95. */
  readonly level?: number;
}

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_LEVEL = 0.95;

export interface Bounds {
  readonly lower: number;
  readonly upper: number;
  readonly undefined?: never;
  readonly reason?: never;
}

/** A seeded percentile-bootstrap interval (κ, α, means, differences). */
export type PercentileInterval = (Bounds | Undefined) & {
  readonly method: "percentile";
  readonly level: number;
  readonly seed: number;
  readonly resamples: number;
  /** Resamples on which the statistic was undefined (left out of the percentiles). */
  readonly skipped: number;
};

/** A Wilson score interval of a proportion k / n (./wilson.ts): no seed, no resamples. */
export type WilsonInterval = (Bounds | Undefined) & {
  readonly method: "wilson";
  readonly level: number;
  readonly successes: number;
  readonly trials: number;
};

export type ConfidenceInterval = PercentileInterval | WilsonInterval;

/** What a statistic may return; `undefined`, an undefined Estimate and non-finite numbers all skip. */
export type StatisticValue = number | Estimate | undefined;

function toNumber(v: StatisticValue): number | undefined {
  const x = typeof v === "object" ? (v.undefined ? undefined : v.value) : v;
  return x !== undefined && Number.isFinite(x) ? x : undefined;
}

function settings(options: BootstrapOptions) {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? DEFAULT_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be between 0 and 1, got ${level}`);
  return { resamples, level, seed: normalizeSeed(options.seed) };
}

/** Linear-interpolation quantile of sorted values (type 7: R's and NumPy's default). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo]!;
  return lo + 1 < sorted.length ? a + (h - lo) * (sorted[lo + 1]! - a) : a;
}

/** Collects one statistic's values over the resamples and turns them into an interval. */
class Collector {
  private readonly values: Float64Array;
  private count = 0;
  private skipped = 0;

  constructor(private readonly cfg: ReturnType<typeof settings>) {
    this.values = new Float64Array(cfg.resamples);
  }

  add(v: StatisticValue): void {
    const x = toNumber(v);
    if (x === undefined) this.skipped++;
    else this.values[this.count++] = x;
  }

  interval(): PercentileInterval {
    const { level, seed, resamples } = this.cfg;
    const base = { method: "percentile" as const, level, seed, resamples, skipped: this.skipped };
    if (this.count === 0) {
      return { ...base, undefined: true, reason: `the statistic is undefined on all ${resamples} resamples` };
    }
    const sorted = this.values.subarray(0, this.count).sort();
    const tail = (1 - level) / 2;
    return { ...base, lower: quantileSorted(sorted, tail), upper: quantileSorted(sorted, 1 - tail) };
  }
}

function emptyInterval(cfg: ReturnType<typeof settings>, reason: string): PercentileInterval {
  return { method: "percentile", level: cfg.level, seed: cfg.seed, resamples: cfg.resamples, skipped: cfg.resamples, undefined: true, reason };
}

/**
 * Several statistics on the same item resamples. `sample` is a reused buffer: read it during the
 * call, do not keep it.
 */
export function bootstrapMany<T, K extends string>(
  items: readonly T[],
  statistics: Readonly<Record<K, (sample: readonly T[]) => StatisticValue>>,
  options: BootstrapOptions,
): Record<K, PercentileInterval> {
  const cfg = settings(options);
  const keys = Object.keys(statistics) as K[];
  const out = {} as Record<K, PercentileInterval>;
  const n = items.length;
  if (n === 0) {
    for (const k of keys) out[k] = emptyInterval(cfg, "no items to resample");
    return out;
  }
  const collectors = keys.map(() => new Collector(cfg));
  const rng = mulberry32(cfg.seed);
  const sample = new Array<T>(n);
  for (let r = 0; r < cfg.resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = items[Math.floor(rng() * n)]!;
    for (let s = 0; s < keys.length; s++) collectors[s]!.add(statistics[keys[s]!](sample));
  }
  keys.forEach((k, s) => (out[k] = collectors[s]!.interval()));
  return out;
}

/** Percentile CI of one statistic of a list of items. */
export function bootstrap<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => StatisticValue,
  options: BootstrapOptions,
): PercentileInterval {
  return bootstrapMany(items, { value: statistic }, options).value;
}

/**
 * Several statistics of category counts on the same resamples. `counts[k]` is how many items fall
 * in category k (non-negative integers); each statistic receives a resampled copy with the same
 * total, reused across resamples (read it, do not keep it).
 */
export function bootstrapCountsMany<K extends string>(
  counts: ArrayLike<number>,
  statistics: Readonly<Record<K, (resampled: Float64Array) => StatisticValue>>,
  options: BootstrapOptions,
): Record<K, PercentileInterval> {
  const cfg = settings(options);
  const keys = Object.keys(statistics) as K[];
  const out = {} as Record<K, PercentileInterval>;
  let n = 0;
  for (let k = 0; k < counts.length; k++) {
    const c = counts[k]!;
    if (!Number.isSafeInteger(c) || c < 0) throw new RangeError(`a count must be a non-negative integer, got ${c}`);
    n += c;
  }
  if (n === 0) {
    for (const k of keys) out[k] = emptyInterval(cfg, "no items to resample");
    return out;
  }
  const collectors = keys.map(() => new Collector(cfg));
  const rng = mulberry32(cfg.seed);
  const chain = multinomialChain(counts);
  const resampled = new Float64Array(counts.length);
  for (let r = 0; r < cfg.resamples; r++) {
    sampleMultinomialInto(rng, n, chain, resampled);
    for (let s = 0; s < keys.length; s++) collectors[s]!.add(statistics[keys[s]!](resampled));
  }
  keys.forEach((k, s) => (out[k] = collectors[s]!.interval()));
  return out;
}

/** Percentile CI of one statistic of category counts. */
export function bootstrapCounts(
  counts: ArrayLike<number>,
  statistic: (resampled: Float64Array) => StatisticValue,
  options: BootstrapOptions,
): PercentileInterval {
  return bootstrapCountsMany(counts, { value: statistic }, options).value;
}
