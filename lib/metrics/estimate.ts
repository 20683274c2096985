// The result types every metric returns. A metric that cannot be computed (no items, no chance
// disagreement, …) is "undefined" with a reason the UI can show — never NaN, 0 or 1, which would
// be read as real values.

/** A metric with a value. `undefined?: never` lets `if (e.undefined)` narrow the union. */
export interface Defined {
  readonly value: number;
  readonly undefined?: never;
  readonly reason?: never;
}

/** A metric that has no value on this data, and why. */
export interface Undefined {
  readonly undefined: true;
  readonly reason: string;
  readonly value?: never;
}

export type Estimate = Defined | Undefined;

/** A share or a mean: numerator / denominator, undefined when the denominator is 0. */
export type Ratio = Estimate & { readonly numerator: number; readonly denominator: number };

export function defined(value: number): Defined {
  if (!Number.isFinite(value)) throw new RangeError(`metric value must be finite, got ${value}`);
  return { value };
}

export function undefinedBecause(reason: string): Undefined {
  return { undefined: true, reason };
}

export function ratio(numerator: number, denominator: number, emptyReason = "no items (denominator is 0)"): Ratio {
  return denominator === 0
    ? { numerator, denominator, undefined: true, reason: emptyReason }
    : { numerator, denominator, value: numerator / denominator };
}
