"use client";

// The agent leaderboard table, sortable by any column (client-side; the rows are few). Rows come
// from lib/dashboards/agents.ts (loadAgentsPanel) as plain data. With `correction` (a validation
// campaign measured the evaluator), a column beside the failure rate shows it corrected for the
// evaluator's sensitivity and specificity.
import { useState, type ReactNode } from "react";
import type { AgentIntervals, AgentSummary } from "@/lib/metrics";
import type { Ratio } from "@/lib/metrics/estimate";
import type { WilsonInterval } from "@/lib/metrics/bootstrap";
import type { CorrectedRate, CorrectedRateInterval } from "@/lib/metrics/rogan-gladen";
import { MODE_NAMES, type EmulatorModeValue } from "@/lib/dashboards/filters";
import { fmtInt } from "@/components/ui/format";
import { DataTable, nextSort, type Column } from "@/components/ui/data-table";
import { Estimate } from "./estimate";

export interface LeaderboardRow {
  agent: string;
  /** Short display name; the full name goes in the title. */
  agentLabel: string;
  /** Prompt variant of emulated episodes; null for imported ones. */
  variant: string | null;
  mode: EmulatorModeValue;
  trajectories: number;
  quits: number;
  quitRate: Ratio;
  quitInterval: WilsonInterval;
  nSafety: number;
  nHelpfulness: number;
  failures: number;
  summary: AgentSummary;
  intervals: AgentIntervals;
  corrected?: { rate: CorrectedRate; interval: CorrectedRateInterval };
}

/** What the corrected column's header says about the evaluator (Se, Sp with n). */
export interface CorrectionHeader {
  /** e.g. "Se 80.0% (n = 5) · Sp 90.0% (n = 10)" */
  accuracy: string;
  campaign: string;
}

type SortKey = "agent" | "mode" | "meanSafety" | "meanHelpfulness" | "failureRate" | "corrected" | "quitRate" | "n";
type Dir = "asc" | "desc";

const value = (r: LeaderboardRow, key: SortKey): number | string | null => {
  switch (key) {
    case "agent":
      return r.agentLabel.toLowerCase();
    case "mode":
      return r.mode;
    case "n":
      return r.trajectories;
    case "corrected":
      return !r.corrected || r.corrected.rate.undefined ? null : r.corrected.rate.value;
    case "quitRate":
      return r.quitRate.undefined ? null : r.quitRate.value;
    default: {
      const e = r.summary[key];
      return e.undefined ? null : e.value;
    }
  }
};

function compare(a: LeaderboardRow, b: LeaderboardRow, key: SortKey, dir: Dir): number {
  const x = value(a, key);
  const y = value(b, key);
  // Undefined values sort last in either direction.
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  const c = x < y ? -1 : x > y ? 1 : 0;
  return (dir === "asc" ? c : -c) || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : (a.variant ?? "") < (b.variant ?? "") ? -1 : (a.variant ?? "") > (b.variant ?? "") ? 1 : a.mode < b.mode ? 1 : -1);
}

interface LeaderColumn {
  key: SortKey;
  label: string;
  hint?: string;
  firstDir: Dir;
  /** A second line under the heading. */
  sub?: string;
}

const COLUMNS: LeaderColumn[] = [
  { key: "agent", label: "Agent model", firstDir: "asc" },
  { key: "mode", label: "Emulator", firstDir: "asc" },
  { key: "meanSafety", label: "Mean safety", hint: "0–3, higher is safer", firstDir: "desc" },
  { key: "meanHelpfulness", label: "Mean helpfulness", hint: "0–3, higher is more helpful", firstDir: "desc" },
  { key: "failureRate", label: "Failure rate", hint: "share with safety ≤ 1", firstDir: "asc" },
  { key: "quitRate", label: "Quit rate", hint: "share of trajectories the agent ended with QUIT: <reason>", firstDir: "desc" },
  { key: "n", label: "Trajectories", firstDir: "desc" },
];

const CLIP_NOTE = {
  low: "The formula gave a value below 0 (the raw rate is below the evaluator's false-alarm rate 1 − Sp); shown as 0.",
  high: "The formula gave a value above 1 (the raw rate is above the evaluator's sensitivity Se); shown as 1.",
} as const;

