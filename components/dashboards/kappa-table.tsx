// The agreement table: κ variants (categorical, linear, quadratic on 0–3; binarized at ≥ 2), raw
// agreement, mean bias and n — one column per pair of raters — plus a marginals table. Server or
// client (no hooks). Inputs come straight from lib/metrics:
//
//   const cm = confusionFromCells(rowsFromSql);                 // 4×4 counts
//   <KappaTable columns={[{ heading: "Qwen3-32B vs gpt-5-mini", summary: agreementSummary(cm),
//                           intervals: agreementIntervals(cm, { seed }) }]} />
//   <MarginalsTable summary={agreementSummary(cm)} rater1="Qwen3-32B" rater2="gpt-5-mini" kind="SAFETY" />
//
// Several columns make ToolEmu's layout (e.g. "evaluator vs human" | "human vs human"); a
// column's `testId` prefixes its cells' test ids (`<testId>-kappa-linear`), else `kappa-linear`.
// Undefined values show "undefined — reason"; a column may also give `extraRows` (e.g. α).
import type { ReactNode } from "react";
import type { AgreementIntervals, AgreementSummary, ConfidenceInterval, Estimate as EstimateValue, KappaVariant, SensitivityRange } from "@/lib/metrics";
import { Estimate } from "./estimate";
import { fmtInt, fmtPercent } from "@/components/ui/format";
import type { KindValue } from "@/lib/dashboards/filters";
import { ScrollRegion } from "@/components/ui/scroll-region";

export interface KappaColumn {
  heading: ReactNode;
  summary: AgreementSummary;
  intervals?: AgreementIntervals;
  /** Tie policy "sensitivity": each statistic's range over the tie resolutions. */
  ranges?: Partial<Record<KappaVariant | "rawAgreement" | "meanBias", SensitivityRange>>;
  testId?: string;
}

export const KAPPA_ROWS: { variant: KappaVariant; label: string; hint: string }[] = [
  { variant: "categorical", label: "κ categorical", hint: "unweighted, 0–3: any disagreement counts 1" },
  { variant: "linear", label: "κ linear", hint: "0–3, disagreement weighted |i − j|" },
  { variant: "quadratic", label: "κ quadratic", hint: "0–3, disagreement weighted (i − j)²" },
  { variant: "binarized", label: "κ binarized", hint: "score ≥ 2 vs < 2, unweighted" },
];

export interface ExtraRow {
  label: string;
  hint?: string;
  /** One cell per column, in column order. */
  cells: { value: EstimateValue | null; ci?: ConfidenceInterval; n?: number; format?: "decimal" | "percent" }[];
}

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
// Model names keep their case.
const thName = "px-3 py-2 text-left text-xs font-semibold text-slate-700";
const td = "px-3 py-2 align-top";

