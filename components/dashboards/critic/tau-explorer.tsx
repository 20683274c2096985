"use client";

// The τ slider: the live confusion matrix, P / R / F1, alert rate and missed cost of one critic
// series at any τ, computed in the browser from the compact per-trajectory array the server sent
// (lib/metrics/critic-eval.ts, the same functions the table uses). Keyboard: the slider takes
// ←/→ (±0.01), PageUp/PageDown (±0.1), Home/End (0 / 1); "[" and "]" jump to the previous / next
// τ at which a trajectory changes side.
import Link from "next/link";
import { useMemo, useState } from "react";
import { fmt, fmtInt, fmtPercent } from "@/components/ui/format";
import { criticHref, type CriticFilter } from "@/lib/dashboards/critic/filters";
import { criticAtTau, prepareCritic, type EvalTrajectory } from "@/lib/metrics/critic-eval";

export interface TauSeries {
  key: string;
  name: string;
  items: EvalTrajectory[];
}

const ratio = (x: number | null) => (x === null ? "undefined" : fmt(x, 3));

export function TauExplorer({ series, filter, sourceName }: { series: TauSeries[]; filter: CriticFilter; sourceName: string }) {
  const [key, setKey] = useState(series[0]?.key ?? "");
  const [tau, setTau] = useState(filter.tau);
  const current = series.find((s) => s.key === key) ?? series[0];
  const items = useMemo(() => current?.items ?? [], [current]);
  const thresholds = useMemo(() => [...new Set(prepareCritic(items, filter.errors).minP)].sort((a, b) => a - b), [items, filter.errors]);
  const r = useMemo(() => criticAtTau(items, tau, filter.errors), [items, tau, filter.errors]);
  if (!current) return null;

  const jump = (dir: 1 | -1) => {
    // Flag iff m ≤ τ: the next change is at the next distinct m above τ; the previous one just below the largest m ≤ τ.
    if (dir === 1) {
      const next = thresholds.find((m) => m > tau);
      if (next !== undefined) setTau(next);
    } else {
      const below = [...thresholds].reverse().find((m) => m <= tau);
      if (below !== undefined) setTau(Math.max(0, [...thresholds].reverse().find((m) => m < below) ?? 0));
    }
  };

  const cell = (testId: string, label: string, n: number, tone: string) => (
    <td className={`px-4 py-3 text-center ${tone}`}>
      <span className="block text-2xl font-semibold tabular-nums" data-testid={testId}>{fmtInt(n)}</span>
      <span className="text-xs">{label}</span>
    </td>
  );

  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="tau-explorer">
      <figcaption className="mb-3 text-sm font-medium text-slate-800">
        Live confusion matrix at τ against <span className="font-semibold">{sourceName}</span>
      </figcaption>
      <div className="flex flex-wrap items-end gap-4">
        {series.length > 1 && (
          <label className="flex flex-col text-xs font-medium text-slate-600">
            Critic
            <select value={current.key} onChange={(e) => setKey(e.target.value)} className="mt-1 rounded-md border border-slate-300 px-2 py-1.5 text-sm text-slate-900" data-testid="tau-series">
              {series.map((s) => <option key={s.key} value={s.key}>{s.name}</option>)}
            </select>
          </label>
        )}
        <label className="flex min-w-[16rem] flex-1 flex-col text-xs font-medium text-slate-600" htmlFor="tau-slider">
          <span>
            τ = <span className="font-mono text-sm text-slate-900" data-testid="tau-value">{tau.toFixed(2)}</span>
            <span className="ml-2 font-normal text-slate-500">a checkpoint passes iff p̄ &gt; τ · keys ←/→, PgUp/PgDn, Home/End, [ and ] jump between thresholds</span>
          </span>
          <input
            id="tau-slider"
            type="range"
            min={0}
            max={1}
            step={0.01}
            value={tau}
            onChange={(e) => setTau(Number(e.target.value))}
            onKeyDown={(e) => {
              if (e.key === "]" || e.key === "[") {
                e.preventDefault();
                jump(e.key === "]" ? 1 : -1);
              }
            }}
            aria-valuetext={`τ ${tau.toFixed(2)}: ${r.tp + r.fp} of ${r.n} trajectories flagged`}
            className="mt-2 w-full accent-indigo-600"
            data-testid="tau-slider"
          />
        </label>
        <Link href={criticHref(filter, { tau: Number(tau.toFixed(4)) })} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50" data-testid="tau-apply">
          Use τ = {tau.toFixed(2)} in the table
        </Link>
      </div>

      <div className="mt-4 grid gap-6 lg:grid-cols-[auto,1fr]">
        <table className="border-collapse overflow-hidden rounded-lg text-sm ring-1 ring-slate-200" data-testid="tau-confusion">
          <caption className="sr-only">Trajectories by label (rows) and the critic&apos;s decision at τ (columns)</caption>
          <thead>
            <tr className="bg-slate-50 text-xs text-slate-600">
              <th scope="col" className="px-3 py-2" />
              <th scope="col" className="px-4 py-2 font-semibold">Flagged (min p̄ ≤ τ)</th>
              <th scope="col" className="px-4 py-2 font-semibold">Let through</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row" className="bg-slate-50 px-3 py-2 text-left text-xs font-semibold text-slate-600">Failure (y = 1)</th>
              {cell("cm-tp", "true positive", r.tp, "bg-emerald-50 text-emerald-900")}
              {cell("cm-fn", "missed failure", r.fn, "bg-rose-50 text-rose-900")}
            </tr>
            <tr>
              <th scope="row" className="bg-slate-50 px-3 py-2 text-left text-xs font-semibold text-slate-600">On track (y = 0)</th>
              {cell("cm-fp", "false alarm", r.fp, "bg-amber-50 text-amber-900")}
              {cell("cm-tn", "true negative", r.tn, "bg-white text-slate-800")}
            </tr>
          </tbody>
        </table>
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
          {[
            ["Precision", ratio(r.precision), `TP / (TP + FP), n flagged = ${fmtInt(r.tp + r.fp)}`, "tau-precision"],
            ["Recall", ratio(r.recall), `TP / (TP + FN), n failures = ${fmtInt(r.tp + r.fn)}`, "tau-recall"],
            ["F1", ratio(r.f1), `2TP / (2TP + FP + FN), n = ${fmtInt(r.n)}`, "tau-f1"],
            ["Alerts per 100 critical actions", r.alertsPer100 === null ? "undefined" : fmt(r.alertsPer100, 1), `${fmtInt(r.alerts)} alerts / ${fmtInt(r.criticalActions)} critical actions`, "tau-alerts"],
            ["Cost of missed failures", fmt(r.missedCost, 2), "amount argument, else 1 per critical action", "tau-cost"],
            ["Flagged", r.n ? fmtPercent((r.tp + r.fp) / r.n) : "undefined", `${fmtInt(r.tp + r.fp)} of ${fmtInt(r.n)} trajectories${r.excluded ? ` (${fmtInt(r.excluded)} ERROR excluded)` : ""}`, "tau-flagged"],
          ].map(([label, value, hint, id]) => (
            <div key={id} className="rounded-lg border border-slate-200 p-3">
              <dt className="text-xs font-medium text-slate-500">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums text-slate-900" data-testid={id}>{value}</dd>
              <dd className="text-xs text-slate-500">{hint}</dd>
            </div>
          ))}
        </dl>
      </div>
    </figure>
  );
}
