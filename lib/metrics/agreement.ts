// Everything the agreement table shows for one pair of raters, from one confusion matrix: the four
// κ variants, raw agreement, the marginals and the mean bias — as point estimates, and as
// bootstrap CIs computed together on the same multinomial resamples of the matrix's cells.

import { bootstrapCountsMany, type BootstrapOptions, type PercentileInterval, type WilsonInterval } from "./bootstrap";
import { wilsonInterval } from "./wilson";
import { binaryClasses, flattenCounts, type ConfusionMatrix } from "./confusion";
import { ratio, type Ratio } from "./estimate";
import { kappaEvaluator, kappaVariants, type KappaResult, type KappaVariant } from "./kappa";
import { BINARY_THRESHOLD } from "./labels";

/** Share of items both raters labelled the same. */
export function rawAgreement(cm: ConfusionMatrix): Ratio {
  let same = 0;
  cm.labels.forEach((_, i) => (same += cm.counts[i]![i]!));
  return ratio(same, cm.n, "no item has a label from both raters");
}

export interface Marginals {
  readonly labels: readonly number[];
  /** How often each rater used each label (counts, in label order). */
  readonly rater1: readonly number[];
  readonly rater2: readonly number[];
  /** The same as shares of n (undefined when n = 0). */
  readonly rater1Shares: readonly Ratio[];
  readonly rater2Shares: readonly Ratio[];
  readonly n: number;
}

export function marginals(cm: ConfusionMatrix): Marginals {
  const rater1 = cm.counts.map((row) => row.reduce((a, b) => a + b, 0));
  const rater2 = cm.labels.map((_, j) => cm.counts.reduce((a, row) => a + row[j]!, 0));
  const share = (c: number) => ratio(c, cm.n, "no item has a label from both raters");
  return { labels: cm.labels, rater1, rater2, rater1Shares: rater1.map(share), rater2Shares: rater2.map(share), n: cm.n };
}

/** Mean of (rater 2's label − rater 1's label) over the paired items: > 0 when rater 2 scores higher. */
export function meanBias(cm: ConfusionMatrix): Ratio {
  let sum = 0;
  cm.counts.forEach((row, i) => row.forEach((c, j) => (sum += c * (cm.labels[j]! - cm.labels[i]!))));
  return ratio(sum, cm.n, "no item has a label from both raters");
}

export interface AgreementSummary {
  readonly n: number;
  readonly dropped: number;
  readonly kappa: Record<KappaVariant, KappaResult>;
  readonly rawAgreement: Ratio;
  readonly marginals: Marginals;
  readonly meanBias: Ratio;
}

export function agreementSummary(cm: ConfusionMatrix, threshold = BINARY_THRESHOLD): AgreementSummary {
  return {
    n: cm.n,
    dropped: cm.dropped,
    kappa: kappaVariants(cm, threshold),
    rawAgreement: rawAgreement(cm),
    marginals: marginals(cm),
    meanBias: meanBias(cm),
  };
}

export type AgreementIntervals = Record<KappaVariant | "meanBias", PercentileInterval> & { readonly rawAgreement: WilsonInterval };

/**
 * CIs for all agreement statistics from the counts alone: κ and the mean bias by a bootstrap over
 * the n paired items (O(resamples × cells) whatever n is, nothing allocated per resample); raw
 * agreement, a share, by Wilson's score interval.
 */
export function agreementIntervals(
  cm: ConfusionMatrix,
  options: BootstrapOptions & { readonly threshold?: number },
): AgreementIntervals {
  const size = cm.labels.length;
  const threshold = options.threshold ?? BINARY_THRESHOLD;
  const binaryIndex = binaryClasses(cm, threshold);
  const binary = new Float64Array(4);
  const binaryKappa = kappaEvaluator(2, "categorical");
  const diff = new Float64Array(size * size);
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) diff[i * size + j] = cm.labels[j]! - cm.labels[i]!;
  const total = (flat: Float64Array) => {
    let n = 0;
    for (let k = 0; k < flat.length; k++) n += flat[k]!;
    return n;
  };
  const boot = bootstrapCountsMany(
    flattenCounts(cm),
    {
      categorical: kappaEvaluator(size, "categorical"),
      linear: kappaEvaluator(size, "linear"),
      quadratic: kappaEvaluator(size, "quadratic"),
      binarized: (flat) => {
        binary.fill(0);
        for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) binary[binaryIndex[i]! * 2 + binaryIndex[j]!]! += flat[i * size + j]!;
        return binaryKappa(binary);
      },
      meanBias: (flat) => {
        let sum = 0;
        for (let k = 0; k < flat.length; k++) sum += flat[k]! * diff[k]!;
        return sum / total(flat);
      },
    },
    options,
  );
  const same = cm.labels.reduce((a, _, i) => a + cm.counts[i]![i]!, 0);
  return { ...boot, rawAgreement: wilsonInterval(same, cm.n, options.level, "no item has a label from both raters") };
}