export function KappaTable({ columns, caption, extraRows = [] }: { columns: KappaColumn[]; caption?: ReactNode; extraRows?: ExtraRow[] }) {
  const tid = (c: KappaColumn, what: string) => (c.testId ? `${c.testId}-${what}` : what);
  return (
    <ScrollRegion>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="kappa-table">
        {caption && <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-800">{caption}</caption>}
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Statistic</th>
            {columns.map((c, i) => (
              <th key={i} scope="col" className={thName}>{c.heading}</th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {KAPPA_ROWS.map((row) => (
            <tr key={row.variant}>
              <th scope="row" className={`${td} text-left font-medium text-slate-800`}>
                {row.label}
                <span className="block text-xs font-normal text-slate-500">{row.hint}</span>
              </th>
              {columns.map((c, i) => (
                <td key={i} className={td}>
                  <Estimate value={c.summary.kappa[row.variant]} ci={c.intervals?.[row.variant]} n={c.summary.kappa[row.variant].n} range={c.ranges?.[row.variant]} chanceCorrected testId={tid(c, `kappa-${row.variant}`)} />
                </td>
              ))}
            </tr>
          ))}
          <tr>
            <th scope="row" className={`${td} text-left font-medium text-slate-800`}>
              Raw agreement
              <span className="block text-xs font-normal text-slate-500">share of items with the same score</span>
            </th>
            {columns.map((c, i) => (
              <td key={i} className={td}>
                <Estimate value={c.summary.rawAgreement} ci={c.intervals?.rawAgreement} n={c.summary.n} range={c.ranges?.rawAgreement} format="percent" testId={tid(c, "raw-agreement")} />
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row" className={`${td} text-left font-medium text-slate-800`}>
              Mean bias
              <span className="block text-xs font-normal text-slate-500">mean of (second − first) score; &gt; 0: the second scores higher</span>
            </th>
            {columns.map((c, i) => (
              <td key={i} className={td}>
                <Estimate value={c.summary.meanBias} ci={c.intervals?.meanBias} n={c.summary.n} range={c.ranges?.meanBias} testId={tid(c, "mean-bias")} />
              </td>
            ))}
          </tr>
          {extraRows.map((row) => (
            <tr key={row.label}>
              <th scope="row" className={`${td} text-left font-medium text-slate-800`}>
                {row.label}
                {row.hint && <span className="block text-xs font-normal text-slate-500">{row.hint}</span>}
              </th>
              {row.cells.map((cell, i) => (
                <td key={i} className={td}>
                  <Estimate value={cell.value} ci={cell.ci} n={cell.n} format={cell.format} />
                </td>
              ))}
            </tr>
          ))}
          <tr className="bg-slate-50/60">
            <th scope="row" className={`${td} text-left font-medium text-slate-800`}>
              Paired items (n)
              <span className="block text-xs font-normal text-slate-500">items with a score from both</span>
            </th>
            {columns.map((c, i) => (
              <td key={i} className={`${td} tabular-nums`} data-testid={tid(c, "n")}>{fmtInt(c.summary.n)}</td>
            ))}
          </tr>
        </tbody>
      </table>
    </ScrollRegion>
  );
}

const KIND_SCALE: Record<KindValue, Record<number, string>> = {
  SAFETY: { 3: "Certain No Risk", 2: "Possible Mild Risk", 1: "Likely Mild / Possible Severe", 0: "Likely Severe Risk" },
  HELPFULNESS: { 3: "Excellent", 2: "Good", 1: "Unsatisfactory", 0: "Poor" },
};

/** How often each rater used each label, as counts and shares of n. */
export function MarginalsTable({ summary, rater1, rater2, kind }: { summary: AgreementSummary; rater1: ReactNode; rater2: ReactNode; kind?: KindValue }) {
  const m = summary.marginals;
  const share = (r: (typeof m.rater1Shares)[number]) => (r.undefined ? "—" : fmtPercent(r.value));
  return (
    <ScrollRegion>
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="marginals-table">
        <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-800">Marginals: how often each used each score</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Score</th>
            <th scope="col" className={thName}>{rater1}</th>
            <th scope="col" className={thName}>{rater2}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {m.labels.map((label, i) => (
            <tr key={label}>
              <th scope="row" className={`${td} text-left font-medium text-slate-800`}>
                {label}
                {kind && <span className="ml-2 text-xs font-normal text-slate-500">{KIND_SCALE[kind][label]}</span>}
              </th>
              <td className={`${td} tabular-nums`}>{fmtInt(m.rater1[i]!)} <span className="text-xs text-slate-500">({share(m.rater1Shares[i]!)})</span></td>
              <td className={`${td} tabular-nums`}>{fmtInt(m.rater2[i]!)} <span className="text-xs text-slate-500">({share(m.rater2Shares[i]!)})</span></td>
            </tr>
          ))}
          <tr className="bg-slate-50/60">
            <th scope="row" className={`${td} text-left font-medium text-slate-800`}>n</th>
            <td className={`${td} tabular-nums`}>{fmtInt(m.n)}</td>
            <td className={`${td} tabular-nums`}>{fmtInt(m.n)}</td>
          </tr>
        </tbody>
      </table>
    </ScrollRegion>
  );
}

export { KIND_SCALE };
