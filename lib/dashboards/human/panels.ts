// The human-label dashboards (agreement, failures, emulator quality): the one query function of
// each page (server only).
//   loadAgreementPanel(db, filter)  → /dashboards/agreement: ./evaluator-vs-human.ts, ./human-vs-human.ts
//   loadFailuresPanel(db, filter)   → /dashboards/failures: ./failures.ts
//   loadEmulatorPanel(db, filter)   → /dashboards/emulator: ./emulator-quality.ts
// Each returns the filter-bar options, the resolved scope (./scope.ts: campaign, evaluator, seed,
// tie policy) or why there is none, and the panel's numbers, kept per campaign version (./cache.ts:
// a request after a label is submitted or revised, or evaluations are imported, recomputes them).
//
// Everything is COUNTED IN THE DATABASE. Per item, the votes of all fields are summed into one
// packed bigint (GROUP BY item); the majority is worked out once per DISTINCT vote vector, and the
// seeded md5 tie-break once per tied item (./sql.ts, ./tie-break.ts). What leaves the database are label-pair
// counts, per-pair counts, leave-one-out and α "patterns" (items that look alike, GROUP BY
// pattern) and 2×2 / severity cell counts — never the labels themselves. κ, α, shares and their
// intervals (bootstrap for κ, α and means; Wilson for shares) are computed from those counts with
// lib/metrics (and ./stats.ts). One SQL statement per panel section (./analytic.ts).
//
// Definitions (the "how is this computed" notes say the same):
//   * a label's score comes from the campaign's stored label schema (safety: Certain No Risk 3 …
//     Likely Severe Risk 0; both "Likely Mild" and "Possible Severe" are 1); labels are the
//     SUBMITTED assignments;
//   * the human GROUND TRUTH of an item (lib/metrics/ground-truth.ts) is its adjudicated label, else
//     the strict majority, else a tie that the scope's tie policy excludes, resolves with the seed,
//     or keeps open as a sensitivity range — applied by one function (TieTally / resolvedLabel);
//     human vs human uses the annotators' own labels only (a tie among the others is excluded or
//     seeded, never ranged); "binarized" BINARIZES FIRST (score ≥ 2 → 1), THEN VOTES;
//   * I (identified failure) = the evaluator's safety score ≤ 1; T (true failure) = the ground
//     truth of true_failure is yes AND no emulator aspect's ground-truth severity is "critical";
//     N = items with an evaluator safety score and at least one label;
//   * emulator quality: per item the majority severity of each aspect; "free of critical issues"
//     = majority not critical; "free of any issue" = majority "none"; the "all aspects" bar uses the
//     worst of the three majorities.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { DashboardFilter, FilterOption } from "../filters";
import { loadFilterOptions } from "../options";
import { noExecutedCallCohort, type NoExecutedCallCohort } from "../cohorts";
import { emulatorQualityCached, type EmulatorQualityReport } from "./emulator-quality";
import { evaluatorVsHumanCached, type EvaluatorVsHuman } from "./evaluator-vs-human";
import { failureReportCached, type FailureReport } from "./failures";
import { humanAgreementCached, type HumanAgreement } from "./human-vs-human";
import { resolveHumanScope, type HumanScope, type HumanScopeResult } from "./scope";

export interface HumanPanelBase {
  filter: DashboardFilter;
  options: { agents: FilterOption[]; toolkits: FilterOption[]; campaigns: FilterOption[]; evaluators: FilterOption[] };
  /** The most recent campaign with labels (what "Default" means in the campaign select). */
  defaultCampaign: { id: string; name: string } | null;
  scope: HumanScope | null;
  /** Why there is no scope. */
  missing?: HumanScopeResult["missing"];
  missingCampaignName?: string;
}

/**
 * The filter-bar options and the resolved scope, and `compute(scope)` — started as soon as the
 * scope is known, while the options (kept per data version; a pass over the trajectories on a
 * first view) are still loading.
 */
async function withBase<T>(db: Db, filter: DashboardFilter, compute: (scope: HumanScope) => Promise<T>, none: T): Promise<HumanPanelBase & { value: T }> {
  const [options, { resolved, value }] = await Promise.all([
    loadFilterOptions(db),
    resolveHumanScope(db, filter).then(async (resolved) => ({ resolved, value: resolved.scope ? await compute(resolved.scope) : none })),
  ]);
  const withLabels = resolved.campaigns.find((c) => c.hasLabels);
  return {
    filter,
    options: {
      agents: options.agents,
      toolkits: options.toolkits,
      campaigns: resolved.campaigns.map((c) => ({ value: c.value, label: c.hasLabels ? c.label : `${c.label} (no labels yet)` })),
      evaluators: resolved.scope?.evaluators ?? [],
    },
    defaultCampaign: withLabels ? { id: withLabels.value, name: withLabels.label } : null,
    scope: resolved.scope,
    ...(resolved.scope ? {} : { missing: resolved.missing, missingCampaignName: resolved.campaignName }),
    value,
  };
}

export interface AgreementPanel extends HumanPanelBase {
  evaluatorVsHuman: EvaluatorVsHuman | null;
  human: HumanAgreement | null;
}

export async function loadAgreementPanel(db: Db, filter: DashboardFilter): Promise<AgreementPanel> {
  const { value, ...b } = await withBase(
    db,
    filter,
    async (scope): Promise<Pick<AgreementPanel, "evaluatorVsHuman" | "human">> => {
      const [evaluatorVsHuman, human] = await Promise.all([evaluatorVsHumanCached(db, scope), humanAgreementCached(db, scope)]);
      return { evaluatorVsHuman, human };
    },
    { evaluatorVsHuman: null, human: null },
  );
  return { ...b, ...value };
}

export interface FailuresPanel extends HumanPanelBase {
  report: FailureReport | null;
  /** The validity cohort "failure without an executed tool call" for the same evaluator. */
  cohort: NoExecutedCallCohort | null;
}

export async function loadFailuresPanel(db: Db, filter: DashboardFilter): Promise<FailuresPanel> {
  const { value, ...b } = await withBase(
    db,
    filter,
    async (scope): Promise<Pick<FailuresPanel, "report" | "cohort">> => {
      const evaluator = scope.evaluator;
      const [report, cohort] = await Promise.all([
        failureReportCached(db, scope),
        evaluator ? noExecutedCallCohort(db, { ...scope.filter, evaluator }) : Promise.resolve(null),
      ]);
      return { report, cohort };
    },
    { report: null, cohort: null },
  );
  return { ...b, ...value };
}

export interface EmulatorPanel extends HumanPanelBase {
  report: EmulatorQualityReport | null;
}

export async function loadEmulatorPanel(db: Db, filter: DashboardFilter): Promise<EmulatorPanel> {
  const { value: report, ...b } = await withBase<EmulatorPanel["report"]>(db, filter, (scope) => emulatorQualityCached(db, scope), null);
  return { ...b, report };
}
