// A plain share k / n with its bootstrap CI. Resampling n items of which k qualify is a
// Binomial(n, k/n) draw, so the CI costs O(resamples) whatever n is.

import { bootstrapCounts, type BootstrapOptions, type ConfidenceInterval } from "./bootstrap";
import { ratio, type Ratio } from "./estimate";

export function share(numerator: number, denominator: number, emptyReason?: string): Ratio {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || numerator < 0 || numerator > denominator) {
    throw new RangeError(`a share needs integers 0 ≤ numerator ≤ denominator, got ${numerator} / ${denominator}`);
  }
  return ratio(numerator, denominator, emptyReason);
}

export function shareInterval(numerator: number, denominator: number, options: BootstrapOptions): ConfidenceInterval {
  share(numerator, denominator);
  return bootstrapCounts([numerator, denominator - numerator], (c) => c[0]! / (c[0]! + c[1]!), options);
}
