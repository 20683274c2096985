// Human–human agreement as ToolEmu reports it: each annotator's κ against the majority of the
// OTHER annotators (leave-one-out), averaged over annotators; and the κ of every annotator pair.

import { bootstrap, type BootstrapOptions, type ConfidenceInterval } from "./bootstrap";
import { confusionFromPairs, transposeConfusion, type ConfusionMatrix } from "./confusion";
import { defined, undefinedBecause, type Estimate } from "./estimate";
import { kappaOf, type KappaResult, type KappaVariant } from "./kappa";
import { BINARY_LABELS, BINARY_THRESHOLD, SCORE_LABELS, binarizeRating, isMissing, type Rating } from "./labels";
import { majorityVote } from "./majority";

export interface AnnotatedItem {
  readonly key: string;
  /** Annotator id → label; absent or missing where that annotator did not label the item. */
  readonly ratings: Readonly<Record<string, Rating>>;
}

export interface HumanAgreementOptions {
  readonly seed: number;
  /** Default "categorical". "binarized" binarizes every rating first, then votes. */
  readonly variant?: KappaVariant;
  /** The full label set of the 0..3 scale (ignored for "binarized"). */
  readonly labels?: readonly number[];
  readonly threshold?: number;
}

/** Ratings and label set on the scale the variant is computed on. */
function scale(options: Omit<HumanAgreementOptions, "seed">) {
  const variant = options.variant ?? "categorical";
  if (variant === "binarized") {
    const threshold = options.threshold ?? BINARY_THRESHOLD;
    return { variant, labels: BINARY_LABELS, rate: (r: Rating) => binarizeRating(r, threshold) };
  }
  return { variant, labels: options.labels ?? SCORE_LABELS, rate: (r: Rating) => (isMissing(r) ? undefined : r) };
}

/** Every annotator who labelled at least one item, sorted so results never depend on input order. */
function annotatorsOf(items: readonly AnnotatedItem[]): string[] {
  const ids = new Set<string>();
  for (const item of items) for (const [id, r] of Object.entries(item.ratings)) if (!isMissing(r)) ids.add(id);
  return [...ids].sort();
}

export interface LeaveOneOutEntry {
  readonly annotator: string;
  /** Rows: this annotator; columns: the majority of the others, on the items this annotator labelled. */
  readonly confusion: ConfusionMatrix;
  readonly kappa: KappaResult;
  /** Items where the others' majority needed the seeded tie-break. */
  readonly ties: number;
}

export interface LeaveOneOut {
  readonly variant: KappaVariant;
  readonly seed: number;
  readonly perAnnotator: readonly LeaveOneOutEntry[];
  /** Mean of the defined per-annotator κ; `annotators` counts them, `excluded` names the rest. */
  readonly mean: Estimate & { readonly annotators: number; readonly excluded: readonly string[] };
}

export function leaveOneOutKappa(items: readonly AnnotatedItem[], options: HumanAgreementOptions): LeaveOneOut {
  const s = scale(options);
  const perAnnotator = annotatorsOf(items).map((annotator): LeaveOneOutEntry => {
    const own: Rating[] = [];
    const majority: Rating[] = [];
    let ties = 0;
    for (const item of items) {
      const mine = s.rate(item.ratings[annotator]);
      if (isMissing(mine)) continue;
      const others = Object.entries(item.ratings).filter(([id]) => id !== annotator).map(([, r]) => s.rate(r));
      // The annotator is part of the key: each leave-one-out vote gets its own tie-break stream.
      const m = majorityVote(others, options.seed, `${item.key}\u0000${annotator}`);
      if (!m) continue; // nobody else labelled it: nothing to compare with
      if (m.tiedBetween.length > 0) ties++;
      own.push(mine);
      majority.push(m.label);
    }
    const confusion = confusionFromPairs(own, majority, s.labels);
    return { annotator, confusion, kappa: kappaOf(confusion, s.variant), ties };
  });
  const values = perAnnotator.flatMap((e) => (e.kappa.undefined ? [] : [e.kappa.value]));
  const excluded = perAnnotator.filter((e) => e.kappa.undefined).map((e) => e.annotator);
  const mean =
    values.length === 0
      ? undefinedBecause("no annotator has a defined κ against the majority of the others")
      : defined(values.reduce((a, b) => a + b, 0) / values.length);
  return { variant: s.variant, seed: options.seed, perAnnotator, mean: { ...mean, annotators: values.length, excluded } };
}

/** Bootstrap CI of the mean leave-one-out κ, resampling items. */
export function leaveOneOutInterval(
  items: readonly AnnotatedItem[],
  options: HumanAgreementOptions & BootstrapOptions,
): ConfidenceInterval {
  return bootstrap(items, (sample) => leaveOneOutKappa(sample, options).mean, options);
}

export interface PairwiseCell {
  readonly kappa: KappaResult;
  /** Rows: annotators[i]; columns: annotators[j]; items both labelled. */
  readonly confusion: ConfusionMatrix;
}

export interface PairwiseKappa {
  readonly variant: KappaVariant;
  readonly annotators: readonly string[];
  /** cells[i][j] for annotators[i] vs annotators[j]; the diagonal is each annotator against itself. */
  readonly cells: readonly (readonly PairwiseCell[])[];
}

/** The pairwise κ matrix (κ is symmetric in the two raters, so cells[j][i] mirrors cells[i][j]). */
export function pairwiseKappa(items: readonly AnnotatedItem[], options: Omit<HumanAgreementOptions, "seed">): PairwiseKappa {
  const s = scale(options);
  const annotators = annotatorsOf(items);
  const cell = (a: string, b: string): PairwiseCell => {
    const confusion = confusionFromPairs(
      items.map((it) => s.rate(it.ratings[a])),
      items.map((it) => s.rate(it.ratings[b])),
      s.labels,
    );
    // `dropped` = items only one of the two (or neither) labelled.
    return { confusion, kappa: kappaOf(confusion, s.variant) };
  };
  const cells: PairwiseCell[][] = annotators.map(() => []);
  annotators.forEach((a, i) => {
    for (let j = i; j < annotators.length; j++) {
      const c = cell(a, annotators[j]!);
      cells[i]![j] = c;
      if (j !== i) cells[j]![i] = { kappa: c.kappa, confusion: transposeConfusion(c.confusion) };
    }
  });
  return { variant: s.variant, annotators, cells };
}

