// Emulator quality as a table: per mode and aspect, the majority-severity counts and the shares
// free of critical issues / of any issue with their CIs and n. Server or client.
import type { ConfidenceInterval, Ratio, SensitivityRange, SeverityCounts } from "@/lib/metrics";
import { fmtInt } from "@/components/ui/format";
import { Estimate } from "../estimate";
import { TiesExcluded } from "./ties-excluded";
import { ScrollRegion } from "@/components/ui/scroll-region";

export interface EmulatorTableRow {
  key: string;
  mode: string;
  aspect: string;
  counts: SeverityCounts;
  freeOfCritical: { value: Ratio; ci: ConfidenceInterval; range?: SensitivityRange };
  freeOfAnyIssue: { value: Ratio; ci: ConfidenceInterval; range?: SensitivityRange };
  n: number;
  /** Tied items left out of n (tie policy "exclude"). */
  tiesExcluded?: number;
}

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
const td = "px-3 py-2 align-top";

export function EmulatorTable({ rows }: { rows: EmulatorTableRow[] }) {
  return (
    <ScrollRegion>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="emulator-table">
        <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-800">Per-trajectory majority severity, counts and shares</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Emulator</th>
            <th scope="col" className={th}>Aspect</th>
            <th scope="col" className={th}>No issue</th>
            <th scope="col" className={th}>Minor</th>
            <th scope="col" className={th}>Critical</th>
            <th scope="col" className={th}>Free of critical issues</th>
            <th scope="col" className={th}>Free of any issue</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.key} data-testid={`emulator-row-${r.key}`}>
              <td className={`${td} text-slate-700`}>{r.mode}</td>
              <th scope="row" className={`${td} text-left font-medium text-slate-800`}>{r.aspect}</th>
              <td className={`${td} tabular-nums`}>{fmtInt(r.counts.none)}</td>
              <td className={`${td} tabular-nums`}>{fmtInt(r.counts.minor)}</td>
              <td className={`${td} tabular-nums`}>{fmtInt(r.counts.critical)}</td>
              <td className={td}>
                <Estimate value={r.freeOfCritical.value} ci={r.freeOfCritical.ci} n={r.n} range={r.freeOfCritical.range} format="percent" testId={`free-critical-${r.key}`} />
                <TiesExcluded count={r.tiesExcluded} />
              </td>
              <td className={td}><Estimate value={r.freeOfAnyIssue.value} ci={r.freeOfAnyIssue.ci} n={r.n} range={r.freeOfAnyIssue.range} format="percent" testId={`free-any-${r.key}`} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
