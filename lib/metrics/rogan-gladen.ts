// The failure rate corrected for the evaluator's own errors (Rogan & Gladen, "Estimating
// prevalence from the results of a screening test", Am. J. Epidemiol. 107, 1978).
//
// An automatic evaluator flags a trajectory as a failure (safety ≤ 1) with sensitivity Se (share
// of the true failures it flags) and specificity Sp (share of the others it leaves alone). The
// flagged share p it reports is then p = π·Se + (1 − π)·(1 − Sp) for the true rate π, so
//
//   π = (p + Sp − 1) / (Se + Sp − 1),   clipped to [0, 1].
//
// Se and Sp come from a validation campaign, where humans decided the true failures (T) of some
// trajectories the evaluator also scored (I = its flags): Se = |T∩I| / |T|, Sp = |¬T∩¬I| / |¬T|.
// When Se + Sp ≤ 1 the evaluator does no better than a coin on those items and the formula means
// nothing (division by ≤ 0): the rate is undefined, never a number.
//
// Its CI resamples both sources of error: the agent's scored trajectories (Binomial → p*) and the
// campaign's items (Multinomial over the four cells → Se*, Sp*), π* per resample; resamples where
// Se* or Sp* is undefined, or Se* + Sp* ≤ 1, are skipped and counted, never imputed.

import { multinomialChain, sampleBinomial, sampleMultinomialInto } from "./binomial";
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES, quantileSorted, type BootstrapOptions, type Bounds } from "./bootstrap";
import { defined, ratio, undefinedBecause, type Estimate, type Ratio, type Undefined } from "./estimate";
import type { FailureCounts } from "./failures";
import { mulberry32, normalizeSeed } from "./rng";

export interface JudgeAccuracy {
  /** |T∩I| / |T| */
  readonly sensitivity: Ratio;
  /** |¬T∩¬I| / |¬T| */
  readonly specificity: Ratio;
}

export function judgeAccuracy(c: FailureCounts): JudgeAccuracy {
  checkCounts(c);
  return {
    sensitivity: ratio(c.identifiedTrue, c.identifiedTrue + c.trueOnly, "the validation campaign has no true failure (|T| = 0)"),
    specificity: ratio(c.neither, c.neither + c.identifiedOnly, "the validation campaign has no trajectory that is not a true failure (|¬T| = 0)"),
  };
}

/** A corrected rate; `clipped` says the raw formula fell outside [0, 1] and by which side. */
export type CorrectedRate = Estimate & { readonly clipped?: "low" | "high" };

const fmt = (x: number) => (Math.round(x * 1000) / 1000).toString();

function youdenReason(se: number, sp: number): string {
  return `Se + Sp = ${fmt(se + sp)} ≤ 1: on the validation items the evaluator is no better than chance`;
}

function clip(raw: number): CorrectedRate {
  if (raw < 0) return { ...defined(0), clipped: "low" };
  if (raw > 1) return { ...defined(1), clipped: "high" };
  return defined(raw);
}

// Floating point cannot tell Se + Sp = 1 from 1 ± 1 ulp; below this the difference is noise.
const YOUDEN_EPSILON = 1e-12;

/** π from p, Se and Sp as numbers (the formula of the header). */
export function roganGladen(p: number, se: number, sp: number): CorrectedRate {
  for (const [name, x] of [["p", p], ["Se", se], ["Sp", sp]] as const) {
    if (!(x >= 0 && x <= 1)) throw new RangeError(`${name} must be a proportion in [0, 1], got ${x}`);
  }
  const youden = se + sp - 1;
  if (youden <= YOUDEN_EPSILON) return undefinedBecause(youdenReason(se, sp));
  return clip((p + sp - 1) / youden);
}

/**
 * π from counts: `failures` of `scored` trajectories flagged, and the validation campaign's cells.
 * Se + Sp − 1 = (|T∩I|·|¬T∩¬I| − |I\T|·|T\I|) / (|T|·|¬T|), so its sign is decided exactly in
 * integers, without the rounding question of the number version.
 */
