// A confusion matrix as a heatmap table: counts in every cell (the colour only repeats them),
// a single-hue sequential scale that stays readable in greyscale and for colour-blind readers,
// text colour switched for contrast, the diagonal (agreement) outlined. Server or client.
//
//   <ConfusionHeatmap counts={cm.counts} labels={cm.labels}
//     rowTitle="Qwen3-32B" colTitle="gpt-5-mini" kind="SAFETY" caption="Safety scores" />
//
// Props: counts (rows = rater 1), labels (0..3), rowTitle / colTitle (axis labels), kind (adds
// the qualitative label names), caption, testId (default "confusion-heatmap"; each cell is
// `${testId}-cell-<row>-<col>`).
import type { ReactNode } from "react";
import type { KindValue } from "@/lib/dashboards/filters";
import { fmtInt, fmtPercent } from "@/components/ui/format";
import { KIND_SCALE } from "./kappa-table";

// Light → dark blue (ColorBrewer "Blues", 7 classes): ordered by lightness.
const SCALE = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#2171b5", "#08519c"];

function colourFor(count: number, max: number): { bg: string; fg: string } {
  if (count === 0 || max === 0) return { bg: "#ffffff", fg: "#64748b" };
  const step = Math.min(SCALE.length - 1, 1 + Math.floor((count / max) * (SCALE.length - 2) + 0.5));
  return { bg: SCALE[step]!, fg: step >= 5 ? "#ffffff" : "#0f172a" };
}

export function ConfusionHeatmap({
  counts,
  labels,
  rowTitle,
  colTitle,
  kind,
  caption,
  testId = "confusion-heatmap",
}: {
  counts: readonly (readonly number[])[];
  labels: readonly number[];
  rowTitle: ReactNode;
  colTitle: ReactNode;
  kind?: KindValue;
  caption?: ReactNode;
  testId?: string;
}) {
  let max = 0;
  let n = 0;
  for (const row of counts) for (const c of row) {
    max = Math.max(max, c);
    n += c;
  }
  const rowSums = counts.map((row) => row.reduce((a, b) => a + b, 0));
  const colSums = labels.map((_, j) => counts.reduce((a, row) => a + row[j]!, 0));
  const name = (l: number) => (kind ? KIND_SCALE[kind][l] : undefined);
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      {caption && <figcaption className="mb-3 text-sm font-medium text-slate-800">{caption}</figcaption>}
      <div className="overflow-x-auto">
        <table className="border-separate border-spacing-1 text-sm">
          <thead>
            <tr>
              <td colSpan={2} rowSpan={2} />
              <th scope="colgroup" colSpan={labels.length} className="pb-1 text-center text-xs font-semibold text-slate-700">
                {colTitle} <span aria-hidden="true">→</span>
              </th>
              <td rowSpan={2} />
            </tr>
            <tr>
              {labels.map((l) => (
                <th key={l} scope="col" className="w-20 text-center text-xs font-medium text-slate-600" title={name(l)}>
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((rl, i) => (
              <tr key={rl}>
                {i === 0 && (
                  <th scope="rowgroup" rowSpan={labels.length} className="pr-1 align-middle text-xs font-semibold text-slate-700">
                    <span className="inline-block [writing-mode:vertical-rl]">{rowTitle} <span aria-hidden="true">→</span></span>
                  </th>
                )}
                <th scope="row" className="pr-2 text-right text-xs font-medium text-slate-600" title={name(rl)}>{rl}</th>
                {labels.map((cl, j) => {
                  const c = counts[i]![j]!;
                  const { bg, fg } = colourFor(c, max);
                  const diagonal = i === j;
                  return (
                    <td
                      key={cl}
                      className={`h-14 w-20 rounded-md text-center tabular-nums ${diagonal ? "ring-2 ring-slate-800/70 ring-inset" : "ring-1 ring-slate-200 ring-inset"}`}
                      style={{ backgroundColor: bg, color: fg }}
                      title={`first ${rl}, second ${cl}: ${c} of ${n}${n ? ` (${fmtPercent(c / n)})` : ""}`}
                      data-testid={`${testId}-cell-${rl}-${cl}`}
                    >
                      <span className="text-base font-semibold">{fmtInt(c)}</span>
                    </td>
                  );
                })}
                <td className="pl-2 text-xs tabular-nums text-slate-500" title="row total">{fmtInt(rowSums[i]!)}</td>
              </tr>
            ))}
            <tr>
              <td colSpan={2} />
              {colSums.map((s, j) => (
                <td key={j} className="pt-1 text-center text-xs tabular-nums text-slate-500" title="column total">{fmtInt(s)}</td>
              ))}
              <td className="pl-2 pt-1 text-xs font-medium tabular-nums text-slate-700" title="all paired items">n = {fmtInt(n)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-slate-500" aria-hidden="true">
        <span>fewer</span>
        {SCALE.map((c) => <span key={c} className="inline-block h-3 w-5 rounded-sm ring-1 ring-slate-200" style={{ backgroundColor: c }} />)}
        <span>more items</span>
        <span className="ml-3 inline-block h-3 w-5 rounded-sm ring-2 ring-slate-800/70" /> <span>agreement (diagonal)</span>
      </div>
      {kind && (
        <p className="mt-2 text-xs text-slate-500">
          Scores: {labels.map((l) => `${l} = ${KIND_SCALE[kind][l]}`).join(" · ")}
        </p>
      )}
    </figure>
  );
}
