// Agent leaderboard, server only.
//
//   loadAgentsPanel(db, filter) → everything /dashboards/agents shows
//   agentScoreCounts(db, filter, evaluator) → per (agent, mode): counts per score, from SQL
//   agentsCsv(db, filter) → the rows of the panel's CSV (registered in ./csv.ts)
//
// One SQL aggregate counts, per agent model, emulator mode, kind and score, the trajectories the
// chosen evaluator scored (GROUP BY). Means, failure rate (safety ≤ 1) and their bootstrap CIs
// are computed from those counts (lib/metrics agentSummary / agentIntervals).
import "server-only";
import type { Db } from "@/lib/db/client";
import { agentIntervals, agentSummary, SCORE_LABELS, type AgentIntervals, type AgentSummary } from "@/lib/metrics";
import type { DashboardFilter, EmulatorModeValue, FilterOption } from "./filters";
import { loadFilterOptions, type FilterOptions } from "./options";
import { dashboardWhere, toInt } from "./sql";
import type { CsvRow } from "./csv";

export const AGENT_RESAMPLES = 1000;

export interface AgentGroupCounts {
  agent: string;
  mode: EmulatorModeValue;
  /** Trajectories of this agent and mode under the filter (scored or not). */
  trajectories: number;
  /** counts[i] = trajectories with score SCORE_LABELS[i] from the evaluator. */
  safety: number[];
  helpfulness: number[];
}

const labelIndex = new Map(SCORE_LABELS.map((l, i) => [l, i]));

export async function agentScoreCounts(db: Db, filter: DashboardFilter, evaluator: string): Promise<AgentGroupCounts[]> {
  const [scores, totals] = await Promise.all([
    db.$queryRaw<{ agent: string; mode: string; kind: string; score: number; n: bigint }[]>`
      SELECT t."agentModel" AS agent, t."emulatorMode"::text AS mode, e.kind::text AS kind, e.score, count(*) AS n
      FROM "Evaluation" e JOIN "Trajectory" t ON t.id = e."trajectoryId"
      WHERE e."evaluatorModel" = ${evaluator} AND e.score IS NOT NULL AND ${dashboardWhere(filter)}
      GROUP BY 1, 2, 3, 4`,
    db.$queryRaw<{ agent: string; mode: string; n: bigint }[]>`
      SELECT t."agentModel" AS agent, t."emulatorMode"::text AS mode, count(*) AS n
      FROM "Trajectory" t WHERE ${dashboardWhere(filter)} GROUP BY 1, 2`,
  ]);
  const groups = new Map<string, AgentGroupCounts>();
  const group = (agent: string, mode: string) => {
    const key = `${agent}\u0000${mode}`;
    let g = groups.get(key);
    if (!g) {
      g = { agent, mode: mode as EmulatorModeValue, trajectories: 0, safety: SCORE_LABELS.map(() => 0), helpfulness: SCORE_LABELS.map(() => 0) };
      groups.set(key, g);
    }
    return g;
  };
  for (const r of totals) group(r.agent, r.mode).trajectories = toInt(r.n);
  for (const r of scores) {
    const i = labelIndex.get(Number(r.score));
    if (i === undefined) continue; // outside 0..3: not a ToolEmu score
    const g = group(r.agent, r.mode);
    (r.kind === "SAFETY" ? g.safety : g.helpfulness)[i]! += toInt(r.n);
  }
  return [...groups.values()].sort((x, y) => (x.agent < y.agent ? -1 : x.agent > y.agent ? 1 : x.mode < y.mode ? 1 : x.mode > y.mode ? -1 : 0));
}

export interface AgentRow {
  agent: string;
  mode: EmulatorModeValue;
  trajectories: number;
  /** Trajectories with a safety / helpfulness score from the evaluator. */
  nSafety: number;
  nHelpfulness: number;
  /** Of nSafety, those with safety ≤ 1. */
  failures: number;
  summary: AgentSummary;
  intervals: AgentIntervals;
}

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
    mode: g.mode,
    trajectories: g.trajectories,
    nSafety: sum(g.safety),
    nHelpfulness: sum(g.helpfulness),
    failures: g.safety[0]! + g.safety[1]!,
    summary: agentSummary(counts),
    intervals: agentIntervals(counts, { seed, resamples: AGENT_RESAMPLES }),
  };
}

/** The one query of /dashboards/agents. */
export async function loadAgentsPanel(db: Db, filter: DashboardFilter): Promise<AgentsPanel> {
  const [options, evaluators] = await Promise.all([loadFilterOptions(db), evaluatorCounts(db, filter)]);
  const evaluator = filter.evaluator ?? evaluators[0]?.value ?? null;
  const base = { filter, options, evaluators, seed: filter.seed, resamples: AGENT_RESAMPLES };
  if (evaluator === null) return { ...base, evaluator: null, evaluatorSource: null, rows: [] };
  const groups = await agentScoreCounts(db, filter, evaluator);
  return {
    ...base,
    evaluator,
    evaluatorSource: filter.evaluator ? "url" : "default",
    rows: groups.map((g) => toRow(g, filter.seed)),
  };
}

export const AGENTS_CSV_COLUMNS = [
  "agent",
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
  }
  return rows;
}
