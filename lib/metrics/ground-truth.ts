// One ground truth per annotated item, used by every human-label panel and export:
//   1. the adjudicated label, if a PI adjudicated the item;
//   2. else the STRICT majority of the annotators' labels (more votes than any other label);
//   3. else a TIE between the labels that share the most votes.
// What a tie becomes is the page's TIE POLICY, always shown beside the numbers it produced:
//   exclude      (default) the item is left out; "n = 40 (3 ties excluded)";
//   seeded       ToolEmu's way: one of the tied labels drawn with a seeded generator (the seed is
//                shown; lib/dashboards/human-sql.ts documents the md5 draw the database makes);
//   sensitivity  the metric's exact minimum and maximum over every way of resolving the ties
//                (./tie-sensitivity.ts), beside the value of the seeded resolution.
// With an even k every disagreement between two camps of equal size is a tie — the campaign form
// warns about it, and the campaign page lists the ties still waiting for an adjudicator.

import { isMissing, type Rating } from "./labels";

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
 * The label a policy gives an item, or undefined (no labels, or a tie the policy leaves out). Under
 * "sensitivity" the point value is the seeded resolution's (the range comes from ./tie-sensitivity.ts).
 */
export function resolvedLabel(truth: GroundTruth, policy: TiePolicy, seededPick: (tied: readonly number[]) => number): number | undefined {
  switch (truth.kind) {
    case "adjudicated":
    case "majority":
      return truth.label;
    case "tie":
      return policy === "exclude" ? undefined : seededPick(truth.tiedBetween);
    case "none":
      return undefined;
  }
}
