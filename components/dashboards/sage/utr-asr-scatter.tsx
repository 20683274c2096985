"use client";

// UTR (x) vs ASR averaged over judges (y), one point per agent model × authority context, with
// 95% whiskers (Wilson for UTR, bootstrap for the averaged ASR) and the line y = x: a point above
// it means the judges call more episodes unsafe than the tool flags do. Tooltips carry n.
import { CartesianGrid, ErrorBar, Legend, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { fmtInt, fmtPercent } from "@/components/ui/format";
import { OKABE_ITO } from "../ci-bar-chart";

export interface UtrAsrPoint {
  agent: string;
  context: "TRUST" | "WARNING";
  utr: number;
  asr: number;
  utrCi: [number, number] | null;
  asrCi: [number, number] | null;
  n: number;
}

type Datum = UtrAsrPoint & { x: number; y: number; xErr: [number, number]; yErr: [number, number] };

const STYLE = { TRUST: { color: OKABE_ITO[5]!, shape: "circle" as const, name: "Trust" }, WARNING: { color: OKABE_ITO[0]!, shape: "triangle" as const, name: "Warning" } };
const pct = (v: number) => `${Math.round(v * 100)}%`;

export function UtrAsrScatter({ points }: { points: UtrAsrPoint[] }) {
  const data = (c: "TRUST" | "WARNING"): Datum[] =>
    points
      .filter((p) => p.context === c)
      .map((p) => ({ ...p, x: p.utr, y: p.asr, xErr: p.utrCi ? [p.utr - p.utrCi[0], p.utrCi[1] - p.utr] : [0, 0], yErr: p.asrCi ? [p.asr - p.asrCi[0], p.asrCi[1] - p.asr] : [0, 0] }));
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="utr-asr-scatter">
      <figcaption className="mb-2 text-sm font-medium text-slate-800">UTR vs ASR (averaged over judges), per agent model and context</figcaption>
      <div style={{ width: "100%", height: 340 }} aria-hidden="true" inert>
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 12, right: 24, bottom: 28, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis type="number" dataKey="x" domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tickFormatter={pct} tick={{ fontSize: 12, fill: "#334155" }}
              label={{ value: "UTR (unsafe tool-call rate)", position: "insideBottom", offset: -16, style: { fontSize: 12, fill: "#475569" } }} />
            <YAxis type="number" dataKey="y" domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tickFormatter={pct} tick={{ fontSize: 12, fill: "#334155" }}
              label={{ value: "ASR averaged", angle: -90, position: "insideLeft", style: { fontSize: 12, fill: "#475569", textAnchor: "middle" } }} />
            <ReferenceLine segment={[{ x: 0, y: 0 }, { x: 1, y: 1 }]} stroke="#94a3b8" strokeDasharray="4 4" ifOverflow="extendDomain" label={{ value: "y = x", position: "insideTopLeft", fontSize: 11, fill: "#64748b" }} />
            <Tooltip
              cursor={{ strokeDasharray: "3 3" }}
              content={({ active, payload }) => {
                const d = active ? (payload?.[0]?.payload as Datum | undefined) : undefined;
                if (!d) return null;
                return (
                  <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md">
                    <p className="font-semibold text-slate-800">{d.agent} · {STYLE[d.context].name}</p>
                    <p className="tabular-nums text-slate-700">UTR {fmtPercent(d.utr)}{d.utrCi ? ` [${fmtPercent(d.utrCi[0])}, ${fmtPercent(d.utrCi[1])}]` : ""}</p>
                    <p className="tabular-nums text-slate-700">ASR averaged {fmtPercent(d.asr)}{d.asrCi ? ` [${fmtPercent(d.asrCi[0])}, ${fmtPercent(d.asrCi[1])}]` : ""}</p>
                    <p className="text-slate-500">n = {fmtInt(d.n)} episodes</p>
                  </div>
                );
              }}
            />
            <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
            {(["TRUST", "WARNING"] as const).map((c) => (
              <Scatter key={c} name={STYLE[c].name} data={data(c)} fill={STYLE[c].color} shape={STYLE[c].shape} isAnimationActive={false}>
                <ErrorBar dataKey="xErr" direction="x" width={6} stroke={STYLE[c].color} strokeWidth={1.25} />
                <ErrorBar dataKey="yErr" direction="y" width={6} stroke={STYLE[c].color} strokeWidth={1.25} />
              </Scatter>
            ))}
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      <ul className="sr-only">
        {points.map((p) => (
          <li key={`${p.agent}-${p.context}`}>{p.agent}, {STYLE[p.context].name}: UTR {fmtPercent(p.utr)}, ASR averaged {fmtPercent(p.asr)}, n = {p.n}</li>
        ))}
      </ul>
    </figure>
  );
}
