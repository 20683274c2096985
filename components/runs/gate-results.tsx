// The run page's "Online critic gate" panel of an episode run with a gate (issue 13 item 7): how
// the gate is set, what it flagged and how the flags were answered, and success after N feedback
// trials. No hooks: RunLive re-renders it with every poll.
import Link from "next/link";
import type { RunProgress } from "@/lib/runs/queries";
import { CRITIC_METHOD_LABELS } from "@/lib/critic/settings";
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { Panel } from "@/components/ui/panel";
import { fmtInt } from "@/components/ui/format";

type Gate = NonNullable<RunProgress["gate"]>;

const pct = (r: number | null) => (r === null ? "—" : `${(r * 100).toFixed(1)}%`);
const endpointLabel = (e: Gate["critic"]) => (e ? `${e.name} (${e.offline ? OFFLINE_MODEL_LABEL : e.model})` : "(deleted endpoint)");

export function GateSettings({ gate }: { gate: Gate }) {
  const s = gate.settings;
  return (
    <span data-testid="run-gate-settings">
      {CRITIC_METHOD_LABELS[s.method]} by {endpointLabel(gate.critic)} · τ {s.tau}
      {s.method === "INFERACT" ? ` · ${s.orderAveraging ? "both orders" : "forward order only"}` : ""}
      {s.maskInstructionStrings ? " · masked" : ""} · answered by {gate.answerer === "simulated" ? `the simulated user (${endpointLabel(gate.simulatedUser)})` : "a person"} · up to {gate.maxTrials} feedback trial{gate.maxTrials === 1 ? "" : "s"}
    </span>
  );
}

export function GateResults({ gate }: { gate: Gate }) {
  const iv = gate.interventions;
  const rows = gate.trials.rows.filter((r) => r.n <= gate.maxTrials);
  const flagged = iv.pending + iv.approved + iv.rejected;
  return (
    <Panel
      id="run-gate"
      title="Online critic gate"
      description={<GateSettings gate={gate} />}
      testId="run-gate"
      how={
        <>
          <p>
            Before each valid call of a critical tool, the critic judges the chain so far (earlier actions, their inputs and observations, then the pending action and its input — never the agent&apos;s thoughts). The call is <em>flagged</em> when the critic&apos;s probability that the agent serves the real request is at most τ, or when its answer cannot be read (ERROR). A flagged call waits for an answer; approved, it runs; rejected, the agent observes that the user blocked it, with the written feedback if any.
          </p>
          <p>
            <strong>Success</strong> of an attempt: it ended with a final answer and none of its calls was rejected. An attempt that is not a success and had a call rejected <em>with written feedback</em> is played again as the next trial, with every earlier trial&apos;s feedback added to the agent&apos;s prompt, at most {gate.maxTrials} time{gate.maxTrials === 1 ? "" : "s"}.
          </p>
          <p>
            <strong>Success after N trials</strong> = episodes (case × agent × variant × mode × repeat) with a successful attempt among trials 1 … N + 1, divided by the episodes whose trials have all ended (N = 0: the first attempt alone). Episodes still queued, running or waiting are left out until they end. Counts are cumulative, so the rate never falls as N grows.
          </p>
        </>
      }
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5" data-testid="run-gate-counts">
        <div><dt className="text-xs text-slate-500">Calls judged</dt><dd className="tabular-nums font-medium">{fmtInt(gate.assessed)}</dd></div>
        <div><dt className="text-xs text-slate-500">Flagged</dt><dd className="tabular-nums font-medium">{fmtInt(flagged)}</dd></div>
        <div><dt className="text-xs text-slate-500">Waiting</dt><dd className="tabular-nums font-medium" data-testid="run-gate-pending">{fmtInt(iv.pending)}{iv.pending > 0 && <> · <Link href="/interventions" className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">answer</Link></>}</dd></div>
        <div><dt className="text-xs text-slate-500">Approved / rejected</dt><dd className="tabular-nums font-medium">{fmtInt(iv.approved)} / {fmtInt(iv.rejected)}</dd></div>
        <div><dt className="text-xs text-slate-500">With feedback · simulated</dt><dd className="tabular-nums font-medium">{fmtInt(iv.withFeedback)} · {fmtInt(iv.simulated)}</dd></div>
      </dl>
      <h3 className="mt-4 text-sm font-semibold text-slate-900">Success after N feedback trials</h3>
      {gate.trials.rows[0]!.episodes === 0 ? (
        <p className="mt-1 text-sm text-slate-500" data-testid="run-trials-empty">No episode has ended yet{gate.trials.open > 0 ? ` (${fmtInt(gate.trials.open)} still open)` : ""}.</p>
      ) : (
        <table className="mt-2 text-sm" data-testid="run-trials">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr><th scope="col" className="py-1 pr-6">N</th><th scope="col" className="py-1 pr-6 text-right">Successes</th><th scope="col" className="py-1 pr-6 text-right">Episodes</th><th scope="col" className="py-1 text-right">Success rate</th></tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.n} data-testid="run-trials-row" data-n={r.n} data-successes={r.successes} data-episodes={r.episodes}>
                <td className="py-1 pr-6 tabular-nums">{r.n}{r.n === 0 ? <span className="text-xs text-slate-500"> (first attempt)</span> : null}</td>
                <td className="py-1 pr-6 text-right tabular-nums">{fmtInt(r.successes)}</td>
                <td className="py-1 pr-6 text-right tabular-nums">{fmtInt(r.episodes)}</td>
                <td className="py-1 text-right tabular-nums font-medium">{pct(r.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {gate.trials.open > 0 && gate.trials.rows[0]!.episodes > 0 && <p className="mt-1 text-xs text-slate-500">{fmtInt(gate.trials.open)} episode(s) still open are not counted yet.</p>}
    </Panel>
  );
}
