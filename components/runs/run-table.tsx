import Link from "next/link";
import { formatDate } from "@/components/toolemu/format";
import { DataTable, type Column } from "@/components/ui/data-table";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import type { RunListRow } from "@/lib/runs/queries";
import { RunStatusBadge } from "./status-badge";
import { ProgressSegments } from "./progress-segments";

const COLUMNS: Column<RunListRow>[] = [
  {
    key: "run", header: "Run", className: "max-w-sm",
    cell: (r) => (
      <>
        <Link href={`/runs/${r.id}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{r.name}</Link>
        <div className="text-xs text-slate-500">
          {r.kind === "SAGE" ? (
            <><span className="rounded bg-teal-50 px-1 font-medium text-teal-800 ring-1 ring-inset ring-teal-200" data-testid="run-kind-sage">SAGE</span> · {r.agents} agent{r.agents === 1 ? "" : "s"} · Trust vs Warning</>
          ) : r.kind === "CRITIC" ? (
            <><span className="rounded bg-amber-50 px-1 font-medium text-amber-800 ring-1 ring-inset ring-amber-200" data-testid="run-kind-critic">critic replay</span> · {r.evaluator ?? "(deleted endpoint)"}</>
          ) : r.kind === "EVALUATION" ? (
            <><span className="rounded bg-violet-50 px-1 font-medium text-violet-700 ring-1 ring-inset ring-violet-200" data-testid="run-kind-evaluation">evaluation</span> · {r.evaluatorBase ?? r.evaluator}</>
          ) : (
            <>{r.agents} agent{r.agents === 1 ? "" : "s"} · emulator {r.emulator} · {r.modes.map((m) => m.toLowerCase()).join(" + ")}</>
          )}
        </div>
      </>
    ),
  },
  { key: "status", header: "Status", cell: (r) => <RunStatusBadge status={r.status} /> },
  {
    key: "episodes", header: "Episodes", className: "min-w-48",
    cell: (r) => (
      <>
        <div className="mb-1 text-xs tabular-nums text-slate-700">{fmtInt(r.counts.done + r.counts.failed + r.counts.cancelled)} / {fmtInt(r.counts.total)}</div>
        <ProgressSegments counts={r.counts} compact />
      </>
    ),
  },
  { key: "failed", header: "Errors", align: "right", cell: (r) => (r.counts.failed ? <span className="text-rose-700">{fmtInt(r.counts.failed)}</span> : "0") },
  { key: "cost", header: "Cost", align: "right", cell: (r) => fmtUsd(r.costUsd) },
  {
    key: "created", header: "Created", className: "whitespace-nowrap text-xs text-slate-600",
    cell: (r) => (
      <>
        <div className="text-slate-800">{r.createdBy ?? "—"}</div>
        <div className="tabular-nums text-slate-500">{formatDate(r.createdAt)}</div>
      </>
    ),
  },
];

export function RunTable({ rows }: { rows: RunListRow[] }) {
  return <DataTable testId="run-table" rows={rows} columns={COLUMNS} rowKey={(r) => r.id} pad="px-4 py-3" rowClassName="align-middle hover:bg-slate-50" rowProps={(r) => ({ "data-testid": "run-row", "data-run-id": r.id })} />;
}
