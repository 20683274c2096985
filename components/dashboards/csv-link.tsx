// "Download CSV" for one panel: a plain link to the guarded route app/(app)/dashboards/csv,
// which looks the panel up in the registry lib/dashboards/csv.ts and returns its numbers for the
// same filter. Server or client (no hooks, imports nothing server-only).
//
//   <CsvLink panel="evaluators" filter={filter} />
//   <CsvLink panel="agreement" filter={filter} label="Download κ table (CSV)" />
import { DownloadLink } from "@/components/ui/panel";
import { dashboardFilterToSearchParams, type DashboardFilter } from "@/lib/dashboards/filters";

export function csvHref(panel: string, filter: Partial<DashboardFilter>): string {
  const p = dashboardFilterToSearchParams(filter);
  p.set("panel", panel);
  // Always spell out the seed: the file should say which seed its CIs come from.
  if (filter.seed !== undefined) p.set("seed", String(filter.seed));
  return `/dashboards/csv?${p.toString()}`;
}

export function CsvLink({ panel, filter, label = "Download CSV", disabled = false }: { panel: string; filter: Partial<DashboardFilter>; label?: string; disabled?: boolean }) {
  return <DownloadLink href={csvHref(panel, filter)} label={label} disabled={disabled} testId={`csv-${panel}`} title="The numbers behind this panel, for the current filter" />;
}
