// Exact binomial and multinomial sampling, so that a bootstrap over n items whose statistic only
// depends on per-category counts (κ from a confusion matrix, a share, a mean of 0–3 scores) costs
// O(categories) per resample instead of O(n): resampling n items with replacement gives category
// counts that are exactly Multinomial(n, observed shares), and a multinomial is a chain of
// binomials. Sampling is exact (rejection, no normal approximation), so small cells behave.

import { openUniform, type Rng } from "./rng";

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

// log(k!) by summation for small k; Stirling's series (error < 1e-17 past 256) beyond.
function stirlingLogFactorial(k: number): number {
  const x = k + 1;
  const x2 = x * x;
  return (x - 0.5) * Math.log(x) - x + HALF_LOG_2PI + (1 / 12 - (1 / 360 - 1 / (1260 * x2)) / x2) / x;
}

// The same values, memoised up to the largest n sampled so far (at most 2^18 entries, 2 MB):
// BTRS's rejection test takes four per rejected pair, a logarithm each past 256 (issue 19).
const MAX_TABLE = 1 << 18;
let logFactorials = (() => {
  const t = new Float64Array(257);
  for (let k = 2; k <= 256; k++) t[k] = t[k - 1]! + Math.log(k);
  return t;
})();

function tabulateLogFactorials(n: number): void {
  if (n < logFactorials.length || logFactorials.length === MAX_TABLE) return;
  const grown = new Float64Array(Math.min(MAX_TABLE, 2 ** Math.ceil(Math.log2(n + 1))));
  grown.set(logFactorials);
  for (let k = logFactorials.length; k < grown.length; k++) grown[k] = stirlingLogFactorial(k);
  logFactorials = grown;
}

export function logFactorial(k: number): number {
  return k < logFactorials.length ? logFactorials[k]! : stirlingLogFactorial(k);
}

/** One draw from Binomial(n, p); n a non-negative integer, p in [0, 1]. */
export function sampleBinomial(rng: Rng, n: number, p: number): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  // Both algorithms below want p ≤ ½; the count of failures is the mirror image.
  if (p > 0.5) return n - sampleBinomial(rng, n, 1 - p);
  const odds = p / (1 - p);
  return binomialAtMostHalf(rng, n, p, 1 - p, Math.log1p(-p), odds, Math.log(odds));
}

/** One draw at p ≤ ½, given p's derived values (computed per draw by sampleBinomial, per link once by multinomialChain). */
function binomialAtMostHalf(rng: Rng, n: number, p: number, q: number, log1mp: number, odds: number, logOdds: number): number {
  if (n * p < 10) return binomialByInversion(rng, n, log1mp, odds);
  tabulateLogFactorials(n);
  return binomialBtrs(rng, n, p, q, logOdds);
}

/**
 * Small mean: inversion — one uniform, walked down the pmf from P(0) = (1 − p)^n with the ratio
 * P(k)/P(k − 1) = (n − k + 1)/k · p/(1 − p). Expected n·p + 1 steps of a multiply and a compare,
 * one exp per draw (log1p(−p) and the odds p/(1 − p) come from the caller, once per p): several
 * times cheaper than a logarithm per waiting time, which dominated the bootstrap of thousands of
 * small patterns (issue 19). Exact up to floating-point rounding of the cumulative sum; the walk
 * stops at n.
 */
function binomialByInversion(rng: Rng, n: number, log1mp: number, odds: number): number {
  let pk = Math.exp(n * log1mp);
  let u = openUniform(rng);
  let k = 0;
  while (u > pk && k < n) {
    u -= pk;
    k++;
    pk *= (odds * (n - k + 1)) / k;
  }
  return k;
}

/**
 * Large mean: Hörmann's BTRS ("The generation of binomial random variates", J. Stat. Comput.
 * Simul. 46, 1993) — transformed rejection with a squeeze. A fixed ~1.15 uniforms pairs per
 * draw whatever n is; the acceptance test compares against the exact log-probability ratio,
 * whose log-factorials at the mode are only computed once a pair falls outside the squeeze.
 */
