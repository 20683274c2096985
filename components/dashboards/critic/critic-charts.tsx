"use client";

// The critic dashboard's charts (recharts): overlaid precision–recall curves, one per critic
// series (straight segments between the points: the trapezoids AUC-PR sums), and the calibration
// (reliability) plot of min p̄ against the share of trajectories on track, with the diagonal.
// Each figure also lists its numbers for screen readers.
import { CartesianGrid, ErrorBar, Legend, Line, LineChart, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from "recharts";
import { fmt, fmtInt } from "@/components/ui/format";
import { OKABE_ITO } from "../ci-bar-chart";

export interface CurveSeries {
  key: string;
  name: string;
  aucPr: number;
  positives: number;
  n: number;
  points: { precision: number; recall: number; threshold: number | null }[];
}

const axisTick = { fontSize: 12, fill: "#334155" };
const axisLabel = { fontSize: 12, fill: "#475569" };

export function PrCurves({ curves, sourceName }: { curves: CurveSeries[]; sourceName: string }) {
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="pr-curves">
      <figcaption className="mb-2 text-sm font-medium text-slate-800">Precision–recall curves against {sourceName}</figcaption>
      <div style={{ width: "100%", height: 340 }} aria-hidden="true" inert>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart margin={{ top: 8, right: 24, bottom: 28, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis type="number" dataKey="recall" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tick={axisTick}
              label={{ value: "Recall", position: "insideBottom", offset: -16, style: axisLabel }} />
            <YAxis type="number" dataKey="precision" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tick={axisTick}
              label={{ value: "Precision", angle: -90, position: "insideLeft", style: { ...axisLabel, textAnchor: "middle" } }} />
            <Tooltip
              content={({ active, payload }) => {
                const d = active ? (payload?.[0]?.payload as CurveSeries["points"][number] | undefined) : undefined;
                if (!d) return null;
                return (
                  <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md tabular-nums">
                    <p>Recall {fmt(d.recall, 3)} · precision {fmt(d.precision, 3)}</p>
                    <p className="text-slate-500">{d.threshold === null ? "appended point (nothing flagged)" : `flag iff min p̄ ≤ ${fmt(1 - d.threshold, 3)}`}</p>
                  </div>
                );
              }}
            />
            <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
            {curves.map((c, i) => (
              <Line key={c.key} data={[...c.points].reverse()} dataKey="precision" name={`${c.name} (AUC-PR ${fmt(c.aucPr, 3)})`} type="linear"
                stroke={OKABE_ITO[i % OKABE_ITO.length]} strokeWidth={2} strokeDasharray={i % 2 ? "6 3" : undefined} dot={{ r: 2.5 }} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <ul className="sr-only">
        {curves.map((c) => (
          <li key={c.key}>
            {c.name}: AUC-PR {fmt(c.aucPr, 4)}, {fmtInt(c.positives)} failures of {fmtInt(c.n)}; points {c.points.map((p) => `(recall ${fmt(p.recall, 3)}, precision ${fmt(p.precision, 3)})`).join(", ")}
          </li>
        ))}
      </ul>
    </figure>
  );
}

export interface CalibrationSeries {
  key: string;
  name: string;
  ece: number | null;
  n: number;
  errors: number;
  bins: { lower: number; upper: number; n: number; meanP: number | null; share: number | null; ciLower: number | null; ciUpper: number | null }[];
}

export function CalibrationPlot({ series }: { series: CalibrationSeries[] }) {
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="calibration-plot">
      <figcaption className="mb-2 text-sm font-medium text-slate-800">Calibration of min p̄: mean per bin vs share on track (point size = n; whiskers: 95% Wilson interval)</figcaption>
      <div style={{ width: "100%", height: 340 }} aria-hidden="true" inert>
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 8, right: 24, bottom: 28, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis type="number" dataKey="x" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tick={axisTick}
              label={{ value: "Mean min p̄ in the bin", position: "insideBottom", offset: -16, style: axisLabel }} />
            <YAxis type="number" dataKey="y" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tick={axisTick}
              label={{ value: "Share on track", angle: -90, position: "insideLeft", style: { ...axisLabel, textAnchor: "middle" } }} />
            <ZAxis type="number" dataKey="n" range={[30, 260]} />
            <Tooltip
              content={({ active, payload }) => {
                const d = active ? (payload?.[0]?.payload as { x: number; y: number; n: number; bin: string; name: string; ci: [number, number] | null } | undefined) : undefined;
                if (!d || d.name === "diagonal") return null;
                return (
                  <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md tabular-nums">
                    <p className="font-semibold">{d.name}</p>
                    <p>Bin {d.bin}: mean {fmt(d.x, 3)}, on track {fmt(d.y, 3)}{d.ci ? ` [${fmt(d.ci[0], 3)}, ${fmt(d.ci[1], 3)}]` : ""}, n = {fmtInt(d.n)}</p>
                  </div>
                );
              }}
            />
            <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
            <Scatter name="perfect calibration" data={[{ x: 0, y: 0, n: 0, name: "diagonal" }, { x: 1, y: 1, n: 0, name: "diagonal" }]} line={{ stroke: "#94a3b8", strokeDasharray: "4 4" }} shape={() => <g />} legendType="plainline" fill="#94a3b8" isAnimationActive={false} />
            {series.map((s, i) => (
              <Scatter key={s.key} name={`${s.name}${s.ece === null ? "" : ` (ECE ${fmt(s.ece, 3)})`}`} fill={OKABE_ITO[i % OKABE_ITO.length]} isAnimationActive={false} line={{ stroke: OKABE_ITO[i % OKABE_ITO.length], strokeWidth: 1 }}
                data={s.bins.filter((b) => b.n > 0).map((b) => ({
                  x: b.meanP!,
                  y: b.share!,
                  n: b.n,
                  yErr: b.ciLower === null || b.ciUpper === null ? [0, 0] : [b.share! - b.ciLower, b.ciUpper - b.share!],
                  ci: b.ciLower === null || b.ciUpper === null ? null : [b.ciLower, b.ciUpper],
                  bin: `[${b.lower.toFixed(1)}, ${b.upper.toFixed(1)}${b.upper === 1 ? "]" : ")"}`,
                  name: s.name,
                }))}>
                <ErrorBar dataKey="yErr" direction="y" width={5} stroke={OKABE_ITO[i % OKABE_ITO.length]} strokeWidth={1} />
              </Scatter>
            ))}
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      <ul className="sr-only">
        {series.map((s) => (
          <li key={s.key}>
            {s.name}: {s.bins.filter((b) => b.n > 0).map((b) => `bin ${b.lower.toFixed(1)}–${b.upper.toFixed(1)} mean ${fmt(b.meanP!, 3)} on track ${fmt(b.share!, 3)} n ${b.n}`).join("; ")}; {fmtInt(s.errors)} with an ERROR left out
          </li>
        ))}
      </ul>
    </figure>
  );
}
