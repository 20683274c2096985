import { fmtInt } from "@/components/ui/format";

/** A compact progress bar for table cells: "7 / 12" with a thin bar under it. */
export function MiniBar({ done, total, label, testId }: { done: number; total: number; label: string; testId?: string }) {
  const pct = total > 0 ? Math.round((Math.min(done, total) / total) * 100) : 0;
  return (
    <div className="min-w-28" data-testid={testId}>
      <div className="flex items-baseline justify-between gap-2 text-xs tabular-nums">
        <span className="font-medium text-slate-800">{fmtInt(done)} / {fmtInt(total)}</span>
        <span className="text-slate-500">{pct}%</span>
      </div>
      <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-200" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={label}>
        <div className={`h-full rounded-full ${pct === 100 ? "bg-emerald-600" : "bg-indigo-600"}`} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