function binomialBtrs(rng: Rng, n: number, p: number, q: number, logOdds: number): number {
  const np = n * p;
  const spq = Math.sqrt(np * q);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = np + 0.5;
  const vr = 0.92 - 4.2 / b;
  let alpha = 0;
  let mode = -1;
  let logModeTerms = 0;
  for (;;) {
    const u = openUniform(rng) - 0.5;
    const v = openUniform(rng);
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k; // inside the squeeze: accepted without logarithms
    if (mode < 0) {
      alpha = (2.83 + 5.1 / b) * spq;
      mode = Math.floor((n + 1) * p);
      logModeTerms = logFactorial(mode) + logFactorial(n - mode);
    }
    const logV = Math.log((v * alpha) / (a / (us * us) + b));
    // log f(k)/f(mode) for the binomial pmf f.
    const logRatio = logModeTerms - logFactorial(k) - logFactorial(n - k) + (k - mode) * logOdds;
    if (logV <= logRatio) return k;
  }
}

/**
 * The chain-of-binomials form of a multinomial whose shares are `counts / sum(counts)`:
 * conditional[k] = counts[k] / (counts[k] + counts[k+1] + …).
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

/**
 * A multinomial with shares `counts / sum(counts)`, ready to sample: per link of the chain, what
 * sampleBinomial would derive from its p on every draw — which side of ½ it samples, log1p(−p),
 * the odds and their log — computed once per bootstrap (issue 19: thousands of links × 1,000
 * resamples). Draws are identical to sampleBinomial's on the conditional shares.
 */
export interface MultinomialChain {
  /** Per link: 0 never drawn (p = 0), 1 takes all that remain (p = 1), 2 sampled at p, 3 mirrored (sampled at 1 − p). */
  readonly kind: Uint8Array;
  /** The probability actually sampled (≤ ½), and 1 − it. */
  readonly p: Float64Array;
  readonly q: Float64Array;
  readonly log1mp: Float64Array;
  readonly odds: Float64Array;
  readonly logOdds: Float64Array;
}

export function multinomialChain(counts: ArrayLike<number>): MultinomialChain {
  const conditional = conditionalShares(counts);
  const size = conditional.length;
  const chain = {
    kind: new Uint8Array(size),
    p: new Float64Array(size),
    q: new Float64Array(size),
    log1mp: new Float64Array(size),
    odds: new Float64Array(size),
    logOdds: new Float64Array(size),
  };
  conditional.forEach((share, k) => {
    if (share <= 0 || share >= 1) {
      chain.kind[k] = share <= 0 ? 0 : 1;
      return;
    }
    // Exactly the values sampleBinomial computes: 1 − share, then 1 − p, p / (1 − p), …
    const p = share > 0.5 ? 1 - share : share;
    chain.kind[k] = share > 0.5 ? 3 : 2;
    chain.p[k] = p;
    chain.q[k] = 1 - p;
    chain.log1mp[k] = Math.log1p(-p);
    chain.odds[k] = p / (1 - p);
    chain.logOdds[k] = Math.log(chain.odds[k]!);
  });
  return chain;
}

/** Writes one Multinomial(n, shares) draw into `out` (no allocation: called once per resample). */
export function sampleMultinomialInto(rng: Rng, n: number, chain: MultinomialChain, out: Float64Array): void {
  const { kind, p, q, log1mp, odds, logOdds } = chain;
  let remaining = n;
  for (let k = 0; k < kind.length; k++) {
    const how = kind[k]!;
    if (remaining === 0 || how === 0) {
      out[k] = 0;
      continue;
    }
    let x = remaining;
    if (how !== 1) {
      x = binomialAtMostHalf(rng, remaining, p[k]!, q[k]!, log1mp[k]!, odds[k]!, logOdds[k]!);
      if (how === 3) x = remaining - x;
    }
    out[k] = x;
    remaining -= x;
  }
}
