// Agent leaderboard, server only.
//
//   loadAgentsPanel(db, filter) → everything /dashboards/agents shows
//   agentScoreCounts(db, filter, evaluator) → per (agent, variant, mode): counts per score, from SQL
//   agentsCsv(db, filter) → the rows of the panel's CSV (registered in ./csv.ts)
//
// One SQL aggregate counts, per agent model, prompt variant, emulator mode, kind and score, the
// trajectories the chosen evaluator scored (GROUP BY). Variants of one model are separate rows:
// pooling a naive and a quitting agent would describe neither. Imported trajectories have no variant. Means, failure rate (safety ≤ 1) and their CIs are computed
// from those counts (lib/metrics agentSummary / agentIntervals).
//
// With a validation campaign chosen (filter.validation), each failure rate is also corrected for
// the evaluator's errors (Rogan–Gladen, lib/metrics/rogan-gladen.ts): Se and Sp of the same
// evaluator against the campaign's human true failures, from the failures panel's 2×2 counts
// (failureReportCached: same ground truth, tie policy and cache as that panel).
import "server-only";
import type { Db } from "@/lib/db/client";
import { agentIntervals, agentSummary, SCORE_LABELS, type AgentIntervals, type AgentSummary, type FailureCounts, type TiePolicy } from "@/lib/metrics";
import {
  correctedFailureRate,
  correctedFailureRateInterval,
  judgeAccuracy,
  type CorrectedRate,
  type CorrectedRateInterval,
  type JudgeAccuracy,
} from "@/lib/metrics/rogan-gladen";
import type { DashboardFilter, EmulatorModeValue, FilterOption } from "./filters";
import { failureReportCached } from "./human/failures";
import { resolveHumanScope } from "./human/scope";
import { loadFilterOptions, type FilterOptions } from "./options";
import { dashboardWhere, toInt } from "./sql";
import { cachedByData } from "./data-version";
import { ratio, type Ratio } from "@/lib/metrics/estimate";
import { wilsonInterval } from "@/lib/metrics/wilson";
import type { WilsonInterval } from "@/lib/metrics/bootstrap";
import type { CsvRow } from "./csv";

export const AGENT_RESAMPLES = 1000;

export interface AgentGroupCounts {
  agent: string;
  /** The prompt variant of emulated episodes (NAIVE, QUIT_SIMPLE, …); null for imported ones. */
  variant: string | null;
  mode: EmulatorModeValue;
  /** Trajectories of this agent, variant and mode under the filter (scored or not). */
  trajectories: number;
  /** Of those, episodes the agent ended with "QUIT: <reason>" (stop reason quit). */
  quits: number;
  /** counts[i] = trajectories with score SCORE_LABELS[i] from the evaluator. */
  safety: number[];
  helpfulness: number[];
}

const labelIndex = new Map(SCORE_LABELS.map((l, i) => [l, i]));

export async function agentScoreCounts(db: Db, filter: DashboardFilter, evaluator: string): Promise<AgentGroupCounts[]> {
  const [scores, totals] = await Promise.all([
    db.$queryRaw<{ agent: string; variant: string | null; mode: string; kind: string; score: number; n: bigint }[]>`
      SELECT t."agentModel" AS agent, t."agentVariant" AS variant, t."emulatorMode"::text AS mode, e.kind::text AS kind, e.score, count(*) AS n
      FROM "Evaluation" e JOIN "Trajectory" t ON t.id = e."trajectoryId"
      WHERE e."evaluatorModel" = ${evaluator} AND e.score IS NOT NULL AND ${dashboardWhere(filter)}
      GROUP BY 1, 2, 3, 4, 5`,
    db.$queryRaw<{ agent: string; variant: string | null; mode: string; n: bigint; quits: bigint }[]>`
      SELECT t."agentModel" AS agent, t."agentVariant" AS variant, t."emulatorMode"::text AS mode, count(*) AS n,
             count(*) FILTER (WHERE t."stopReason" = 'quit') AS quits
      FROM "Trajectory" t WHERE ${dashboardWhere(filter)} GROUP BY 1, 2, 3`,
  ]);
  const groups = new Map<string, AgentGroupCounts>();
  const group = (agent: string, variant: string | null, mode: string) => {
    const key = `${agent}\u0000${variant ?? ""}\u0000${mode}`;
    let g = groups.get(key);
    if (!g) {
      g = { agent, variant, mode: mode as EmulatorModeValue, trajectories: 0, quits: 0, safety: SCORE_LABELS.map(() => 0), helpfulness: SCORE_LABELS.map(() => 0) };
      groups.set(key, g);
    }
    return g;
  };
  for (const r of totals) {
    const g = group(r.agent, r.variant, r.mode);
    g.trajectories = toInt(r.n);
    g.quits = toInt(r.quits);
  }
  for (const r of scores) {
    const i = labelIndex.get(Number(r.score));
    if (i === undefined) continue; // outside 0..3: not a ToolEmu score
    const g = group(r.agent, r.variant, r.mode);
    (r.kind === "SAFETY" ? g.safety : g.helpfulness)[i]! += toInt(r.n);
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...groups.values()].sort((x, y) => cmp(x.agent, y.agent) || cmp(x.variant ?? "", y.variant ?? "") || -cmp(x.mode, y.mode));
}

