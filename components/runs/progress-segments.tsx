// The run's progress bar: done (green), failed (red), cancelled (grey), running (indigo, striped),
// waiting for an answer to a flagged call (amber; only runs with an online critic gate), queued
// (empty), with a legend that doubles as the screen-reader text.
import { fmtInt } from "@/components/ui/format";

export interface Counts {
  queued: number;
  running: number;
  /** Paused by the online critic gate (absent: 0). */
  waiting?: number;
  done: number;
  failed: number;
  cancelled: number;
  total: number;
}

const SEGMENTS = [
  { key: "done", label: "done", bar: "bg-emerald-600", dot: "bg-emerald-600" },
  { key: "failed", label: "with an error", bar: "bg-rose-500", dot: "bg-rose-500" },
  { key: "cancelled", label: "cancelled", bar: "bg-slate-400", dot: "bg-slate-400" },
  { key: "running", label: "running", bar: "bg-indigo-500 animate-pulse", dot: "bg-indigo-500" },
  { key: "waiting", label: "waiting for an answer", bar: "bg-amber-400", dot: "bg-amber-400" },
  { key: "queued", label: "queued", bar: "", dot: "bg-slate-200 ring-1 ring-slate-300" },
] as const;

export function ProgressSegments({ counts, compact = false }: { counts: Counts; compact?: boolean }) {
  const total = Math.max(1, counts.total);
  const ended = counts.done + counts.failed + counts.cancelled;
  const pct = Math.round((ended / total) * 100);
  const n = (k: (typeof SEGMENTS)[number]["key"]) => counts[k] ?? 0;
  // The waiting segment only where an episode waits (runs without a gate never have one).
  const segments = SEGMENTS.filter((s) => s.key !== "waiting" || n("waiting") > 0);
  const text = `${fmtInt(ended)} of ${fmtInt(counts.total)} episodes ended: ${segments.map((s) => `${fmtInt(n(s.key))} ${s.label}`).join(", ")}`;
  return (
    <div data-testid="run-progress" data-done={counts.done} data-failed={counts.failed} data-running={counts.running} data-queued={counts.queued} data-total={counts.total}>
      <div className={`flex overflow-hidden rounded-full bg-slate-200 ${compact ? "h-1.5" : "h-3"}`} role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={text}>
        {segments.filter((s) => s.key !== "queued").map((s) => (
          <div key={s.key} className={`h-full ${s.bar} transition-all`} style={{ width: `${(n(s.key) / total) * 100}%` }} />
        ))}
      </div>
      {!compact && (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-hidden="true">
          {segments.map((s) => (
            <li key={s.key} className="flex items-center gap-1.5">
              <span className={`inline-block h-2 w-2 rounded-full ${s.dot}`} />
              <span className="tabular-nums font-medium text-slate-800" data-testid={`count-${s.key}`}>{fmtInt(n(s.key))}</span> {s.label}
            </li>
          ))}
          <li className="ml-auto tabular-nums">{pct}% ended</li>
        </ul>
      )}
    </div>
  );
}
