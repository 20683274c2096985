// A critic replay run's panels on its run page: results per method (assessed, flagged at the
// run's τ, ERROR checkpoints) with how they are counted, and the run's critic settings. No hooks.
import Link from "next/link";
import type { RunProgress } from "@/lib/runs/queries";
import { CRITIC_METHOD_LABELS } from "@/lib/critic/settings";
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { Disclosure } from "@/components/ui/panel";
import { fmtInt } from "@/components/ui/format";
import { formatDate } from "@/components/toolemu/format";

const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";
const pct = (a: number, b: number) => (b > 0 ? ` (${Math.round((a / b) * 100)}%)` : "");

export function CriticRunResults({ p }: { p: RunProgress }) {
  const cr = p.critic!;
  const dashboard = `/dashboards/critic?${new URLSearchParams({ run: p.id, tau: String(cr.tau) }).toString()}`;
  return (
    <section className={card} aria-labelledby="run-critic-h" data-testid="critic-results">
      <h2 id="run-critic-h" className="text-base font-semibold">Results by method</h2>
      <p className="text-xs text-slate-500">At τ = <span className="tabular-nums" data-testid="critic-tau">{cr.tau}</span>: a trajectory is flagged when one of its checkpoints has p ≤ τ or is ERROR (unreadable critic output).</p>
      <div className="mt-3 overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-3">Method</th><th scope="col" className="py-1 pr-3 text-right">Assessed</th><th scope="col" className="py-1 pr-3 text-right">Flagged</th>
              <th scope="col" className="py-1 pr-3 text-right">Checkpoints</th><th scope="col" className="py-1 text-right">ERROR</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {cr.methods.map((m) => (
              <tr key={m.method} data-testid="critic-result" data-method={m.method} data-assessed={m.assessed} data-flagged={m.flagged} data-errors={m.errors}>
                <td className="py-1.5 pr-3 font-medium">{CRITIC_METHOD_LABELS[m.method]}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{fmtInt(m.assessed)}/{fmtInt(m.units)}{m.failed ? <span className="text-rose-700"> ({fmtInt(m.failed)} errors)</span> : null}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{fmtInt(m.flagged)}<span className="text-xs text-slate-500">{pct(m.flagged, m.assessed)}</span></td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{fmtInt(m.checkpoints)}</td>
                <td className={`py-1.5 text-right tabular-nums ${m.errors ? "text-amber-700" : ""}`}>{fmtInt(m.errors)}{m.trajectoriesWithErrors ? <span className="text-xs text-slate-500"> in {fmtInt(m.trajectoriesWithErrors)}</span> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-3 text-sm">
        <Link href={dashboard} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="critic-dashboard-link">Precision, recall, F1 and AUC-PR against the labels on the critic dashboard →</Link>
      </p>
      <Disclosure>
        <p><strong>Assessed</strong>: trajectories with a stored assessment by this run and method, of the units queued. <strong>Checkpoints</strong>: each call of a critical tool plus the final answer; the critic sees the actions, inputs and observations before it, never the agent&apos;s thoughts or the pending call&apos;s observation.</p>
        <p><strong>Flagged</strong>: a checkpoint passes iff its probability that the agent is on track (InferAct: p̄(t*), the mean over both option orders) is above τ; a trajectory is flagged at its first checkpoint at or below τ. <strong>ERROR</strong> checkpoints (output that could not be read) count as flags here; the dashboard can leave them out instead.</p>
        <p>These counts need no labels. Whether the flags are right — TP/FP/FN/TN against human or evaluator labels — is on the critic dashboard.</p>
      </Disclosure>
    </section>
  );
}

export function CriticRunSettings({ p }: { p: RunProgress }) {
  const cr = p.critic!;
  const s = cr.settings;
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2" data-testid="critic-settings">
      <div><dt className="text-xs text-slate-500">Trajectories · checkpoints</dt><dd className="tabular-nums">{fmtInt(cr.trajectories)} · {fmtInt(cr.estimatedCheckpoints)}</dd></div>
      <div><dt className="text-xs text-slate-500">Critic</dt><dd>{p.evaluator ? <>{p.evaluator.name} <span className="text-slate-500">{p.evaluator.offline ? OFFLINE_MODEL_LABEL : p.evaluator.model}</span></> : "(deleted endpoint)"} · <span className="font-mono text-xs">{cr.criticModel}</span></dd></div>
      <div><dt className="text-xs text-slate-500">Methods</dt><dd>{cr.methods.map((m) => CRITIC_METHOD_LABELS[m.method]).join(", ")}</dd></div>
      <div><dt className="text-xs text-slate-500">τ · N · order averaging · masking</dt><dd className="tabular-nums">{s.tau} · {s.inferredTasks} · {s.orderAveraging ? "on" : "off"} · {s.maskInstructionStrings ? "on" : "off"}</dd></div>
      <div><dt className="text-xs text-slate-500">Self-consistency · multi-step</dt><dd className="tabular-nums">m = {s.samples} at T = {s.sampleTemperature} · {s.aggregation}</dd></div>
      <div><dt className="text-xs text-slate-500">Created</dt><dd>{formatDate(p.createdAt)}{p.createdBy ? ` by ${p.createdBy}` : ""}{p.rerunOfId ? <> · re-run of <Link href={`/runs/${p.rerunOfId}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">an earlier run</Link></> : null}</dd></div>
    </dl>
  );
}
