// Loading placeholder of a dashboard panel (for loading.tsx): tabs, filter bar, a table and a
// chart-sized block. Server or client.
//
//   export default function Loading() { return <PanelSkeleton label="evaluator agreement" /> }
import { SkeletonBlock } from "@/components/toolemu/skeleton";

export function PanelSkeleton({ label, filters = true, blocks = 2 }: { label: string; filters?: boolean; blocks?: number }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true" data-testid="loading">
      <span className="sr-only">Loading {label}…</span>
      <div className="mb-6 flex gap-3 border-b border-slate-200 pb-2">
        {Array.from({ length: 6 }, (_, i) => <SkeletonBlock key={i} className="h-5 w-20" />)}
      </div>
      <SkeletonBlock className="mb-2 h-7 w-64" />
      <SkeletonBlock className="mb-6 h-4 w-[32rem] max-w-full" />
      {filters && <SkeletonBlock className="mb-6 h-32 w-full" />}
      <div className="grid gap-6 lg:grid-cols-2">
        {Array.from({ length: blocks }, (_, i) => (
          <div key={i} className="space-y-2 rounded-xl border border-slate-200 bg-white p-4">
            {Array.from({ length: 6 }, (_, j) => <SkeletonBlock key={j} className="h-9 w-full" />)}
          </div>
        ))}
      </div>
    </div>
  );
}