export interface AgentRow {
  agent: string;
  variant: string | null;
  mode: EmulatorModeValue;
  trajectories: number;
  /** Share of the trajectories the agent quit ("QUIT: <reason>"), with a Wilson interval. */
  quitRate: Ratio;
  quitInterval: WilsonInterval;
  quits: number;
  /** Trajectories with a safety / helpfulness score from the evaluator. */
  nSafety: number;
  nHelpfulness: number;
  /** Of nSafety, those with safety ≤ 1. */
  failures: number;
  summary: AgentSummary;
  intervals: AgentIntervals;
  /** The failure rate corrected for judge error; only with a usable validation campaign. */
  corrected?: { rate: CorrectedRate; interval: CorrectedRateInterval };
}

/** The evaluator measured on a validation campaign, or why it could not be. */
export type AgentsValidation =
  | {
      status: "ok";
      campaignId: string;
      campaignName: string;
      /** The campaign's 2×2 cells for the page's evaluator (items matching the page's filters). */
      counts: FailureCounts;
      accuracy: JudgeAccuracy;
      /** Labelled items the evaluator did not score (not in Se, Sp). */
      unscored: number;
      /** The page's tie policy, and the scored items whose T is an unadjudicated tie. */
      tiePolicy: TiePolicy;
      ties: number;
      /** Of `ties`, left out of the counts ("exclude"); otherwise resolved with the seed. */
      tiesExcluded: number;
    }
  | { status: "unavailable"; campaignId: string; campaignName: string | null; reason: string };

export interface AgentsPanel {
  filter: DashboardFilter;
  options: FilterOptions;
  /** Evaluators with scores under the filter, most evaluations first. */
  evaluators: FilterOption[];
  evaluator: string | null;
  evaluatorSource: "url" | "default" | null;
  rows: AgentRow[];
  seed: number;
  resamples: number;
  /** Null when no validation campaign is chosen (the corrected column is hidden). */
  validation: AgentsValidation | null;
}

/** Evaluators by the number of parsed scores (both kinds) under the filter. */
async function evaluatorCounts(db: Db, filter: DashboardFilter): Promise<FilterOption[]> {
  const rows = await db.$queryRaw<{ model: string; n: bigint }[]>`
    SELECT e."evaluatorModel" AS model, count(*) AS n
    FROM "Evaluation" e JOIN "Trajectory" t ON t.id = e."trajectoryId"
    WHERE e.score IS NOT NULL AND ${dashboardWhere(filter)}
    GROUP BY 1 ORDER BY 2 DESC, 1`;
  return rows.map((r) => ({ value: r.model, count: toInt(r.n) }));
}

function toRow(g: AgentGroupCounts, seed: number): AgentRow {
  const counts = { safety: g.safety, helpfulness: g.helpfulness };
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  return {
    agent: g.agent,
    variant: g.variant,
    mode: g.mode,
    trajectories: g.trajectories,
    quits: g.quits,
    quitRate: ratio(g.quits, g.trajectories, "no trajectory under the filter"),
    quitInterval: wilsonInterval(g.quits, g.trajectories, undefined, "no trajectory under the filter"),
    nSafety: sum(g.safety),
    nHelpfulness: sum(g.helpfulness),
    failures: g.safety[0]! + g.safety[1]!,
    summary: agentSummary(counts),
    intervals: agentIntervals(counts, { seed, resamples: AGENT_RESAMPLES }),
  };
}

