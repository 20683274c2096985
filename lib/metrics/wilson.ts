// Wilson score interval of a proportion k / n — the interval every share on the dashboards carries
// (precision, incidences, rates, raw agreement, emulator quality, leaderboard rates).
//
// Why not the bootstrap: at small n a percentile bootstrap of k / n collapses to a point when
// k = 0 or k = n (every resample is 0/n or n/n), so "3 of 3" would read "100 % [100 %, 100 %]".
// Wilson's interval inverts the score test instead and stays honest there: 3/3 → [43.85 %, 100 %],
// 0/5 → [0 %, 43.45 %], 4/5 → [37.55 %, 96.38 %] (z = 1.959964 for 95 %).
//
//   centre = (k + z²/2) / (n + z²),  half = z / (n + z²) · √(k(n − k)/n + z²/4)

import type { WilsonInterval } from "./bootstrap";
import { DEFAULT_LEVEL } from "./bootstrap";

/** Two-sided standard-normal quantile for a level (exact constant for 95 %, else Acklam's rational approximation). */
export function normalQuantileTwoSided(level: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be between 0 and 1, got ${level}`);
  if (level === 0.95) return 1.959964;
  return inverseNormal(1 - (1 - level) / 2);
}

// Acklam's algorithm (relative error < 1.15e-9): enough for an interval's bounds.
function inverseNormal(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const poly = (k: number[], x: number) => k.reduce((acc, v) => acc * x + v, 0);
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -poly(c, q) / (poly(d, q) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

/** The Wilson score interval of k successes in n trials; undefined (with the reason) when n = 0. */
export function wilsonInterval(successes: number, trials: number, level = DEFAULT_LEVEL, emptyReason = "no items (n = 0)"): WilsonInterval {
  if (!Number.isSafeInteger(successes) || !Number.isSafeInteger(trials) || successes < 0 || successes > trials) {
    throw new RangeError(`a proportion needs integers 0 ≤ k ≤ n, got ${successes} / ${trials}`);
  }
  const base = { method: "wilson" as const, level, successes, trials };
  if (trials === 0) return { ...base, undefined: true, reason: emptyReason };
  const z = normalQuantileTwoSided(level);
  const z2 = z * z;
  const centre = (successes + z2 / 2) / (trials + z2);
  const half = (z / (trials + z2)) * Math.sqrt((successes * (trials - successes)) / trials + z2 / 4);
  // At k = 0 / k = n the bound is exactly 0 / 1; clamp away floating-point dust elsewhere.
  const lower = successes === 0 ? 0 : Math.max(0, centre - half);
  const upper = successes === trials ? 1 : Math.min(1, centre + half);
  return { ...base, lower, upper };
}
