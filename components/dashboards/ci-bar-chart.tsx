"use client";

// A bar chart with 95% CI whiskers (recharts ErrorBar) and tooltips with n. One or several
// series (grouped bars), colour-blind-safe colours (Okabe–Ito), a screen-reader table of the same
// numbers. Client component: pass plain data from the server page.
//
//   <CiBarChart
//     title="Free of critical issues"
//     data={[{ label: "Standard", bars: { share: { value: 0.919, lower: 0.87, upper: 0.96, n: 100 } } },
//            { label: "Adversarial", bars: { share: { value: null, n: 0, reason: "no items" } } }]}
//     series={[{ key: "share", name: "Share" }]}      // default: one series "value"
//     format="percent" domain={[0, 1]} />
//
// A point with value null is drawn as no bar; its tooltip and the table say "undefined — reason".
import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { fmtAs, fmtInt, type NumberFormat } from "@/components/ui/format";

export interface CiPoint {
  value: number | null;
  lower?: number | null;
  upper?: number | null;
  n: number;
  /** Why value (or the CI) is undefined. */
  reason?: string;
}

export interface CiBarGroup {
  label: string;
  bars: Record<string, CiPoint>;
}

export interface CiSeries {
  key: string;
  name: string;
  color?: string;
}

/** Okabe–Ito: distinguishable with every common colour-vision deficiency. */
export const OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

interface Props {
  data: CiBarGroup[];
  series?: CiSeries[];
  title?: string;
  yLabel?: string;
  format?: NumberFormat;
  digits?: number;
  domain?: [number, number];
  height?: number;
  /** What the whiskers are (shown under the chart); default a bootstrap interval. */
  whiskers?: string;
  testId?: string;
}

type Row = Record<string, string | number | number[] | null>;

export function CiBarChart({ data, series = [{ key: "value", name: "Value" }], title, yLabel, format = "decimal", digits, domain, height = 320, whiskers = "95% bootstrap confidence interval", testId = "ci-bar-chart" }: Props) {
  const rows: Row[] = data.map((g) => {
    const row: Row = { label: g.label };
    for (const s of series) {
      const p = g.bars[s.key];
      const v = p?.value ?? null;
      row[`${s.key}__v`] = v;
      row[`${s.key}__err`] = v !== null && p?.lower != null && p?.upper != null ? [v - p.lower, p.upper - v] : [0, 0];
    }
    return row;
  });
  const show = (v: number) => fmtAs(v, format, digits);
  const byLabel = new Map(data.map((g) => [g.label, g]));

  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      {title && <figcaption className="mb-2 text-sm font-medium text-slate-800">{title}</figcaption>}
      <div style={{ width: "100%", height }} aria-hidden="true" inert>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#334155" }} />
            <YAxis
              domain={domain ?? ["auto", "auto"]}
              tickFormatter={(v: number) => fmtAs(v, format, format === "percent" ? 0 : 2)}
              tick={{ fontSize: 12, fill: "#334155" }}
              label={yLabel ? { value: yLabel, angle: -90, position: "insideLeft", style: { fontSize: 12, fill: "#475569", textAnchor: "middle" } } : undefined}
            />
            <Tooltip
              cursor={{ fill: "#f1f5f9" }}
              content={({ active, label }) => {
                if (!active) return null;
                const g = byLabel.get(String(label));
                if (!g) return null;
                return (
                  <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md">
                    <p className="mb-1 font-semibold text-slate-800">{g.label}</p>
                    {series.map((s, i) => {
                      const p = g.bars[s.key];
                      return (
                        <p key={s.key} className="tabular-nums text-slate-700">
                          <span className="mr-1 inline-block h-2 w-2 rounded-sm" style={{ backgroundColor: s.color ?? OKABE_ITO[i % OKABE_ITO.length] }} />
                          {series.length > 1 ? `${s.name}: ` : ""}
                          {!p || p.value === null
                            ? `undefined — ${p?.reason ?? "no data"}`
                            : `${show(p.value)}${p.lower != null && p.upper != null ? ` [${show(p.lower)}, ${show(p.upper)}]` : ""}`}
                          {p ? ` · n = ${fmtInt(p.n)}` : ""}
                        </p>
                      );
                    })}
                  </div>
                );
              }}
            />
            {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
            {series.map((s, i) => (
              <Bar key={s.key} dataKey={`${s.key}__v`} name={s.name} fill={s.color ?? OKABE_ITO[i % OKABE_ITO.length]} isAnimationActive={false} maxBarSize={64}>
                <ErrorBar dataKey={`${s.key}__err`} width={8} strokeWidth={1.5} stroke="#0f172a" direction="y" />
              </Bar>
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      {/* A table ignores the 1px width of sr-only and widens the page; the wrapper does not. */}
      <div className="sr-only">
      <table>
        <caption>{title ?? "Values with 95% confidence intervals"}</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            {series.map((s) => <th key={s.key} scope="col">{s.name}</th>)}
          </tr>
        </thead>
        <tbody>
          {data.map((g) => (
            <tr key={g.label}>
              <th scope="row">{g.label}</th>
              {series.map((s) => {
                const p = g.bars[s.key];
                return (
                  <td key={s.key}>
                    {!p || p.value === null ? `undefined — ${p?.reason ?? "no data"}` : `${show(p.value)}${p.lower != null && p.upper != null ? `, 95% CI ${show(p.lower)} to ${show(p.upper)}` : ""}`}
                    {p ? `, n = ${p.n}` : ""}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <p className="mt-1 text-xs text-slate-500">Whiskers: {whiskers}. Hover a bar for n.</p>
    </figure>
  );
}
