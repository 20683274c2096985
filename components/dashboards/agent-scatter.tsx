"use client";

// Safety vs helpfulness, one point per agent model and emulator mode, with 95% CI whiskers in
// both directions and tooltips with n. Colour and marker shape both encode the mode (colour-blind
// safe, readable in greyscale).
import { CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { fmt, fmtInt, fmtPercent } from "@/components/ui/format";
import { MODE_NAMES, type EmulatorModeValue } from "@/lib/dashboards/filters";
import { OKABE_ITO } from "./ci-bar-chart";

export interface ScatterPoint {
  agent: string;
  agentLabel: string;
  mode: EmulatorModeValue;
  safety: number;
  helpfulness: number;
  safetyCi?: [number, number];
  helpfulnessCi?: [number, number];
  nSafety: number;
  nHelpfulness: number;
  failureRate?: number;
}

const STYLE: Record<EmulatorModeValue, { color: string; shape: "circle" | "triangle" }> = {
  STANDARD: { color: OKABE_ITO[0]!, shape: "circle" },
  ADVERSARIAL: { color: OKABE_ITO[5]!, shape: "triangle" },
};

type Datum = ScatterPoint & { x: number; y: number; xErr: [number, number]; yErr: [number, number] };

export function AgentScatter({ points, evaluator }: { points: ScatterPoint[]; evaluator: string }) {
  const modes = (["STANDARD", "ADVERSARIAL"] as const).filter((m) => points.some((p) => p.mode === m));
  const data = (mode: EmulatorModeValue): Datum[] =>
    points
      .filter((p) => p.mode === mode)
      .map((p) => ({
        ...p,
        x: p.helpfulness,
        y: p.safety,
        xErr: p.helpfulnessCi ? [p.helpfulness - p.helpfulnessCi[0], p.helpfulnessCi[1] - p.helpfulness] : [0, 0],
        yErr: p.safetyCi ? [p.safety - p.safetyCi[0], p.safetyCi[1] - p.safety] : [0, 0],
      }));
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="agent-scatter">
      <figcaption className="mb-2 text-sm font-medium text-slate-800">Safety vs helpfulness (scores by {evaluator})</figcaption>
      <div style={{ width: "100%", height: 360 }} aria-hidden="true" inert>
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 12, right: 24, bottom: 28, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis type="number" dataKey="x" name="Mean helpfulness" domain={[0, 3]} ticks={[0, 0.5, 1, 1.5, 2, 2.5, 3]} tick={{ fontSize: 12, fill: "#334155" }}
              label={{ value: "Mean helpfulness (0–3)", position: "insideBottom", offset: -16, style: { fontSize: 12, fill: "#475569" } }} />
            <YAxis type="number" dataKey="y" name="Mean safety" domain={[0, 3]} ticks={[0, 0.5, 1, 1.5, 2, 2.5, 3]} tick={{ fontSize: 12, fill: "#334155" }}
              label={{ value: "Mean safety (0–3)", angle: -90, position: "insideLeft", style: { fontSize: 12, fill: "#475569", textAnchor: "middle" } }} />
            <Tooltip
              cursor={{ strokeDasharray: "3 3" }}
              content={({ active, payload }) => {
                const d = active ? (payload?.[0]?.payload as Datum | undefined) : undefined;
                if (!d) return null;
                return (
                  <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md">
                    <p className="font-semibold text-slate-800" title={d.agent}>{d.agentLabel} · {MODE_NAMES[d.mode]}</p>
                    <p className="tabular-nums text-slate-700">Safety {fmt(d.safety, 3)}{d.safetyCi ? ` [${fmt(d.safetyCi[0], 3)}, ${fmt(d.safetyCi[1], 3)}]` : ""} · n = {fmtInt(d.nSafety)}</p>
                    <p className="tabular-nums text-slate-700">Helpfulness {fmt(d.helpfulness, 3)}{d.helpfulnessCi ? ` [${fmt(d.helpfulnessCi[0], 3)}, ${fmt(d.helpfulnessCi[1], 3)}]` : ""} · n = {fmtInt(d.nHelpfulness)}</p>
                    {d.failureRate !== undefined && <p className="tabular-nums text-slate-700">Failure rate {fmtPercent(d.failureRate)}</p>}
                  </div>
                );
              }}
            />
            <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
            {modes.map((m) => (
              <Scatter key={m} name={`${MODE_NAMES[m]} emulator`} data={data(m)} fill={STYLE[m].color} shape={STYLE[m].shape} isAnimationActive={false}>
                <ErrorBar dataKey="xErr" direction="x" width={6} stroke={STYLE[m].color} strokeWidth={1.25} />
                <ErrorBar dataKey="yErr" direction="y" width={6} stroke={STYLE[m].color} strokeWidth={1.25} />
              </Scatter>
            ))}
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      <ul className="sr-only">
        {points.map((p) => (
          <li key={`${p.agent}|${p.mode}`}>
            {p.agentLabel}, {MODE_NAMES[p.mode]} emulator: mean safety {fmt(p.safety, 3)} (n = {p.nSafety}), mean helpfulness {fmt(p.helpfulness, 3)} (n = {p.nHelpfulness})
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-slate-500">Whiskers: 95% bootstrap CIs. Up and right is better: safer and more helpful.</p>
    </figure>
  );
}
