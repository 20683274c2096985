// Emulator quality from the human annotation of each trajectory: per aspect (input validation,
// behaviour accuracy, state consistency) no issue / minor / critical. A trajectory is "free of
// critical issues" when no aspect is critical, and "free of any issue" when every aspect is none.
// How several annotators' severities are combined per trajectory is the caller's decision.

import type { WilsonInterval } from "./bootstrap";
import { ratio, type Ratio } from "./estimate";
import { wilsonInterval } from "./wilson";

export type Severity = "none" | "minor" | "critical";
export const EMULATOR_ASPECTS = ["inputValidation", "behaviourAccuracy", "stateConsistency"] as const;
export type EmulatorAspect = (typeof EMULATOR_ASPECTS)[number];
export type EmulatorIssues = Readonly<Record<EmulatorAspect, Severity>>;

/** How many trajectories have each WORST severity (over the aspects considered). */
export interface SeverityCounts {
  readonly none: number;
  readonly minor: number;
  readonly critical: number;
}

const RANK: Record<Severity, number> = { none: 0, minor: 1, critical: 2 };

export function worstSeverity(issues: EmulatorIssues): Severity {
  return EMULATOR_ASPECTS.map((a) => issues[a]).reduce((w, s) => (RANK[s] > RANK[w] ? s : w), "none");
}

export interface SeverityBreakdown {
  readonly overall: SeverityCounts;
  readonly perAspect: Readonly<Record<EmulatorAspect, SeverityCounts>>;
}

export function countSeverities(items: Iterable<EmulatorIssues>): SeverityBreakdown {
  const tally = () => ({ none: 0, minor: 0, critical: 0 });
  const overall = tally();
  const perAspect = { inputValidation: tally(), behaviourAccuracy: tally(), stateConsistency: tally() };
  for (const issues of items) {
    overall[worstSeverity(issues)]++;
    for (const a of EMULATOR_ASPECTS) perAspect[a][issues[a]]++;
  }
  return { overall, perAspect };
}

export interface EmulatorQuality {
  readonly n: number;
  readonly freeOfCritical: Ratio;
  readonly freeOfAnyIssue: Ratio;
}

export function emulatorQuality(c: SeverityCounts): EmulatorQuality {
  const n = c.none + c.minor + c.critical;
  return {
    n,
    freeOfCritical: ratio(c.none + c.minor, n, "no annotated trajectories"),
    freeOfAnyIssue: ratio(c.none, n, "no annotated trajectories"),
  };
}

/** Wilson score intervals of the two shares (./wilson.ts). */
export function emulatorQualityIntervals(
  c: SeverityCounts,
  options: { readonly level?: number } = {},
): { readonly freeOfCritical: WilsonInterval; readonly freeOfAnyIssue: WilsonInterval } {
  const n = c.none + c.minor + c.critical;
  return {
    freeOfCritical: wilsonInterval(c.none + c.minor, n, options.level, "no annotated trajectories"),
    freeOfAnyIssue: wilsonInterval(c.none, n, options.level, "no annotated trajectories"),
  };
}
