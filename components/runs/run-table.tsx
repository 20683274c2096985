import Link from "next/link";
import { formatDate } from "@/components/toolemu/format";
import type { RunListRow } from "@/lib/runs/queries";
import { RunStatusBadge } from "./status-badge";
import { ProgressSegments } from "./progress-segments";
import { fmtInt, fmtUsd } from "@/components/ui/format";

export function RunTable({ rows }: { rows: RunListRow[] }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="run-table">
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2">Run</th>
            <th scope="col" className="px-4 py-2">Status</th>
            <th scope="col" className="px-4 py-2">Episodes</th>
            <th scope="col" className="px-4 py-2 text-right">Failed</th>
            <th scope="col" className="px-4 py-2 text-right">Cost</th>
            <th scope="col" className="px-4 py-2">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.id} className="align-middle hover:bg-slate-50" data-testid="run-row" data-run-id={r.id}>
              <td className="max-w-sm px-4 py-3">
                <Link href={`/runs/${r.id}`} className="font-medium text-indigo-700 hover:underline">{r.name}</Link>
                <div className="text-xs text-slate-500">
                  {r.kind === "EVALUATION" ? (
                    <><span className="rounded bg-violet-50 px-1 font-medium text-violet-700 ring-1 ring-inset ring-violet-200" data-testid="run-kind-evaluation">evaluation</span> · {r.evaluatorBase ?? r.evaluator}</>
                  ) : (
                    <>{r.agents} agent{r.agents === 1 ? "" : "s"} · emulator {r.emulator} · {r.modes.map((m) => m.toLowerCase()).join(" + ")}</>
                  )}
                </div>
              </td>
              <td className="px-4 py-3"><RunStatusBadge status={r.status} /></td>
              <td className="min-w-48 px-4 py-3">
                <div className="mb-1 text-xs tabular-nums text-slate-700">{fmtInt(r.counts.done + r.counts.failed + r.counts.cancelled)} / {fmtInt(r.counts.total)}</div>
                <ProgressSegments counts={r.counts} compact />
              </td>
              <td className="px-4 py-3 text-right tabular-nums">{r.counts.failed ? <span className="text-rose-700">{fmtInt(r.counts.failed)}</span> : "0"}</td>
              <td className="px-4 py-3 text-right tabular-nums">{fmtUsd(r.costUsd)}</td>
              <td className="whitespace-nowrap px-4 py-3 text-xs text-slate-600">
                <div className="text-slate-800">{r.createdBy ?? "—"}</div>
                <div className="tabular-nums text-slate-500">{formatDate(r.createdAt)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
