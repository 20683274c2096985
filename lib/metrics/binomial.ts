// Exact binomial and multinomial sampling, so that a bootstrap over n items whose statistic only
// depends on per-category counts (κ from a confusion matrix, a share, a mean of 0–3 scores) costs
// O(categories) per resample instead of O(n): resampling n items with replacement gives category
// counts that are exactly Multinomial(n, observed shares), and a multinomial is a chain of
// binomials. Sampling is exact (rejection, no normal approximation), so small cells behave.

import { openUniform, type Rng } from "./rng";

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

// log(k!) by summation for small k; Stirling's series (error < 1e-17 past 256) beyond.
const LOG_FACTORIAL_TABLE = (() => {
  const t = new Float64Array(257);
  for (let k = 2; k <= 256; k++) t[k] = t[k - 1]! + Math.log(k);
  return t;
})();

export function logFactorial(k: number): number {
  if (k <= 256) return LOG_FACTORIAL_TABLE[k]!;
  const x = k + 1;
  const x2 = x * x;
  return (x - 0.5) * Math.log(x) - x + HALF_LOG_2PI + (1 / 12 - (1 / 360 - 1 / (1260 * x2)) / x2) / x;
}

/** One draw from Binomial(n, p); n a non-negative integer, p in [0, 1]. */
export function sampleBinomial(rng: Rng, n: number, p: number): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  // Both algorithms below want p ≤ ½; the count of failures is the mirror image.
  if (p > 0.5) return n - sampleBinomial(rng, n, 1 - p);
  return n * p < 10 ? binomialByInversion(rng, n, p) : binomialBtrs(rng, n, p);
}

/**
 * Small mean: inversion — one uniform, walked down the pmf from P(0) = (1 − p)^n with the ratio
 * P(k)/P(k − 1) = (n − k + 1)/k · p/(1 − p). Expected n·p + 1 steps of a multiply and a compare,
 * one exp and one log1p per draw: several times cheaper than a logarithm per waiting time, which
 * dominated the bootstrap of thousands of small patterns (issue 19). Exact up to floating-point
 * rounding of the cumulative sum; the walk stops at n.
 */
function binomialByInversion(rng: Rng, n: number, p: number): number {
  const ratio = p / (1 - p);
  let pk = Math.exp(n * Math.log1p(-p));
  let u = openUniform(rng);
  let k = 0;
  while (u > pk && k < n) {
    u -= pk;
    k++;
    pk *= (ratio * (n - k + 1)) / k;
  }
  return k;
}

/**
 * Large mean: Hörmann's BTRS ("The generation of binomial random variates", J. Stat. Comput.
 * Simul. 46, 1993) — transformed rejection with a squeeze. A fixed ~1.15 uniforms pairs per
 * draw whatever n is; the acceptance test compares against the exact log-probability ratio.
 */
function binomialBtrs(rng: Rng, n: number, p: number): number {
  const q = 1 - p;
  const spq = Math.sqrt(n * p * q);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const alpha = (2.83 + 5.1 / b) * spq;
  const logOdds = Math.log(p / q);
  const mode = Math.floor((n + 1) * p);
  const logModeTerms = logFactorial(mode) + logFactorial(n - mode);
  for (;;) {
    const u = openUniform(rng) - 0.5;
    const v = openUniform(rng);
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k; // inside the squeeze: accepted without logarithms
    const logV = Math.log((v * alpha) / (a / (us * us) + b));
    // log f(k)/f(mode) for the binomial pmf f.
    const logRatio = logModeTerms - logFactorial(k) - logFactorial(n - k) + (k - mode) * logOdds;
    if (logV <= logRatio) return k;
  }
}

/**
 * The chain-of-binomials form of a multinomial whose shares are `counts / sum(counts)`:
 * conditional[k] = counts[k] / (counts[k] + counts[k+1] + …). Computed once per bootstrap.
 */
export function conditionalShares(counts: ArrayLike<number>): Float64Array {
  const out = new Float64Array(counts.length);
  let rest = 0;
  for (let k = counts.length - 1; k >= 0; k--) {
    rest += counts[k]!;
    out[k] = rest === 0 ? 0 : counts[k]! / rest;
  }
  return out;
}

/** Writes one Multinomial(n, shares) draw into `out` (no allocation: called once per resample). */
export function sampleMultinomialInto(rng: Rng, n: number, conditional: Float64Array, out: Float64Array): void {
  let remaining = n;
  for (let k = 0; k < conditional.length; k++) {
    const x = remaining === 0 ? 0 : sampleBinomial(rng, remaining, conditional[k]!);
    out[k] = x;
    remaining -= x;
  }
}
