// Failures per emulator mode: N, identified (I), true (T), T ∩ I, identified-failure precision and
// true-failure incidence under both definitions, each with its CI and n; every count and every
// share links to the list of trajectories behind it (TrajectoryLists: ?list=<mode>.<key>, shown below
// the table, #lists). Server or client.
import type { ConfidenceInterval, Ratio, SensitivityRange } from "@/lib/metrics";
import { fmtInt } from "@/components/ui/format";
import { Estimate } from "../estimate";
import { TiesExcluded } from "./ties-excluded";
import { ScrollRegion } from "@/components/ui/scroll-region";

export type ListKey = "identified" | "true" | "identifiedTrue" | "identifiedOnly" | "trueOnly" | "all";

export interface FailureTableRow {
  mode: string;
  label: string;
  n: number;
  identified: number;
  trueFailures: number;
  identifiedTrue: number;
  precision: ShareCell;
  incidenceSeed: ShareCell;
  incidencePaper: ShareCell;
  unscored: number;
  /** Scored items whose T is a tie left out (tie policy "exclude"). */
  tiesExcluded?: number;
}

type ShareCell = { value: Ratio; ci: ConfidenceInterval; range?: SensitivityRange };

export const listId = (mode: string, key: ListKey) => `fail-${mode}-${key}`;

/** The page's URL with a list chosen: `base` is the page's URL with its filters (and no list or page). */
export function listHref(base: string, mode: string, key: ListKey): string {
  return `${base}${base.includes("?") ? "&" : "?"}list=${encodeURIComponent(`${mode}.${key}`)}#lists`;
}

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 align-bottom";
const td = "px-3 py-3 align-top";

function Count({ n, mode, list, testId, base }: { n: number; mode: string; list: ListKey; testId: string; base: string }) {
  return (
    <a href={listHref(base, mode, list)} className="font-semibold tabular-nums text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid={testId}>
      {fmtInt(n)}
    </a>
  );
}

function Share({ s, mode, list, testId, of, base }: { s: ShareCell; mode: string; list: ListKey; testId: string; of: string; base: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <Estimate value={s.value} ci={s.ci} range={s.range} format="percent" layout="stacked" testId={testId} />
      <span className="text-xs text-slate-500">
        {fmtInt(s.value.numerator)} / <a href={listHref(base, mode, list)} className="text-indigo-700 underline">{fmtInt(s.value.denominator)} {of}</a>
      </span>
    </div>
  );
}

/** `base`: the page's URL with its filters; each number links to it with its list chosen. */
export function FailureTable({ rows, base }: { rows: FailureTableRow[]; base: string }) {
  return (
    <ScrollRegion>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="failure-table">
        <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-800">Identified and true failures per emulator mode (click a number for its trajectories)</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Emulator</th>
            <th scope="col" className={th}>N<span className="block font-normal normal-case text-slate-500">scored &amp; labelled</span></th>
            <th scope="col" className={th}>Identified |I|<span className="block font-normal normal-case text-slate-500">evaluator safety ≤ 1</span></th>
            <th scope="col" className={th}>True |T|<span className="block font-normal normal-case text-slate-500">human ground truth: failure, no critical issue</span></th>
            <th scope="col" className={th}>|T ∩ I|</th>
            <th scope="col" className={th}>Identified-failure precision<span className="block font-normal normal-case text-slate-500">|T ∩ I| / |I|</span></th>
            <th scope="col" className={th}>True-failure incidence (seed)<span className="block font-normal normal-case text-slate-500">|T ∩ I| / |T|</span></th>
            <th scope="col" className={th}>True-failure incidence (paper)<span className="block font-normal normal-case text-slate-500">|T ∩ I| / N</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.mode} className={r.mode === "ALL" ? "bg-slate-50/60" : undefined} data-testid={`failure-row-${r.mode}`}>
              <th scope="row" className={`${td} text-left font-medium text-slate-800`}>
                {r.label}
                {r.unscored > 0 && <span className="block text-xs font-normal text-slate-500">+{fmtInt(r.unscored)} labelled, not scored</span>}
              </th>
              <td className={td}>
                <Count n={r.n} mode={r.mode} list="all" testId={`n-${r.mode}`} base={base} />
                <TiesExcluded count={r.tiesExcluded} testId={`ties-excluded-${r.mode}`} />
              </td>
              <td className={td}><Count n={r.identified} mode={r.mode} list="identified" testId={`identified-${r.mode}`} base={base} /></td>
              <td className={td}><Count n={r.trueFailures} mode={r.mode} list="true" testId={`true-${r.mode}`} base={base} /></td>
              <td className={td}><Count n={r.identifiedTrue} mode={r.mode} list="identifiedTrue" testId={`identified-true-${r.mode}`} base={base} /></td>
              <td className={td}><Share s={r.precision} mode={r.mode} list="identified" testId={`precision-${r.mode}`} of="identified" base={base} /></td>
              <td className={td}><Share s={r.incidenceSeed} mode={r.mode} list="true" testId={`incidence-seed-${r.mode}`} of="true" base={base} /></td>
              <td className={td}><Share s={r.incidencePaper} mode={r.mode} list="all" testId={`incidence-paper-${r.mode}`} of="all" base={base} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
