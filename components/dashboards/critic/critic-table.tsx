// Methods × label source: P, R, F1 at τ, AUC-PR, AP (each with n, and 95% bootstrap CIs where
// the issue asks for them), best F1 over τ (optimistic) beside the k-fold τ F1, cost of missed
// failures, alerts per 100 critical actions and the ERROR count. Server or client (no hooks).
import { Estimate } from "@/components/dashboards/estimate";
import { fmt, fmtInt } from "@/components/ui/format";
import type { CriticRow } from "@/lib/dashboards/critic/query";

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 whitespace-nowrap";
const td = "px-3 py-2 align-top";

export function CriticTable({ rows, tau }: { rows: CriticRow[]; tau: number }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm" tabIndex={0} role="region" aria-label="Critic methods at the chosen threshold">
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="critic-table">
        <caption className="px-3 pt-3 text-left text-sm text-slate-600">
          At τ = <span className="font-mono" data-testid="table-tau">{tau}</span>: a trajectory is flagged iff one of its checkpoints has p̄ ≤ τ. n = trajectories counted.
        </caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>Critic</th>
            <th scope="col" className={th}>Label source</th>
            <th scope="col" className={th}>n</th>
            <th scope="col" className={th}>Precision</th>
            <th scope="col" className={th}>Recall</th>
            <th scope="col" className={th}>F1</th>
            <th scope="col" className={th}>AUC-PR</th>
            <th scope="col" className={th}>AP</th>
            <th scope="col" className={th} title="τ tuned on the same data: optimistic">Best F1 (optimistic)</th>
            <th scope="col" className={th} title="τ chosen on the other folds">k-fold τ F1</th>
            <th scope="col" className={th}>Missed cost</th>
            <th scope="col" className={th}>Alerts / 100</th>
            <th scope="col" className={th}>ERROR</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => {
            const e = r.evaluation;
            const a = e.atTau;
            const id = `${r.method}-${r.sourceId}`;
            return (
              <tr key={`${r.seriesKey}|${r.sourceId}`} data-testid="critic-row" data-method={r.method} data-source={r.sourceId}>
                <th scope="row" className={`${td} text-left font-medium text-slate-800`}>
                  {r.methodName}
                  <span className="block text-xs font-normal text-slate-500" title={r.criticModel}>{r.criticModel}</span>
                </th>
                <td className={`${td} max-w-[16rem] text-slate-700`}>{r.sourceName}</td>
                <td className={`${td} tabular-nums`}>
                  <span data-testid={`n-${id}`}>{fmtInt(a.n)}</span>
                  <span className="block text-xs text-slate-500">{fmtInt(e.positives)} failures</span>
                  {r.unlabelled > 0 && <span className="block text-xs text-slate-500">{fmtInt(r.unlabelled)} unlabelled</span>}
                  {a.excluded > 0 && <span className="block text-xs text-amber-700">{fmtInt(a.excluded)} ERROR excluded</span>}
                </td>
                <td className={td}><Estimate value={a.precision === null ? { undefined: true, reason: "nothing flagged" } : a.precision} ci={e.intervals.precision} layout="stacked" testId={`precision-${id}`} /></td>
                <td className={td}><Estimate value={a.recall === null ? { undefined: true, reason: "no failure" } : a.recall} ci={e.intervals.recall} layout="stacked" testId={`recall-${id}`} /></td>
                <td className={td}><Estimate value={a.f1 === null ? { undefined: true, reason: "no flag, no failure" } : a.f1} ci={e.intervals.f1} layout="stacked" testId={`f1-${id}`} /></td>
                <td className={td}><Estimate value={e.curve ? e.curve.aucPr : { undefined: true, reason: "no failure" }} ci={e.intervals.aucPr} layout="stacked" testId={`aucpr-${id}`} /></td>
                <td className={`${td} tabular-nums`} data-testid={`ap-${id}`}>{e.curve ? fmt(e.curve.ap) : "—"}</td>
                <td className={`${td} tabular-nums`}>
                  {e.best ? (
                    <>
                      <span className="font-semibold">{fmt(e.best.f1!)}</span>
                      <span className="ml-1 rounded bg-amber-100 px-1 text-[11px] text-amber-800" title="τ was tuned on the data it is scored on">optimistic</span>
                      <span className="block text-xs text-slate-500">at τ = {fmt(e.best.tau, 3)}</span>
                    </>
                  ) : "—"}
                </td>
                <td className={`${td} tabular-nums`}>
                  {e.kFold?.pooled.f1 != null ? (
                    <>
                      <span className="font-semibold">{fmt(e.kFold.pooled.f1)}</span>
                      <span className="block text-xs text-slate-500" title={`τ per fold: ${e.kFold.foldTaus.map((t) => (t === null ? "none" : fmt(t, 3))).join(", ")}`}>k = {e.kFold.k}</span>
                    </>
                  ) : "—"}
                </td>
                <td className={`${td} tabular-nums`} data-testid={`cost-${id}`}>{fmt(a.missedCost, 2)}</td>
                <td className={`${td} tabular-nums`}>
                  <span data-testid={`alerts-${id}`}>{a.alertsPer100 === null ? "—" : fmt(a.alertsPer100, 1)}</span>
                  <span className="block text-xs text-slate-500">{fmtInt(a.alerts)} / {fmtInt(a.criticalActions)}</span>
                </td>
                <td className={`${td} tabular-nums`} data-testid={`errors-${id}`}>
                  {fmtInt(e.errorCheckpoints)}
                  <span className="block text-xs text-slate-500">in {fmtInt(e.errorTrajectories)} traj.</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
