// The pairwise annotator κ matrix as a heatmap table: κ in every cell (the colour only repeats
// it: blue for agreement beyond chance, orange for below chance, white around 0), n and the CI in
// the cell's title, "—" on the diagonal and where two annotators share no item. Server or client.
import type { ConfidenceInterval, Estimate as EstimateValue } from "@/lib/metrics";
import { UndefinedValue } from "@/components/dashboards/undefined-value";
import { SMALL_N, fmt, fmtCi, fmtInt, isDegenerateInterval } from "@/components/ui/format";

export interface PairwiseCellData {
  value: EstimateValue;
  ci?: ConfidenceInterval;
  n: number;
}

// ColorBrewer "RdBu"-like, orange side for negative κ; readable in greyscale by lightness.
const POS = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#3182bd", "#08519c"];
const NEG = ["#fff5eb", "#fee6ce", "#fdd0a2", "#fdae6b", "#fd8d3c", "#e6550d", "#a63603"];

function colour(k: number): { bg: string; fg: string } {
  const scale = k >= 0 ? POS : NEG;
  const step = Math.min(scale.length - 1, Math.round(Math.abs(k) * (scale.length - 1)));
  return { bg: scale[step]!, fg: step >= 5 ? "#ffffff" : "#0f172a" };
}

export function PairwiseHeatmap({ names, cells, caption, testId = "pairwise-heatmap" }: { names: string[]; cells: (PairwiseCellData | null)[][]; caption: React.ReactNode; testId?: string }) {
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <figcaption className="mb-3 text-sm font-medium text-slate-800">{caption}</figcaption>
      <div className="overflow-x-auto">
        <table className="border-separate border-spacing-1 text-sm">
          <thead>
            <tr>
              <td />
              {names.map((n) => (
                <th key={n} scope="col" className="max-w-28 truncate px-1 text-center text-xs font-medium text-slate-600" title={n}>{n}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((rowName, i) => (
              <tr key={rowName}>
                <th scope="row" className="max-w-40 truncate pr-2 text-right text-xs font-medium text-slate-600" title={rowName}>{rowName}</th>
                {names.map((colName, j) => {
                  const c = cells[i]?.[j] ?? null;
                  if (i === j || !c) {
                    return (
                      <td key={colName} className="h-14 w-24 rounded-md bg-slate-50 text-center text-slate-500 ring-1 ring-slate-200 ring-inset" title={i === j ? "the same annotator" : "no item labelled by both"}>
                        —
                      </td>
                    );
                  }
                  if (c.value.undefined) {
                    return (
                      <td key={colName} className="h-14 w-24 rounded-md bg-amber-50 px-1 py-1 text-center ring-1 ring-amber-200 ring-inset" data-testid={`${testId}-cell-${i}-${j}`}>
                        <UndefinedValue symbol="κ" reason={c.value.reason} size="compact" />
                        <span className="block text-[10px] text-amber-700">n = {fmtInt(c.n)}</span>
                      </td>
                    );
                  }
                  const { bg, fg } = colour(c.value.value);
                  // Never a zero-width interval; κ to two decimals below SMALL_N items (see components/ui/format.ts).
                  const ci = isDegenerateInterval(c.ci) ? null : fmtCi(c.ci, "decimal", c.n < SMALL_N ? 2 : undefined);
                  return (
                    <td
                      key={colName}
                      className="h-14 w-24 rounded-md text-center tabular-nums ring-1 ring-slate-200 ring-inset"
                      style={{ backgroundColor: bg, color: fg }}
                      title={`${rowName} vs ${colName}: κ ${fmt(c.value.value, c.n < SMALL_N ? 2 : undefined)}${ci ? `, 95% CI ${ci}` : ""}, n = ${c.n}${c.n < SMALL_N ? " (small n)" : ""}`}
                      data-testid={`${testId}-cell-${i}-${j}`}
                      data-value={c.value.value}
                    >
                      <span className="text-sm font-semibold">{fmt(c.value.value, 2)}</span>
                      <span className="block text-[10px] opacity-80">n = {fmtInt(c.n)}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-1 text-xs text-slate-500" aria-hidden="true">
        <span className="mr-1">κ −1</span>
        {[...NEG].reverse().map((c) => <span key={c} className="inline-block h-3 w-4 rounded-sm ring-1 ring-slate-200" style={{ backgroundColor: c }} />)}
        {POS.map((c) => <span key={c} className="inline-block h-3 w-4 rounded-sm ring-1 ring-slate-200" style={{ backgroundColor: c }} />)}
        <span className="ml-1">+1</span>
        <span className="ml-3">Hover a cell for the 95% CI.</span>
      </div>
    </figure>
  );
}
