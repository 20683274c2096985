"use client";

// Recent generation jobs with their progress (model calls made of those planned, the stage), the
// estimate beside what was spent, and the items by review status. While a job is queued or
// running the list refreshes every 2 s.
import { useEffect, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import type { GenerationJobRow } from "@/lib/runs/generation/queries";
import { GENERATION_KIND_LABELS } from "@/lib/authoring/schemas";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { ScrollRegion } from "@/components/ui/scroll-region";

const STATUS_CLS: Record<string, string> = {
  QUEUED: "bg-slate-100 text-slate-700",
  RUNNING: "bg-sky-100 text-sky-800",
  DONE: "bg-emerald-100 text-emerald-800",
  FAILED: "bg-rose-100 text-rose-800",
  CANCELLED: "bg-amber-100 text-amber-900",
};

export function GenerationJobs({ jobs, cancel, canCancel }: { jobs: GenerationJobRow[]; cancel: (input: { id: string }) => Promise<ActionResult<{ id: string }>>; canCancel: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const active = jobs.some((j) => j.status === "QUEUED" || j.status === "RUNNING");
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => router.refresh(), 2000);
    return () => clearInterval(t);
  }, [active, router]);

  if (jobs.length === 0) {
    return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-500" data-testid="generation-jobs-empty">No generation job yet. Choose a generator above, check the estimate and confirm.</p>;
  }
  return (
    <ScrollRegion>
      {error && <p role="alert" className="m-3 rounded-md bg-rose-50 p-2 text-sm text-rose-800">{error}</p>}
      <table className="min-w-full text-sm" data-testid="generation-jobs">
        <caption className="sr-only">Recent generation jobs</caption>
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2">Job</th>
            <th scope="col" className="px-4 py-2">Status</th>
            <th scope="col" className="px-4 py-2">Progress</th>
            <th scope="col" className="px-4 py-2 text-right" title="Model calls and cost: what was spent, against the estimate">Spent / estimate</th>
            <th scope="col" className="px-4 py-2">Items</th>
            <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {jobs.map((j) => {
            const pct = j.progress.total ? Math.min(100, Math.round((j.progress.done / j.progress.total) * 100)) : 0;
            return (
              <tr key={j.id} className="align-top" data-testid={`generation-job-${j.id}`} data-status={j.status}>
                <td className="px-4 py-2">
                  <div className="font-medium text-slate-900">{GENERATION_KIND_LABELS[j.kind]}</div>
                  <div className="max-w-md text-xs text-slate-600">{j.summary}</div>
                  <div className="text-xs text-slate-500">{j.createdBy} · {new Date(j.createdAt).toLocaleString()} · {j.endpointName}</div>
                  {j.error && <div className="mt-1 text-xs text-rose-700">{j.error}</div>}
                </td>
                <td className="px-4 py-2"><span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_CLS[j.status]}`}>{j.status.toLowerCase()}</span></td>
                <td className="px-4 py-2">
                  <div className="h-2 w-32 rounded bg-slate-100" role="progressbar" aria-valuemin={0} aria-valuemax={j.progress.total || 1} aria-valuenow={j.progress.done} aria-label={`${j.progress.done} of ${j.progress.total} calls`}>
                    <div className="h-2 rounded bg-indigo-500" style={{ width: `${pct}%` }} />
                  </div>
                  <div className="mt-1 text-xs text-slate-600">{j.progress.done}/{j.progress.total} calls · {j.progress.stage}</div>
                </td>
                <td className="px-4 py-2 text-right text-xs tabular-nums">
                  <div>{fmtInt(j.usage.calls ?? 0)} / {fmtInt(j.estimate.calls)} calls</div>
                  <div>{fmtInt((j.usage.inputTokens ?? 0) + (j.usage.outputTokens ?? 0))} / ≈{fmtInt(j.estimate.inputTokens + j.estimate.outputTokens)} tokens</div>
                  <div>{fmtUsd(j.usage.costUsd ?? 0)} / ≈{fmtUsd(j.estimate.costUsd)}</div>
                </td>
                <td className="px-4 py-2 text-xs">
                  <Link href={`/generate/review?job=${j.id}&status=ALL`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">
                    {j.items.PENDING} to review · {j.items.ACCEPTED} accepted · {j.items.REJECTED} rejected
                  </Link>
                  {j.progress.invalid ? <div className="text-rose-700">{j.progress.invalid} invalid (flagged)</div> : null}
                </td>
                <td className="px-4 py-2">
                  {canCancel && (j.status === "QUEUED" || j.status === "RUNNING") && (
                    <button type="button" className="text-xs text-rose-700 hover:underline" onClick={async () => {
                      const res = await cancel({ id: j.id });
                      if (!res.ok) setError(res.error);
                      router.refresh();
                    }}>Cancel</button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