/**
 * Se and Sp of `evaluator` on the validation campaign. The page's filter goes through as it is
 * (agent, mode, toolkit narrow the campaign's items; seed and tie policy decide the ground
 * truth); only the campaign is replaced and the evaluator pinned to the page's.
 */
export async function loadValidation(db: Db, filter: DashboardFilter, evaluator: string): Promise<AgentsValidation | null> {
  const campaign = filter.validation;
  if (campaign === undefined) return null;
  const resolved = await resolveHumanScope(db, { ...filter, campaign, evaluator });
  const name = resolved.campaigns.find((c) => c.value === campaign)?.label ?? null;
  const unavailable = (reason: string): AgentsValidation => ({ status: "unavailable", campaignId: campaign, campaignName: name, reason });
  if (!resolved.scope) {
    return unavailable(
      resolved.missing === "no-labels"
        ? `campaign “${name}” has no submitted labels yet`
        : `no campaign with id “${campaign}” (deleted?) — choose another validation campaign`,
    );
  }
  const report = await failureReportCached(db, resolved.scope);
  const row = report.rows.find((r) => r.mode === "ALL") ?? report.rows[0];
  const counts = row?.counts ?? { identifiedTrue: 0, identifiedOnly: 0, trueOnly: 0, neither: 0 };
  const n = counts.identifiedTrue + counts.identifiedOnly + counts.trueOnly + counts.neither;
  if (n === 0) {
    return unavailable(`${evaluator} has no safety score on any labelled item of campaign “${resolved.scope.campaign.name}” that matches these filters`);
  }
  return {
    status: "ok",
    campaignId: campaign,
    campaignName: resolved.scope.campaign.name,
    counts,
    accuracy: judgeAccuracy(counts),
    unscored: row?.unscored ?? 0,
    tiePolicy: report.ties,
    ties: row?.ties ?? 0,
    tiesExcluded: row?.tiesExcluded ?? 0,
  };
}

function withCorrection(row: AgentRow, validation: AgentsValidation | null, seed: number): AgentRow {
  if (validation?.status !== "ok") return row;
  return {
    ...row,
    corrected: {
      rate: correctedFailureRate(row.failures, row.nSafety, validation.counts),
      interval: correctedFailureRateInterval(row.failures, row.nSafety, validation.counts, { seed, resamples: AGENT_RESAMPLES }),
    },
  };
}

/**
 * The one query of /dashboards/agents, kept per filter and data version with the label counters
 * (./data-version.ts: the validation campaign's labels decide the corrected rates).
 */
export function loadAgentsPanel(db: Db, filter: DashboardFilter): Promise<AgentsPanel> {
  return cachedByData(db, ["agentsPanel", filter], () => computeAgentsPanel(db, filter), ["labels"]);
}

async function computeAgentsPanel(db: Db, filter: DashboardFilter): Promise<AgentsPanel> {
  const [options, evaluators] = await Promise.all([loadFilterOptions(db), evaluatorCounts(db, filter)]);
  const evaluator = filter.evaluator ?? evaluators[0]?.value ?? null;
  const base = { filter, options, evaluators, seed: filter.seed, resamples: AGENT_RESAMPLES };
  if (evaluator === null) {
    const validation = filter.validation === undefined ? null : ({ status: "unavailable", campaignId: filter.validation, campaignName: null, reason: "no evaluator scored any trajectory under this filter" } as const);
    return { ...base, evaluator: null, evaluatorSource: null, rows: [], validation };
  }
  const [groups, validation] = await Promise.all([agentScoreCounts(db, filter, evaluator), loadValidation(db, filter, evaluator)]);
  return {
    ...base,
    evaluator,
    evaluatorSource: filter.evaluator ? "url" : "default",
    rows: groups.map((g) => withCorrection(toRow(g, filter.seed), validation, filter.seed)),
    validation,
  };
}

