import Link from "next/link";
import type { TrajectoryRow } from "@/lib/toolemu/queries/trajectories";
import { filterQuery, type TrajectoryFilter, type TrajectorySort } from "@/lib/toolemu/filters";
import { DataTable, type Column, type ColumnSort } from "@/components/ui/data-table";
import { ScoreList } from "./score-badge";
import { SearchSnippets } from "./search-snippets";
import { MODE_LABELS, formatDate, shortModel, truncate } from "./format";

type Dir = "ascending" | "descending";

/** A column's URL sort: it cycles through `sorts`; the active one is marked. */
function sortOf(filter: TrajectoryFilter, sorts: [TrajectorySort, Dir][]): ColumnSort {
  const idx = sorts.findIndex(([s]) => s === filter.sort);
  const next = sorts[(idx + 1) % sorts.length]![0];
  return { active: idx >= 0 ? sorts[idx]![1] : undefined, href: `/trajectories${filterQuery({ ...filter, sort: next, page: 1 })}` };
}

export function TrajectoryTable({ rows, filter }: { rows: TrajectoryRow[]; filter: TrajectoryFilter }) {
  const carry = filterQuery(filter, { page: false });
  const visible = (scores: TrajectoryRow["scores"]) => (filter.evaluator ? scores.filter((s) => s.evaluatorModel === filter.evaluator) : scores);
  const columns: Column<TrajectoryRow>[] = [
    {
      key: "case", header: "Case", sort: sortOf(filter, [["case", "ascending"]]), className: "max-w-md",
      cell: (r) => (
        <>
          <Link href={`/trajectories/${r.id}${carry}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" aria-label={`Trajectory ${r.id} of case ${r.caseName}`}>{r.caseName}</Link>
          <p className="mt-0.5 text-xs text-slate-600" title={r.instruction}>{truncate(r.instruction, 120)}</p>
          {r.search && <SearchSnippets search={r.search} href={`/trajectories/${r.id}${carry}`} />}
        </>
      ),
    },
    { key: "agent", header: "Agent", className: "whitespace-nowrap", cell: (r) => <span title={r.agentModel}>{shortModel(r.agentModel)}</span> },
    {
      key: "emulator", header: "Emulator", className: "whitespace-nowrap",
      cell: (r) => (
        <>
          <span title={r.emulatorModel}>{shortModel(r.emulatorModel)}</span>
          <span className={`ml-1.5 rounded px-1.5 py-0.5 text-xs ${r.emulatorMode === "ADVERSARIAL" ? "bg-purple-50 text-purple-700" : "bg-slate-100 text-slate-600"}`}>{MODE_LABELS[r.emulatorMode]}</span>
        </>
      ),
    },
    {
      key: "status", header: "Status", className: "whitespace-nowrap",
      cell: (r) => (
        <>
          <span className={r.status === "FINISHED" ? "text-slate-700" : "text-amber-700"}>{r.status === "FINISHED" ? "Finished" : "Incomplete"}</span>
          <span className="text-slate-500"> · </span>
          <span className="tabular-nums">{r.stepCount}</span> {r.stepCount === 1 ? "step" : "steps"}
          {r.hasErrors && <span className="ml-1.5 rounded bg-rose-50 px-1.5 py-0.5 text-xs text-rose-700" title="A tool observation reported an error">error</span>}
        </>
      ),
    },
    { key: "safety", header: "Safety", sort: sortOf(filter, [["safety", "ascending"], ["safety-desc", "descending"]]), cell: (r) => <ScoreList kind="SAFETY" scores={visible(r.scores)} /> },
    { key: "helpfulness", header: "Helpfulness", sort: sortOf(filter, [["helpfulness", "ascending"], ["helpfulness-desc", "descending"]]), cell: (r) => <ScoreList kind="HELPFULNESS" scores={visible(r.scores)} /> },
    { key: "imported", header: "Imported", headerClassName: "whitespace-nowrap", sort: sortOf(filter, [["newest", "descending"], ["oldest", "ascending"]]), className: "whitespace-nowrap text-xs text-slate-500 tabular-nums", cell: (r) => formatDate(r.createdAt) },
  ];
  return (
    <DataTable testId="trajectory-table" rows={rows} columns={columns} rowKey={(r) => r.id} pad="px-3 py-2.5" headerPad="px-3 py-2"
      rowProps={(r) => ({ "data-testid": "trajectory-row", "data-trajectory-id": r.id })} />
  );
}
