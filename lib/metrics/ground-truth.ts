// One ground truth per annotated item, used by every human-label panel and export:
//   1. the adjudicated label, if a PI adjudicated the item;
//   2. else the STRICT majority of the annotators' labels (more votes than any other label);
//   3. else a TIE between the labels that share the most votes.
// What a tie becomes is the page's TIE POLICY, always shown beside the numbers it produced:
//   exclude      (default) the item is left out; "n = 40 (3 ties excluded)";
//   seeded       ToolEmu's way: one of the tied labels drawn with a seeded generator (the seed is
//                shown; lib/dashboards/human/tie-break.ts documents the md5 draw the database makes);
//   sensitivity  the metric's exact minimum and maximum over every way of resolving the ties
//                (./tie-sensitivity.ts), beside the value of the seeded resolution.
// With an even k every disagreement between two camps of equal size is a tie — the campaign form
// warns about it, and the campaign page lists the ties still waiting for an adjudicator.

import { isMissing, type Rating } from "./labels";
import { sensitivityRange, type LinearFractional, type SensitivityRange, type TieGroup } from "./tie-sensitivity";

export const TIE_POLICIES = ["exclude", "seeded", "sensitivity"] as const;
export type TiePolicy = (typeof TIE_POLICIES)[number];
export const DEFAULT_TIE_POLICY: TiePolicy = "exclude";

export const TIE_POLICY_NAMES: Record<TiePolicy, string> = {
  exclude: "Exclude ties",
  seeded: "Seeded tie-break",
  sensitivity: "Sensitivity range",
};

export const TIE_POLICY_HINTS: Record<TiePolicy, string> = {
  exclude: "items whose labels tie (and no adjudication) are left out; the number left out is shown beside n",
  seeded: "a tie is broken by a draw seeded with the page's seed (ToolEmu's way); another seed can give another number",
  sensitivity: "each value is the seeded resolution's, beside the exact minimum and maximum over every way the ties could be resolved",
};

export type GroundTruth =
  | { readonly kind: "adjudicated"; readonly label: number }
  | { readonly kind: "majority"; readonly label: number; readonly votes: number; readonly of: number }
  | { readonly kind: "tie"; readonly tiedBetween: readonly number[]; readonly votes: number; readonly of: number }
  | { readonly kind: "none" };

/** The ground truth of one item from its labels and, if any, its adjudicated label. */
export function groundTruth(ratings: readonly Rating[], adjudicated?: Rating): GroundTruth {
  if (adjudicated !== undefined && !isMissing(adjudicated)) return { kind: "adjudicated", label: adjudicated };
  const votes = new Map<number, number>();
  let of = 0;
  for (const r of ratings) {
    if (isMissing(r)) continue;
    votes.set(r, (votes.get(r) ?? 0) + 1);
    of++;
  }
  if (of === 0) return { kind: "none" };
  const best = Math.max(...votes.values());
  const top = [...votes].filter(([, v]) => v === best).map(([l]) => l).sort((a, b) => a - b);
  return top.length === 1 ? { kind: "majority", label: top[0]!, votes: best, of } : { kind: "tie", tiedBetween: top, votes: best, of };
}

/**
 * What the tie policy needs of an item's ground truth: a decided label (adjudicated, the strict
 * majority, or "decided" when the database did not say which of the two) or the labels it ties
 * between. A GroundTruth is one.
 */
export type Resolvable<T> =
  | { readonly kind: "adjudicated" | "majority" | "decided"; readonly label: T }
  | { readonly kind: "tie"; readonly tiedBetween: readonly T[] }
  | { readonly kind: "none" };

/**
 * THE tie policy: the label a policy gives an item, or undefined (no labels, or a tie the policy
 * leaves out). Under "sensitivity" the point value is the seeded resolution's (the range comes from
 * ./tie-sensitivity.ts). Every human-label panel applies its policy through here (TieTally).
 */
export function resolvedLabel<T>(truth: Resolvable<T>, policy: TiePolicy, seededPick: (tied: readonly T[]) => T): T | undefined {
  switch (truth.kind) {
    case "adjudicated":
    case "majority":
    case "decided":
      return truth.label;
    case "tie":
      return policy === "exclude" ? undefined : seededPick(truth.tiedBetween);
    case "none":
      return undefined;
  }
}

/**
 * A panel's cell counts under a tie policy. Each add() is a group of `count` interchangeable items
 * whose ground truth is a cell (an index into the panel's cell vector) or a tie between cells, with
 * the cell the seeded draw picked. It keeps what every policy shows: the counts under the policy,
 * the ties and how many were left out, and — for "sensitivity" — the fixed cells and tie groups
 * whose exact range ./tie-sensitivity.ts computes (`range`).
 */
export class TieTally {
  /** Cell counts under the policy (what the panel shows). */
  readonly counts: number[];
  /** Cell counts of the items without a tie (the fixed part of every resolution). */
  readonly decided: number[];
  /** The tied items: count and candidate cells, in the order they were added. */
  readonly groups: TieGroup[] = [];
  /** Items whose ground truth is an unadjudicated tie; of those, left out by "exclude". */
  ties = 0;
  tiesExcluded = 0;

  constructor(
    readonly policy: TiePolicy,
    size: number,
  ) {
    this.counts = new Array<number>(size).fill(0);
    this.decided = new Array<number>(size).fill(0);
  }

  /** Adds `count` items; returns the cell the policy puts them in (undefined: left out). */
  add(count: number, truth: Resolvable<number>, seeded?: number): number | undefined {
    const cell = resolvedLabel(truth, this.policy, () => {
      if (seeded === undefined) throw new Error("a tie needs its seeded draw");
      return seeded;
    });
    if (truth.kind === "tie") {
      this.ties += count;
      this.groups.push({ count, cells: truth.tiedBetween });
      if (cell === undefined) this.tiesExcluded += count;
    } else if (cell !== undefined) {
      this.decided[cell]! += count;
    }
    if (cell !== undefined) this.counts[cell]! += count;
    return cell;
  }

  /** "sensitivity": the exact range of `metric` over every resolution of the ties; else undefined. */
  range(metric: LinearFractional): SensitivityRange | undefined {
    return this.policy === "sensitivity" ? sensitivityRange(this.decided, this.groups, metric) : undefined;
  }
}
