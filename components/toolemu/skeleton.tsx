// Placeholders for loading.tsx while a page's query runs.
export function SkeletonBlock({ className = "" }: { className?: string }) {
  return <div className={`animate-pulse rounded-md bg-slate-200/80 ${className}`} />;
}

export function PageSkeleton({ label, rows = 8, withFilters = false }: { label: string; rows?: number; withFilters?: boolean }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true" data-testid="loading">
      <span className="sr-only">Loading {label}…</span>
      <SkeletonBlock className="mb-2 h-7 w-48" />
      <SkeletonBlock className="mb-6 h-4 w-96 max-w-full" />
      {withFilters && <SkeletonBlock className="mb-4 h-20 w-full" />}
      <div className="space-y-2 rounded-xl border border-slate-200 bg-white p-4">
        {Array.from({ length: rows }, (_, i) => <SkeletonBlock key={i} className="h-10 w-full" />)}
      </div>
    </div>
  );
}

export function DetailSkeleton({ label, cards = 3 }: { label: string; cards?: number }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true" data-testid="loading">
      <span className="sr-only">Loading {label}…</span>
      <SkeletonBlock className="mb-2 h-4 w-40" />
      <SkeletonBlock className="mb-6 h-8 w-72" />
      <SkeletonBlock className="mb-6 h-24 w-full" />
      <div className="space-y-4">
        {Array.from({ length: cards }, (_, i) => <SkeletonBlock key={i} className="h-40 w-full" />)}
      </div>
    </div>
  );
}
