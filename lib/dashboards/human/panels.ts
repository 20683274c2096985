// The one query function of each human-label dashboard page (server only):
//   loadAgreementPanel(db, filter)  → /dashboards/agreement
//   loadFailuresPanel(db, filter)   → /dashboards/failures
//   loadEmulatorPanel(db, filter)   → /dashboards/emulator
// Each returns the filter-bar options, the resolved scope (campaign, evaluator, seed) or why there
// is none, and the panel's numbers (lib/dashboards/human.ts), kept per campaign version
// (./human-cached.ts: a request after a label is submitted or revised, or evaluations are
// imported, recomputes them).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { DashboardFilter, FilterOption } from "./filters";
import { loadFilterOptions } from "./options";
import { noExecutedCallCohort, type NoExecutedCallCohort } from "./cohorts";
import { emulatorQualityCached, evaluatorVsHumanCached, failureReportCached, humanAgreementCached } from "./human-cached";
import {
  resolveHumanScope,
  type EmulatorQualityReport,
  type EvaluatorVsHuman,
  type FailureReport,
  type HumanAgreement,
  type HumanScope,
  type HumanScopeResult,
} from "./human";

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

async function base(db: Db, filter: DashboardFilter): Promise<HumanPanelBase> {
  const [options, resolved] = await Promise.all([loadFilterOptions(db), resolveHumanScope(db, filter)]);
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
  };
}

export interface AgreementPanel extends HumanPanelBase {
  evaluatorVsHuman: EvaluatorVsHuman | null;
  human: HumanAgreement | null;
}

export async function loadAgreementPanel(db: Db, filter: DashboardFilter): Promise<AgreementPanel> {
  const b = await base(db, filter);
  if (!b.scope) return { ...b, evaluatorVsHuman: null, human: null };
  const [evh, human] = await Promise.all([evaluatorVsHumanCached(db, b.scope), humanAgreementCached(db, b.scope)]);
  return { ...b, evaluatorVsHuman: evh, human };
}

export interface FailuresPanel extends HumanPanelBase {
  report: FailureReport | null;
  /** The validity cohort "failure without an executed tool call" for the same evaluator. */
  cohort: NoExecutedCallCohort | null;
}

export async function loadFailuresPanel(db: Db, filter: DashboardFilter): Promise<FailuresPanel> {
  const b = await base(db, filter);
  if (!b.scope) return { ...b, report: null, cohort: null };
  const evaluator = b.scope.evaluator;
  const [report, cohort] = await Promise.all([
    failureReportCached(db, b.scope),
    evaluator ? noExecutedCallCohort(db, { ...b.scope.filter, evaluator }) : Promise.resolve(null),
  ]);
  return { ...b, report, cohort };
}

export interface EmulatorPanel extends HumanPanelBase {
  report: EmulatorQualityReport | null;
}

export async function loadEmulatorPanel(db: Db, filter: DashboardFilter): Promise<EmulatorPanel> {
  const b = await base(db, filter);
  return { ...b, report: b.scope ? await emulatorQualityCached(db, b.scope) : null };
}
