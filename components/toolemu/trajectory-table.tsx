import Link from "next/link";
import type { TrajectoryRow } from "@/lib/toolemu/queries/trajectories";
import { filterQuery, type TrajectoryFilter, type TrajectorySort } from "@/lib/toolemu/filters";
import { ScoreList } from "./score-badge";
import { MODE_LABELS, formatDate, shortModel, truncate } from "./format";

type Dir = "ascending" | "descending";

/** A column header that cycles through its sorts; aria-sort tells which one is active. */
function SortHeader({ filter, label, sorts, className = "" }: { filter: TrajectoryFilter; label: string; sorts: [TrajectorySort, Dir][]; className?: string }) {
  const idx = sorts.findIndex(([s]) => s === filter.sort);
  const active = idx >= 0 ? sorts[idx]![1] : undefined;
  const next = sorts[(idx + 1) % sorts.length]![0];
  return (
    <th scope="col" aria-sort={active ?? "none"} className={`px-3 py-2 ${className}`}>
      <Link href={`/trajectories${filterQuery({ ...filter, sort: next, page: 1 })}`} className="inline-flex items-center gap-1 hover:text-slate-900">
        {label}
        <span aria-hidden="true" className={active ? "text-indigo-600" : "text-slate-300"}>{active === "descending" ? "▼" : active === "ascending" ? "▲" : "↕"}</span>
      </Link>
    </th>
  );
}

export function TrajectoryTable({ rows, filter }: { rows: TrajectoryRow[]; filter: TrajectoryFilter }) {
  const carry = filterQuery(filter, { page: false });
  const visible = (scores: TrajectoryRow["scores"]) => (filter.evaluator ? scores.filter((s) => s.evaluatorModel === filter.evaluator) : scores);
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="trajectory-table">
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <SortHeader filter={filter} label="Case" sorts={[["case", "ascending"]]} />
            <th scope="col" className="px-3 py-2">Agent</th>
            <th scope="col" className="px-3 py-2">Emulator</th>
            <th scope="col" className="px-3 py-2">Status</th>
            <SortHeader filter={filter} label="Safety" sorts={[["safety", "ascending"], ["safety-desc", "descending"]]} />
            <SortHeader filter={filter} label="Helpfulness" sorts={[["helpfulness", "ascending"], ["helpfulness-desc", "descending"]]} />
            <SortHeader filter={filter} label="Imported" sorts={[["newest", "descending"], ["oldest", "ascending"]]} className="whitespace-nowrap" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.id} data-testid="trajectory-row" data-trajectory-id={r.id} className="align-top hover:bg-slate-50">
              <td className="max-w-md px-3 py-2.5">
                <Link href={`/trajectories/${r.id}${carry}`} className="font-medium text-indigo-700 hover:underline" aria-label={`Trajectory ${r.id} of case ${r.caseName}`}>{r.caseName}</Link>
                <p className="mt-0.5 text-xs text-slate-600" title={r.instruction}>{truncate(r.instruction, 120)}</p>
              </td>
              <td className="px-3 py-2.5 whitespace-nowrap" title={r.agentModel}>{shortModel(r.agentModel)}</td>
              <td className="px-3 py-2.5 whitespace-nowrap">
                <span title={r.emulatorModel}>{shortModel(r.emulatorModel)}</span>
                <span className={`ml-1.5 rounded px-1.5 py-0.5 text-xs ${r.emulatorMode === "ADVERSARIAL" ? "bg-purple-50 text-purple-700" : "bg-slate-100 text-slate-600"}`}>{MODE_LABELS[r.emulatorMode]}</span>
              </td>
              <td className="px-3 py-2.5 whitespace-nowrap">
                <span className={r.status === "FINISHED" ? "text-slate-700" : "text-amber-700"}>{r.status === "FINISHED" ? "Finished" : "Incomplete"}</span>
                <span className="text-slate-400"> · </span>
                <span className="tabular-nums">{r.stepCount}</span> {r.stepCount === 1 ? "step" : "steps"}
                {r.hasErrors && <span className="ml-1.5 rounded bg-rose-50 px-1.5 py-0.5 text-xs text-rose-700" title="A tool observation reported an error">error</span>}
              </td>
              <td className="px-3 py-2.5"><ScoreList kind="SAFETY" scores={visible(r.scores)} /></td>
              <td className="px-3 py-2.5"><ScoreList kind="HELPFULNESS" scores={visible(r.scores)} /></td>
              <td className="px-3 py-2.5 whitespace-nowrap text-xs text-slate-500 tabular-nums">{formatDate(r.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