export const AGENTS_CSV_COLUMNS = [
  "agent",
  "agent_variant",
  "emulator_mode",
  "evaluator",
  "trajectories",
  "statistic",
  "value",
  "ci_lower",
  "ci_upper",
  "n",
  "numerator",
  "seed",
  "resamples",
  "note",
  "validation_campaign",
  "sensitivity",
  "sensitivity_n",
  "specificity",
  "specificity_n",
  "skipped_resamples",
] as const;

export async function agentsCsv(db: Db, filter: DashboardFilter): Promise<CsvRow[]> {
  const panel = await loadAgentsPanel(db, filter);
  const rows: CsvRow[] = [];
  for (const r of panel.rows) {
    for (const stat of ["meanSafety", "meanHelpfulness", "failureRate"] as const) {
      const e = r.summary[stat];
      const ci = r.intervals[stat];
      rows.push({
        agent: r.agent,
        agent_variant: r.variant,
        emulator_mode: r.mode,
        evaluator: panel.evaluator,
        trajectories: r.trajectories,
        statistic: { meanSafety: "mean_safety", meanHelpfulness: "mean_helpfulness", failureRate: "failure_rate" }[stat],
        value: e.undefined ? null : e.value,
        ci_lower: ci.undefined ? null : ci.lower,
        ci_upper: ci.undefined ? null : ci.upper,
        n: e.denominator,
        numerator: e.numerator,
        seed: panel.seed,
        resamples: panel.resamples,
        note: e.undefined ? `undefined: ${e.reason}` : ci.undefined ? `CI undefined: ${ci.reason}` : "",
      });
    }
    rows.push({
      agent: r.agent,
      agent_variant: r.variant,
      emulator_mode: r.mode,
      evaluator: panel.evaluator,
      trajectories: r.trajectories,
      statistic: "quit_rate",
      value: r.quitRate.undefined ? null : r.quitRate.value,
      ci_lower: r.quitInterval.undefined ? null : r.quitInterval.lower,
      ci_upper: r.quitInterval.undefined ? null : r.quitInterval.upper,
      n: r.trajectories,
      numerator: r.quits,
      note: "Wilson interval; quits are episodes ended with QUIT: <reason>, over all trajectories (scored or not)",
    });
    const v = panel.validation;
    if (v) rows.push({ ...correctedCells(r, v), agent: r.agent, agent_variant: r.variant, emulator_mode: r.mode, evaluator: panel.evaluator, trajectories: r.trajectories, seed: panel.seed, resamples: panel.resamples });
  }
  return rows;
}

/** The failure_rate_corrected row's cells (Se, Sp and their n on every such row). */
function correctedCells(r: AgentRow, v: AgentsValidation): CsvRow {
  const common = { statistic: "failure_rate_corrected", n: r.nSafety, numerator: r.failures, validation_campaign: v.campaignName ?? v.campaignId };
  if (v.status !== "ok" || !r.corrected) return { ...common, note: `undefined: ${v.status === "ok" ? "no correction" : v.reason}` };
  const { rate, interval } = r.corrected;
  const { sensitivity: se, specificity: sp } = v.accuracy;
  const notes = [
    rate.undefined ? `undefined: ${rate.reason}` : rate.clipped ? `clipped to ${rate.value} (the formula gave a value ${rate.clipped === "low" ? "below 0" : "above 1"})` : "",
    !rate.undefined && interval.undefined ? `CI undefined: ${interval.reason}` : "",
    interval.skipped > 0 && !interval.undefined ? `${interval.skipped} resamples skipped (${interval.skippedNoBetterThanChance} with Se + Sp ≤ 1)` : "",
  ].filter(Boolean);
  return {
    ...common,
    value: rate.undefined ? null : rate.value,
    ci_lower: interval.undefined ? null : interval.lower,
    ci_upper: interval.undefined ? null : interval.upper,
    note: notes.join("; "),
    sensitivity: se.undefined ? null : se.value,
    sensitivity_n: se.denominator,
    specificity: sp.undefined ? null : sp.value,
    specificity_n: sp.denominator,
    skipped_resamples: interval.skipped,
  };
}