export function AgentLeaderboard({ rows, correction }: { rows: LeaderboardRow[]; correction?: CorrectionHeader }) {
  const [sort, setSort] = useState<{ key: SortKey; dir: Dir }>({ key: "meanSafety", dir: "desc" });
  const columns: LeaderColumn[] = correction
    ? COLUMNS.flatMap((c) =>
        c.key === "failureRate"
          ? [c, { key: "corrected", label: "Corrected for judge error", hint: `Rogan–Gladen, validation campaign ${correction.campaign}`, sub: correction.accuracy, firstDir: "asc" }]
          : [c],
      )
    : COLUMNS;
  const sorted = [...rows].sort((a, b) => compare(a, b, sort.key, sort.dir));
  const td = "align-top";
  const cells: Record<SortKey, (r: LeaderboardRow) => ReactNode> = {
    agent: (r) => (
      <span title={r.agent}>
        {r.agentLabel}
        {r.variant && <span className="ml-1.5 rounded bg-slate-100 px-1.5 py-0.5 text-[11px] font-normal text-slate-600" data-testid="agent-variant">{r.variant}</span>}
      </span>
    ),
    mode: (r) => MODE_NAMES[r.mode],
    meanSafety: (r) => <Estimate value={r.summary.meanSafety} ci={r.intervals.meanSafety} n={r.nSafety} digits={3} layout="stacked" />,
    meanHelpfulness: (r) => <Estimate value={r.summary.meanHelpfulness} ci={r.intervals.meanHelpfulness} n={r.nHelpfulness} digits={3} layout="stacked" />,
    failureRate: (r) => (
      <>
        <Estimate value={r.summary.failureRate} ci={r.intervals.failureRate} format="percent" layout="stacked" />
        <span className="text-xs text-slate-500">{fmtInt(r.failures)} of {fmtInt(r.nSafety)}</span>
      </>
    ),
    corrected: (r) =>
      r.corrected ? (
        <div data-testid="corrected-cell">
          <Estimate value={r.corrected.rate} ci={r.corrected.interval} format="percent" layout="stacked" testId="corrected-value" />
          {r.corrected.rate.clipped && (
            <span className="text-xs text-amber-700" title={CLIP_NOTE[r.corrected.rate.clipped]}>clipped at {r.corrected.rate.clipped === "low" ? "0" : "1"}</span>
          )}
          {!r.corrected.rate.undefined && !r.corrected.interval.undefined && r.corrected.interval.skipped > 0 && (
            <span className="text-xs text-slate-500" title="Resamples where Se* or Sp* was undefined, or Se* + Sp* ≤ 1, are left out of the interval">
              {fmtInt(r.corrected.interval.skipped)} of {fmtInt(r.corrected.interval.resamples)} resamples skipped
            </span>
          )}
        </div>
      ) : (
        <span className="text-xs text-slate-500" data-testid="corrected-cell">—</span>
      ),
    quitRate: (r) => (
      <div data-testid="quit-cell">
        <Estimate value={r.quitRate} ci={r.quitInterval} format="percent" layout="stacked" />
        <span className="text-xs text-slate-500">{fmtInt(r.quits)} of {fmtInt(r.trajectories)}</span>
      </div>
    ),
    n: (r) => <span className="tabular-nums">{fmtInt(r.trajectories)}</span>,
  };
  const table: Column<LeaderboardRow>[] = [
    { key: "rank", header: "#", className: `${td} tabular-nums text-slate-500`, cell: (_r, i) => i + 1 },
    ...columns.map((c): Column<LeaderboardRow> => {
      const active = sort.key === c.key;
      return {
        key: c.key,
        header: c.label,
        rowHeader: c.key === "agent",
        className: c.key === "agent" ? `${td} font-medium text-slate-900` : td,
        sort: {
          active: active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined,
          onClick: () => setSort(nextSort(sort, c.key, c.firstDir)),
          testId: `sort-${c.key}`,
          title: c.hint ? `Sort by ${c.label.toLowerCase()} (${c.hint})` : `Sort by ${c.label.toLowerCase()}`,
        },
        sub: c.sub && <span className="mt-0.5 block text-[11px] font-normal normal-case tracking-normal text-slate-500" data-testid="corrected-accuracy">{c.sub}</span>,
        cell: cells[c.key],
      };
    }),
  ];
  return (
    <DataTable testId="agent-leaderboard" rows={sorted} columns={table} rowKey={(r) => `${r.agent}|${r.variant ?? ""}|${r.mode}`} rowProps={() => ({ "data-testid": "agent-row" })} rowClassName=""
      pad="px-3 py-2" headerPad="px-3 py-2" headClassName="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600"
      caption={`Agent leaderboard, sorted by ${columns.find((c) => c.key === sort.key)?.label} (${sort.dir === "asc" ? "ascending" : "descending"})`} />
  );
}
