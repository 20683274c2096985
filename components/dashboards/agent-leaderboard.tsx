"use client";

// The agent leaderboard table, sortable by any column (client-side; the rows are few). Rows come
// from lib/dashboards/agents.ts (loadAgentsPanel) as plain data.
import { useState } from "react";
import type { AgentIntervals, AgentSummary } from "@/lib/metrics";
import { MODE_NAMES, type EmulatorModeValue } from "@/lib/dashboards/filters";
import { fmtInt } from "@/lib/dashboards/format";
import { Estimate } from "./estimate";

export interface LeaderboardRow {
  agent: string;
  /** Short display name; the full name goes in the title. */
  agentLabel: string;
  mode: EmulatorModeValue;
  trajectories: number;
  nSafety: number;
  nHelpfulness: number;
  failures: number;
  summary: AgentSummary;
  intervals: AgentIntervals;
}

type SortKey = "agent" | "mode" | "meanSafety" | "meanHelpfulness" | "failureRate" | "n";
type Dir = "asc" | "desc";

const value = (r: LeaderboardRow, key: SortKey): number | string | null => {
  switch (key) {
    case "agent":
      return r.agentLabel.toLowerCase();
    case "mode":
      return r.mode;
    case "n":
      return r.trajectories;
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
  return (dir === "asc" ? c : -c) || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : a.mode < b.mode ? 1 : -1);
}

const COLUMNS: { key: SortKey; label: string; hint?: string; firstDir: Dir }[] = [
  { key: "agent", label: "Agent model", firstDir: "asc" },
  { key: "mode", label: "Emulator", firstDir: "asc" },
  { key: "meanSafety", label: "Mean safety", hint: "0–3, higher is safer", firstDir: "desc" },
  { key: "meanHelpfulness", label: "Mean helpfulness", hint: "0–3, higher is more helpful", firstDir: "desc" },
  { key: "failureRate", label: "Failure rate", hint: "share with safety ≤ 1", firstDir: "asc" },
  { key: "n", label: "Trajectories", firstDir: "desc" },
];

export function AgentLeaderboard({ rows }: { rows: LeaderboardRow[] }) {
  const [sort, setSort] = useState<{ key: SortKey; dir: Dir }>({ key: "meanSafety", dir: "desc" });
  const sorted = [...rows].sort((a, b) => compare(a, b, sort.key, sort.dir));
  const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
  const td = "px-3 py-2 align-top";
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="agent-leaderboard">
        <caption className="sr-only">Agent leaderboard, sorted by {COLUMNS.find((c) => c.key === sort.key)?.label} ({sort.dir === "asc" ? "ascending" : "descending"})</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>#</th>
            {COLUMNS.map((c) => {
              const active = sort.key === c.key;
              return (
                <th key={c.key} scope="col" className={th} aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : "none"}>
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 uppercase hover:text-slate-900"
                    onClick={() => setSort(active ? { key: c.key, dir: sort.dir === "asc" ? "desc" : "asc" } : { key: c.key, dir: c.firstDir })}
                    data-testid={`sort-${c.key}`}
                    title={c.hint ? `Sort by ${c.label.toLowerCase()} (${c.hint})` : `Sort by ${c.label.toLowerCase()}`}
                  >
                    {c.label}
                    <span aria-hidden="true" className={active ? "text-indigo-600" : "text-slate-300"}>{active ? (sort.dir === "asc" ? "▲" : "▼") : "↕"}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {sorted.map((r, i) => (
            <tr key={`${r.agent}|${r.mode}`} data-testid="agent-row">
              <td className={`${td} tabular-nums text-slate-500`}>{i + 1}</td>
              <th scope="row" className={`${td} text-left font-medium text-slate-900`} title={r.agent}>{r.agentLabel}</th>
              <td className={td}>{MODE_NAMES[r.mode]}</td>
              <td className={td}><Estimate value={r.summary.meanSafety} ci={r.intervals.meanSafety} n={r.nSafety} digits={3} layout="stacked" /></td>
              <td className={td}><Estimate value={r.summary.meanHelpfulness} ci={r.intervals.meanHelpfulness} n={r.nHelpfulness} digits={3} layout="stacked" /></td>
              <td className={td}>
                <Estimate value={r.summary.failureRate} ci={r.intervals.failureRate} format="percent" layout="stacked" />
                <span className="text-xs text-slate-500">{fmtInt(r.failures)} of {fmtInt(r.nSafety)}</span>
              </td>
              <td className={`${td} tabular-nums`}>{fmtInt(r.trajectories)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
