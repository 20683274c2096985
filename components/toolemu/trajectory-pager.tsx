import Link from "next/link";
import { fmtInt } from "@/components/ui/format";

/** Previous / next within the current filter, with the position, and the keyboard hint. */
export function TrajectoryPager({ prevHref, nextHref, listHref, position, total, testIdPrefix = "" }: { prevHref: string | null; nextHref: string | null; listHref: string; position: number | null; total: number | null; testIdPrefix?: string }) {
  const btn = "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-50";
  const off = "rounded-md border border-slate-200 px-2.5 py-1 text-sm text-slate-500 bg-slate-50";
  return (
    <nav aria-label={testIdPrefix ? "Trajectories in this filter (bottom)" : "Trajectories in this filter"} className="flex flex-wrap items-center gap-2" data-testid={`${testIdPrefix}trajectory-pager`}>
      <Link href={listHref} className="text-sm text-slate-600 underline hover:text-slate-900">Back to list</Link>
      {position !== null && total !== null ? (
        <span className="text-sm text-slate-500 tabular-nums" data-testid={`${testIdPrefix}trajectory-position`}>{fmtInt(position)} of {fmtInt(total)}</span>
      ) : (
        <span className="text-sm text-slate-500">Not in the current filter</span>
      )}
      {prevHref ? <Link href={prevHref} rel="prev" className={btn} data-testid={`${testIdPrefix}prev-trajectory`} aria-keyshortcuts="k ArrowLeft">‹ Previous</Link> : <span className={off} aria-hidden="true">‹ Previous</span>}
      {nextHref ? <Link href={nextHref} rel="next" className={btn} data-testid={`${testIdPrefix}next-trajectory`} aria-keyshortcuts="j ArrowRight">Next ›</Link> : <span className={off} aria-hidden="true">Next ›</span>}
      <span className="hidden text-xs text-slate-500 md:inline">
        <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">k</kbd>/<kbd className="rounded border border-slate-300 bg-white px-1 font-mono">j</kbd> or ←/→ to move, <kbd className="rounded border border-slate-300 bg-white px-1 font-mono">u</kbd> for the list
      </span>
    </nav>
  );
}
