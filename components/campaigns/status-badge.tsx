export function CampaignStatusBadge({ locked }: { locked: boolean }) {
  return locked ? (
    <span className="inline-flex items-center gap-1 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700" data-testid="campaign-status" data-status="locked">
      <span aria-hidden="true">🔒</span> Locked
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800" data-testid="campaign-status" data-status="open">
      <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-emerald-600" /> Open
    </span>
  );
}

export function AdjudicatedBadge() {
  return <span className="inline-flex items-center rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-inset ring-indigo-200" data-testid="adjudicated-badge">Adjudicated</span>;
}
