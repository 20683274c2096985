"use client";

// Per-annotator statistics with the PI's exclude / restore (each with a reason), and drift as ten
// bars (majority agreement per tenth of the annotator's items, in submission order, with n).
import { useId, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import { FormError, primaryButtonCls, secondaryButtonCls } from "@/components/ui/form";
import { UndefinedValue } from "@/components/dashboards/undefined-value";
import type { AnnotatorRow } from "@/lib/annotation/quality/stats-query";
import { ScrollRegion } from "@/components/ui/scroll-region";

type Act = (i: { campaignId: string; annotatorId: string; reason: string }) => Promise<ActionResult<unknown>>;

const pct = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(0)}%`);

function Ratio({ r, testId }: { r: { agree: number; n: number; value: number | null }; testId: string }) {
  return (
    <span data-testid={testId} title={r.n ? `${r.agree} of ${r.n}` : "nothing to compare"}>
      <span className="font-medium tabular-nums">{pct(r.value)}</span> <span className="text-xs text-slate-500 tabular-nums">n={r.n}</span>
    </span>
  );
}

function Drift({ drift }: { drift: AnnotatorRow["drift"] }) {
  const label = drift.map((d, i) => `tenth ${i + 1}: ${d.n ? `${pct(d.value)} of ${d.n}` : "no items"}`).join("; ");
  return (
    <span className="inline-flex h-8 items-end gap-0.5" role="img" aria-label={`Agreement with the majority by tenth of the items: ${label}`} data-testid="drift">
      {drift.map((d, i) => (
        <span key={i} title={`Tenth ${i + 1}: ${d.n ? `${d.agree} of ${d.n} (${pct(d.value)})` : "no items"}`}
          className={`w-2 rounded-sm ${d.n ? "bg-indigo-500" : "bg-slate-200"}`} style={{ height: d.n ? `${Math.max(8, (d.value ?? 0) * 100)}%` : "8%" }} />
      ))}
    </span>
  );
}

export function AnnotatorStatsTable({ campaignId, rows, mayExclude, exclude, restore }: { campaignId: string; rows: AnnotatorRow[]; mayExclude: boolean; exclude: Act; restore: Act }) {
  const router = useRouter();
  const uid = useId();
  const [open, setOpen] = useState<{ row: AnnotatorRow; restoring: boolean } | null>(null);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const reasonRef = useRef<HTMLTextAreaElement>(null);

  const begin = (row: AnnotatorRow, restoring: boolean) => {
    setOpen({ row, restoring });
    setReason("");
    setError(null);
    requestAnimationFrame(() => reasonRef.current?.focus());
  };

  return (
    <div className="space-y-3">
      <p role="status" className="text-sm text-emerald-700 empty:hidden" data-testid="exclusion-notice">{notice}</p>
      <ScrollRegion>
        <table className="w-full text-left text-sm" data-testid="annotator-stats">
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-3 py-2">Annotator</th>
              <th className="px-3 py-2 text-right">Labels</th>
              <th className="px-3 py-2">Gold</th>
              <th className="px-3 py-2">Majority</th>
              <th className="px-3 py-2">κ vs others</th>
              <th className="px-3 py-2 text-right">Time / item</th>
              <th className="px-3 py-2">Drift (majority by tenth)</th>
              <th className="px-3 py-2">Qualification</th>
              <th className="px-3 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.annotatorId} className={r.excluded ? "bg-rose-50/50" : undefined} data-testid="annotator-stat-row" data-annotator={r.name}>
                <td className="px-3 py-2">
                  <span className="font-medium text-slate-900">{r.name}</span>
                  {r.excluded && <span className="ml-2 rounded bg-rose-100 px-1.5 py-0.5 text-xs font-medium text-rose-800" title={r.excluded.reason} data-testid="excluded-badge">excluded</span>}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{r.labels}</td>
                <td className="px-3 py-2"><Ratio r={r.gold} testId="stat-gold" /></td>
                <td className="px-3 py-2"><Ratio r={r.majority} testId="stat-majority" /></td>
                <td className="px-3 py-2" data-testid="stat-kappa">
                  {r.kappa.value === null ? <UndefinedValue symbol="κ" reason={r.kappa.reason ?? "no value"} size="compact" /> : <span className="font-medium tabular-nums">{r.kappa.value.toFixed(2)}</span>}{" "}
                  <span className="text-xs text-slate-500 tabular-nums">{r.kappa.others} others, n={r.kappa.n}</span>
                </td>
                <td className="px-3 py-2 text-right tabular-nums" data-testid="stat-time">{r.medianSeconds === null ? "—" : `${r.medianSeconds.toFixed(0)} s`}</td>
                <td className="px-3 py-2"><Drift drift={r.drift} /></td>
                <td className="px-3 py-2 text-xs" data-testid="stat-qualification">
                  {r.qualification ? <span className={r.qualification.passed ? "text-emerald-700" : "text-rose-700"}>{r.qualification.passed ? "passed" : "failed"} ({pct(r.qualification.score)} of {r.qualification.items})</span> : <span className="text-slate-500">—</span>}
                </td>
                <td className="px-3 py-2 text-right">
                  {mayExclude && (
                    <button type="button" className={secondaryButtonCls} onClick={() => begin(r, !!r.excluded)} data-testid={r.excluded ? "restore-annotator" : "exclude-annotator"}>
                      {r.excluded ? "Restore…" : "Exclude…"}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {open && (
        <form
          aria-labelledby={`${uid}-title`}
          className="rounded-xl border border-slate-300 bg-white p-4 shadow-sm"
          data-testid="exclusion-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!reason.trim()) {
              setError("Say why: the reason is kept with the exclusion and in the audit log.");
              reasonRef.current?.focus();
              return;
            }
            start(async () => {
              const input = { campaignId, annotatorId: open.row.annotatorId, reason };
              const r = await (open.restoring ? restore(input) : exclude(input));
              if (r.ok) {
                setNotice(open.restoring ? `${open.row.name}'s labels count again.` : `${open.row.name}'s labels are left out of every metric and export of this campaign.`);
                setOpen(null);
                router.refresh();
              } else setError(r.error);
            });
          }}
          onKeyDown={(e) => e.key === "Escape" && setOpen(null)}
        >
          <h3 id={`${uid}-title`} className="text-sm font-semibold">{open.restoring ? `Restore ${open.row.name}'s labels` : `Exclude ${open.row.name}'s labels`}</h3>
          <p className="mt-1 text-xs text-slate-600">
            {open.restoring ? "Their labels count again in the agreement dashboards and exports." : "Their labels stay stored but are left out of the agreement dashboards, the ties and the label export of this campaign. Reversible."} The reason is kept with who and when, and audited.
          </p>
          <label htmlFor={`${uid}-reason`} className="mt-3 block text-sm font-medium">Reason</label>
          <textarea ref={reasonRef} id={`${uid}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} rows={2} maxLength={2000} className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm" data-testid="exclusion-reason" />
          <FormError message={error} testId="exclusion-error" />
          <div className="mt-3 flex gap-2">
            <button type="submit" disabled={pending} className={primaryButtonCls} data-testid="exclusion-confirm">{open.restoring ? "Restore" : "Exclude"}</button>
            <button type="button" onClick={() => setOpen(null)} className={secondaryButtonCls}>Cancel</button>
          </div>
        </form>
      )}
    </div>
  );
}
