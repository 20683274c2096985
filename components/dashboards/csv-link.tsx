// "Download CSV" for one panel: a plain link to the guarded route app/(app)/dashboards/csv,
// which looks the panel up in the registry lib/dashboards/csv.ts and returns its numbers for the
// same filter. Server or client (no hooks, imports nothing server-only).
//
//   <CsvLink panel="evaluators" filter={filter} />
//   <CsvLink panel="agreement" filter={filter} label="Download κ table (CSV)" />
import { dashboardFilterToSearchParams, type DashboardFilter } from "@/lib/dashboards/filters";

export function csvHref(panel: string, filter: Partial<DashboardFilter>): string {
  const p = dashboardFilterToSearchParams(filter);
  p.set("panel", panel);
  // Always spell out the seed: the file should say which seed its CIs come from.
  if (filter.seed !== undefined) p.set("seed", String(filter.seed));
  return `/dashboards/csv?${p.toString()}`;
}

export function CsvLink({ panel, filter, label = "Download CSV", disabled = false }: { panel: string; filter: Partial<DashboardFilter>; label?: string; disabled?: boolean }) {
  const cls = "inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50";
  if (disabled) return <span className="text-sm text-slate-400">No numbers to download</span>;
  return (
    <a href={csvHref(panel, filter)} download className={cls} data-testid={`csv-${panel}`} title="The numbers behind this panel, for the current filter">
      <span aria-hidden="true">⤓</span>
      {label}
    </a>
  );
}
