// A plain share k / n with its Wilson score interval (./wilson.ts): exact, seedless, and never a
// zero-width interval at k = 0 or k = n.

import type { WilsonInterval } from "./bootstrap";
import { ratio, type Ratio } from "./estimate";
import { wilsonInterval } from "./wilson";

export function share(numerator: number, denominator: number, emptyReason?: string): Ratio {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || numerator < 0 || numerator > denominator) {
    throw new RangeError(`a share needs integers 0 ≤ numerator ≤ denominator, got ${numerator} / ${denominator}`);
  }
  return ratio(numerator, denominator, emptyReason);
}

export function shareInterval(numerator: number, denominator: number, options: { readonly level?: number } = {}): WilsonInterval {
  share(numerator, denominator);
  return wilsonInterval(numerator, denominator, options.level);
}