export function correctedFailureRate(failures: number, scored: number, c: FailureCounts): CorrectedRate {
  if (!Number.isSafeInteger(scored) || !Number.isSafeInteger(failures) || failures < 0 || failures > scored) {
    throw new RangeError(`failures must be an integer between 0 and the scored trajectories, got ${failures} of ${scored}`);
  }
  if (scored === 0) return undefinedBecause("no trajectory has a safety score");
  const acc = judgeAccuracy(c);
  if (acc.sensitivity.undefined) return undefinedBecause(`Se undefined: ${acc.sensitivity.reason}`);
  if (acc.specificity.undefined) return undefinedBecause(`Sp undefined: ${acc.specificity.reason}`);
  const se = acc.sensitivity.value;
  const sp = acc.specificity.value;
  if (c.identifiedTrue * c.neither - c.identifiedOnly * c.trueOnly <= 0) return undefinedBecause(youdenReason(se, sp));
  return clip((failures / scored + sp - 1) / (se + sp - 1));
}

export type CorrectedRateInterval = (Bounds | Undefined) & {
  readonly method: "percentile";
  readonly level: number;
  readonly seed: number;
  readonly resamples: number;
  /** Resamples left out: skippedNoBetterThanChance + those where Se* or Sp* was undefined. */
  readonly skipped: number;
  /** Of `skipped`, the resamples with Se* + Sp* ≤ 1. */
  readonly skippedNoBetterThanChance: number;
};

function checkCounts(c: FailureCounts): void {
  for (const [k, v] of Object.entries(c)) {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`failure count ${k} must be a non-negative integer, got ${v}`);
  }
}

/**
 * Seeded percentile CI of π: per resample, p* = Binomial(scored, failures / scored) / scored and
 * the four cells ~ Multinomial(N, observed shares); π* clipped to [0, 1].
 */
export function correctedFailureRateInterval(failures: number, scored: number, c: FailureCounts, options: BootstrapOptions): CorrectedRateInterval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? DEFAULT_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be between 0 and 1, got ${level}`);
  const seed = normalizeSeed(options.seed);
  const base = { method: "percentile" as const, level, seed, resamples };
  const point = correctedFailureRate(failures, scored, c); // also validates the inputs
  if (point.undefined) return { ...base, skipped: resamples, skippedNoBetterThanChance: 0, undefined: true, reason: point.reason };

  // Cell order: T∩I, I\T, T\I, neither.
  const cells = [c.identifiedTrue, c.identifiedOnly, c.trueOnly, c.neither];
  const n = cells.reduce((a, b) => a + b, 0);
  const chain = multinomialChain(cells);
  const drawn = new Float64Array(4);
  const share = failures / scored;
  const rng = mulberry32(seed);
  const values = new Float64Array(resamples);
  let kept = 0;
  let chance = 0;
  let empty = 0;
  for (let r = 0; r < resamples; r++) {
    const p = sampleBinomial(rng, scored, share) / scored;
    sampleMultinomialInto(rng, n, chain, drawn);
    const ti = drawn[0]!, io = drawn[1]!, to = drawn[2]!, ne = drawn[3]!;
    if (ti + to === 0 || ne + io === 0) {
      empty++;
      continue;
    }
    if (ti * ne - io * to <= 0) {
      chance++;
      continue;
    }
    const se = ti / (ti + to);
    const sp = ne / (ne + io);
    values[kept++] = Math.min(1, Math.max(0, (p + sp - 1) / (se + sp - 1)));
  }
  const skipped = chance + empty;
  if (kept === 0) {
    return { ...base, skipped, skippedNoBetterThanChance: chance, undefined: true, reason: `π is undefined on all ${resamples} resamples` };
  }
  const sorted = values.subarray(0, kept).sort();
  const tail = (1 - level) / 2;
  return { ...base, skipped, skippedNoBetterThanChance: chance, lower: quantileSorted(sorted, tail), upper: quantileSorted(sorted, 1 - tail) };
}
