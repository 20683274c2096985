// Majority of several ratings, ties broken at random — reproducibly. The tie-break generator is
// derived from (seed, item key), so an item's majority does not depend on which other items are
// in the set or in what order they arrive, and the UI can show the seed that produced it.

import { confusionFromPairs, type ConfusionMatrix } from "./confusion";
import { BINARY_LABELS, BINARY_THRESHOLD, SCORE_LABELS, binarizeRating, type Rating } from "./labels";
import { groundTruth } from "./ground-truth";
import { rngFor } from "./rng";

export interface MajorityOutcome {
  readonly label: number;
  /** Ratings that agree with `label`, out of `of` non-missing ratings. */
  readonly votes: number;
  readonly of: number;
  /** The labels that tied for most votes (ascending) when the seed had to decide; else empty. */
  readonly tiedBetween: readonly number[];
}

/** The most frequent label among the non-missing ratings; undefined when there are none. */
export function majorityVote(ratings: readonly Rating[], seed: number, key: string): MajorityOutcome | undefined {
  // The counting is the ground truth's (./ground-truth.ts); only the seeded draw among a tie is ours.
  const g = groundTruth(ratings);
  switch (g.kind) {
    case "none":
    case "adjudicated":
      return undefined;
    case "majority":
      return { label: g.label, votes: g.votes, of: g.of, tiedBetween: [] };
    case "tie": {
      const pick = g.tiedBetween[Math.floor(rngFor(seed, key)() * g.tiedBetween.length)]!;
      return { label: pick, votes: g.votes, of: g.of, tiedBetween: g.tiedBetween };
    }
  }
}

export interface RatedItem {
  readonly key: string;
  readonly ratings: readonly Rating[];
}

export interface MajorityLabels {
  /** One per item, in input order; undefined where the item had no ratings. */
  readonly labels: readonly (number | undefined)[];
  /** How many items needed the random tie-break. */
  readonly ties: number;
  readonly seed: number;
}

/**
 * Majority per item. With `threshold`, ratings are binarized BEFORE voting — the majority on the
 * binarized scale, which can differ from binarizing the 0..3 majority (1, 2, 3 → tie vs 1).
 */
export function majorityLabels(items: readonly RatedItem[], seed: number, threshold?: number): MajorityLabels {
  let ties = 0;
  const labels = items.map((item) => {
    const ratings = threshold === undefined ? item.ratings : item.ratings.map((r) => binarizeRating(r, threshold));
    const m = majorityVote(ratings, seed, item.key);
    if (m && m.tiedBetween.length > 0) ties++;
    return m?.label;
  });
  return { labels, ties, seed };
}

export interface EvaluatedItem {
  readonly key: string;
  /** The automatic evaluator's score. */
  readonly evaluator: Rating;
  /** The human annotations of the same trajectory. */
  readonly humans: readonly Rating[];
}

export interface EvaluatorVsMajority {
  /** Rows: the evaluator; columns: the human majority. */
  readonly confusion: ConfusionMatrix;
  /** Items whose human majority needed the seeded tie-break. */
  readonly ties: number;
  readonly seed: number;
  readonly scale: "score" | "binarized";
}

/**
 * The confusion matrix behind "κ between the evaluator and the majority of human annotations".
 * Items without an evaluator score or without any human label are dropped (and counted).
 * scale "binarized" binarizes every rating BEFORE the vote; its categorical κ is the binarized
 * κ on the binarized majority. (kappaVariants(...).binarized on the "score" matrix instead
 * binarizes the 0..3 majority; the two differ when the vote was split across the threshold.)
 */
export function evaluatorVsMajority(
  items: readonly EvaluatedItem[],
  options: { readonly seed: number; readonly scale?: "score" | "binarized"; readonly threshold?: number; readonly labels?: readonly number[] },
): EvaluatorVsMajority {
  const scale = options.scale ?? "score";
  const threshold = options.threshold ?? BINARY_THRESHOLD;
  const rate = (r: Rating) => (scale === "binarized" ? binarizeRating(r, threshold) : r);
  const majority = majorityLabels(
    items.map((it) => ({ key: it.key, ratings: it.humans.map(rate) })),
    options.seed,
  );
  const confusion = confusionFromPairs(
    items.map((it) => rate(it.evaluator)),
    majority.labels,
    scale === "binarized" ? BINARY_LABELS : (options.labels ?? SCORE_LABELS),
  );
  return { confusion, ties: majority.ties, seed: options.seed, scale };
}
