"use client";

// The run page's live view: polls /runs/<id>/live every 2 s while the run can still change, and
// shows the progress bar (done / running / failed / queued, ETA from the observed rate), tokens
// and cost so far, errors by cause with the latest messages, per-agent results and the episodes
// with links to their trajectories. Pause / resume / cancel / retry failed / re-run as new.
// An evaluation run (kind EVALUATION) shows its units (trajectory × kind × replicate) and its
// results per replicate instead of per agent, with a link to compare the replicates.
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { useCallback, useEffect, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import type { EpisodeFilter, RunEpisodePage, RunProgress } from "@/lib/runs/queries";
import { formatDate } from "@/components/toolemu/format";
import { PageHeader } from "@/components/ui/page-header";
import { RunStatusBadge } from "./status-badge";
import { ProgressSegments } from "./progress-segments";
import { fmtEta, fmtInt, fmtMean, fmtUsd } from "@/components/ui/format";
import { ERROR_KIND_LABELS } from "./format";
import { CriticRunResults, CriticRunSettings } from "./critic-run-results";
import { GateResults, GateSettings } from "./gate-results";
import { SageRunResults, SageRunSettings } from "./sage-run-results";
import { CONTEXT_LABELS } from "@/lib/runs/sage/schemas";
import { CRITIC_METHOD_LABELS } from "@/lib/critic/settings";

type Action = "pause" | "resume" | "cancel" | "retry" | "rerun";

interface Props {
  initial: { progress: RunProgress; episodes: RunEpisodePage; waitingInterventions?: number };
  canControl: boolean;
  /** May start an evaluation run on this run's trajectories. */
  canEvaluate?: boolean;
  control: (input: { runId: string; action: Action }) => Promise<ActionResult<{ message: string; newRunId: string | null }>>;
}

const POLL_MS = 2000;
const btn = "rounded-md border px-3 py-1.5 text-sm font-medium shadow-sm disabled:opacity-50";
const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";
const FILTERS: { key: EpisodeFilter; label: string }[] = [
  { key: "all", label: "All" },
  { key: "running", label: "Running" },
  { key: "queued", label: "Queued" },
  { key: "waiting", label: "Waiting" },
  { key: "done", label: "Done" },
  { key: "failed", label: "Errors" },
  { key: "cancelled", label: "Cancelled" },
];

function live(p: RunProgress): boolean {
  return p.status === "QUEUED" || p.status === "RUNNING" || (p.status === "PAUSED" && p.counts.running > 0) || (p.status === "CANCELLED" && p.counts.running > 0);
}

export function RunLive({ initial, canControl, canEvaluate = false, control }: Props) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial.progress);
  const [episodes, setEpisodes] = useState(initial.episodes);
  const [filter, setFilter] = useState<EpisodeFilter>("all");
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState<Action | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [stale, setStale] = useState(false);
  // Flagged critical calls of this run waiting for a human (online critic gate).
  const [waiting, setWaiting] = useState(initial.waitingInterventions ?? 0);
  const view = useRef({ filter, page });
  useEffect(() => {
    view.current = { filter, page };
  }, [filter, page]);

  const refresh = useCallback(async () => {
    const { filter: f, page: p } = view.current;
    try {
      const res = await fetch(`/runs/${progress.id}/live?filter=${f}&page=${p}`, { cache: "no-store" });
      if (!res.ok) throw new Error(String(res.status));
      const data = (await res.json()) as { progress: RunProgress; episodes: RunEpisodePage; waitingInterventions?: number };
      if (view.current.filter !== f || view.current.page !== p) return;
      setProgress(data.progress);
      setWaiting(data.waitingInterventions ?? 0);
      setEpisodes(data.episodes);
      setStale(false);
    } catch {
      setStale(true);
    }
  }, [progress.id]);

  const active = live(progress);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(refresh, POLL_MS);
    return () => clearInterval(t);
  }, [active, refresh]);
  useEffect(() => {
    void refresh();
  }, [filter, page, refresh]);

  async function act(action: Action) {
    if (action === "cancel" && !window.confirm("Cancel this run? Queued episodes will not run and running ones stop. This cannot be undone (you can re-run it as new).")) return;
    setBusy(action);
    setNotice(null);
    const res = await control({ runId: progress.id, action });
    setBusy(null);
    if (!res.ok) return setNotice({ ok: false, text: res.error });
    if (res.data.newRunId) return router.push(`/runs/${res.data.newRunId}`);
    setNotice({ ok: true, text: res.data.message });
    await refresh();
  }

  const p = progress;
  const c = p.counts;
  const est = p.estimate;
  const ev = p.evaluation;
  const cr = p.critic;
  const sg = p.sage;
  const noun = ev ? "evaluations" : cr ? "assessments" : "episodes";
  return (
    <>
      <PageHeader title={p.name} description={p.notes || undefined}>
        <div className="flex flex-wrap items-center gap-2" data-testid="run-controls">
          <RunStatusBadge status={p.status} />
          {canControl && (p.status === "QUEUED" || p.status === "RUNNING") && (
            <button type="button" onClick={() => act("pause")} disabled={!!busy} className={`${btn} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} data-testid="pause-run">{busy === "pause" ? "Pausing…" : "Pause"}</button>
          )}
          {canControl && p.status === "PAUSED" && (
            <button type="button" onClick={() => act("resume")} disabled={!!busy} className={`${btn} border-indigo-600 bg-indigo-600 text-white hover:bg-indigo-500`} data-testid="resume-run">{busy === "resume" ? "Resuming…" : "Resume"}</button>
          )}
          {canControl && c.failed > 0 && p.status !== "CANCELLED" && (
            <button type="button" onClick={() => act("retry")} disabled={!!busy} className={`${btn} border-rose-300 bg-white text-rose-700 hover:bg-rose-50`} data-testid="retry-failed">{busy === "retry" ? "Queueing…" : `Retry ${fmtInt(c.failed)} with errors`}</button>
          )}
          {canControl && p.status !== "DONE" && p.status !== "CANCELLED" && (
            <button type="button" onClick={() => act("cancel")} disabled={!!busy} className={`${btn} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} data-testid="cancel-run">{busy === "cancel" ? "Cancelling…" : "Cancel"}</button>
          )}
          {canControl && (
            <button type="button" onClick={() => act("rerun")} disabled={!!busy} className={`${btn} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} data-testid="rerun-run" title={sg ? "A new SAGE run with the same scenarios, agents, contexts, order, attacker, judges and seed" : cr ? "A new critic replay run with the same critic, methods and settings on the same trajectories" : ev ? "A new evaluation run with the same evaluator, kinds, replicates and temperature on the same trajectories (appended)" : "A new run with the same cases, agents, emulator, evaluator, modes, repeats and seed"}>{busy === "rerun" ? "Creating…" : "Re-run as new"}</button>
          )}
          {canEvaluate && !sg && (
            <Link href={`/runs/evaluate?run=${encodeURIComponent(p.id)}`} className={`${btn} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} data-testid="evaluate-run-trajectories" title="Score this run's trajectories again with any evaluator">Evaluate these trajectories…</Link>
          )}
          {canEvaluate && !cr && !sg && (
            <Link href={`/runs/critic?run=${encodeURIComponent(p.id)}`} className={`${btn} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} data-testid="critic-run-trajectories" title="Replay this run's trajectories through InferAct or a baseline critic">Critic replay…</Link>
          )}
        </div>
      </PageHeader>
      {waiting > 0 && (
        <p className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-2 text-sm text-amber-900" data-testid="run-waiting-interventions" data-count={waiting}>
          <strong className="tabular-nums">{fmtInt(waiting)}</strong> action{waiting === 1 ? "" : "s"} waiting for a human: the critic flagged {waiting === 1 ? "a critical call" : "critical calls"} and {waiting === 1 ? "its episode is" : "their episodes are"} paused until someone answers.{" "}
          <Link href="/interventions" className="font-medium underline">Open the intervention queue</Link>
        </p>
      )}
      {notice && <p role={notice.ok ? "status" : "alert"} className={`mb-4 rounded-md p-2 text-sm ${notice.ok ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-800"}`} data-testid="run-notice">{notice.text}</p>}

      <section className={card} aria-label="Progress">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2 text-sm">
          <span className="font-medium" data-testid="run-ended">{fmtInt(c.done + c.failed + c.cancelled)} of {fmtInt(c.total)} {noun} ended</span>
          <span className="text-slate-600" data-testid="run-eta">
            {p.etaSeconds !== null ? <>ETA <strong className="tabular-nums text-slate-900">{fmtEta(p.etaSeconds)}</strong> at {p.ratePerMinute!.toFixed(1)} {noun}/min</> : p.status === "DONE" && p.startedAt && p.finishedAt ? <>Took {fmtEta((Date.parse(p.finishedAt) - Date.parse(p.startedAt)) / 1000)}</> : `ETA after the first ${noun}`}
            {stale && <span className="ml-2 text-amber-700">(connection lost; retrying)</span>}
          </span>
        </div>
        <ProgressSegments counts={c} />
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="run-usage">
          <div><dt className="text-xs text-slate-500">LLM calls</dt><dd className="tabular-nums font-medium">{fmtInt(p.usage.calls)}{est ? <span className="text-xs font-normal text-slate-500"> / ≈{fmtInt(est.calls.total)}</span> : null}</dd></div>
          <div><dt className="text-xs text-slate-500">Tokens in / out</dt><dd className="tabular-nums font-medium">{fmtInt(p.usage.inputTokens)} / {fmtInt(p.usage.outputTokens)}</dd></div>
          <div><dt className="text-xs text-slate-500">Cost so far</dt><dd className="tabular-nums font-medium" data-testid="run-cost">{fmtUsd(p.usage.costUsd)}{est ? <span className="text-xs font-normal text-slate-500"> / ≈{fmtUsd(est.costUsd)}</span> : null}</dd></div>
          <div><dt className="text-xs text-slate-500">Retried calls</dt><dd className="tabular-nums font-medium">{fmtInt(p.usage.callRetries)}</dd></div>
        </dl>
        {p.usage.discardedCostUsd > 0 && <p className="mt-2 text-xs text-slate-500">Includes {fmtUsd(p.usage.discardedCostUsd)} spent by attempts that were retried from the start.</p>}
      </section>

      {p.gate && <div className="mt-6"><GateResults gate={p.gate} /></div>}
      {sg && <div className="mt-6"><SageRunResults p={p} /></div>}

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section className={card} aria-labelledby="run-errors-h" data-testid="run-errors">
          <h2 id="run-errors-h" className="text-base font-semibold">Errors by cause</h2>
          {p.errors.length === 0 && p.callRetries.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">No errors so far.</p>
          ) : (
            <>
              <ul className="mt-3 space-y-3">
                {p.errors.map((e) => (
                  <li key={e.kind} data-testid="error-cause" data-kind={e.kind}>
                    <div className="flex items-baseline justify-between gap-2 text-sm">
                      <span className="font-medium">{ERROR_KIND_LABELS[e.kind] ?? e.kind}</span>
                      <span className="tabular-nums text-xs text-slate-600">{fmtInt(e.retried)} retried · <span className={e.final ? "text-rose-700" : ""} title="Episodes this error ended (no retry left or not retryable)">{fmtInt(e.final)} final</span></span>
                    </div>
                    <ul className="mt-1 space-y-1">
                      {e.latest.map((l, i) => (
                        <li key={i} className="break-words rounded bg-slate-50 px-2 py-1 font-mono text-[11px] text-slate-700">
                          <span className="text-slate-500">{formatDate(l.at)} · attempt {l.attempt}</span> {l.message}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
              {p.callRetries.length > 0 && (
                <div className="mt-4 border-t border-slate-100 pt-3" data-testid="call-retries">
                  <h3 className="text-sm font-medium">Retried inside model calls</h3>
                  <p className="text-xs text-slate-500">Attempts the LLM client retried (backoff, Retry-After) before the call succeeded or gave up.</p>
                  <ul className="mt-2 flex flex-wrap gap-2 text-xs">
                    {p.callRetries.map((r) => <li key={r.reason} className="rounded-full bg-amber-50 px-2 py-0.5 text-amber-800 ring-1 ring-inset ring-amber-200" title={r.latest}>{r.reason} × {fmtInt(r.n)}</li>)}
                  </ul>
                </div>
              )}
            </>
          )}
        </section>

        {sg ? null : cr ? <CriticRunResults p={p} /> : ev ? <EvaluationResults p={p} /> : <section className={card} aria-labelledby="run-agents-h">
          <h2 id="run-agents-h" className="text-base font-semibold">Results by agent</h2>
          <p className="text-xs text-slate-500">Mean scores (0–3) of finished episodes; error rate = episodes ended by an error ÷ ended (a crashed episode, not unsafe behaviour).</p>
          <div className="mt-3 overflow-x-auto">
            <table className="min-w-full text-sm" data-testid="agent-results">
              <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
                <tr><th scope="col" className="py-1 pr-3">Agent</th><th scope="col" className="py-1 pr-3">Mode</th><th scope="col" className="py-1 pr-3 text-right">Safety</th><th scope="col" className="py-1 pr-3 text-right">Helpful.</th><th scope="col" className="py-1 text-right">Errors</th></tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {p.agentResults.map((a) => (
                  <tr key={`${a.agentEndpointId}:${a.variant}:${a.mode}`} data-testid="agent-result">
                    <td className="py-1.5 pr-3"><div className="font-medium">{a.agent}</div><div className="text-xs text-slate-500">{a.variant}</div></td>
                    <td className="py-1.5 pr-3 text-xs">{a.mode.toLowerCase()}</td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{fmtMean(a.safety)} <span className="text-xs text-slate-500">n={a.safety.n}</span></td>
                    <td className="py-1.5 pr-3 text-right tabular-nums">{fmtMean(a.helpfulness)} <span className="text-xs text-slate-500">n={a.helpfulness.n}</span></td>
                    <td className="py-1.5 text-right tabular-nums">{a.failureRate === null ? "—" : `${Math.round(a.failureRate * 100)}%`} <span className="text-xs text-slate-500">n={a.finished + a.failed}</span></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>}
      </div>

      <section className={`${card} mt-6`} aria-labelledby="run-episodes-h">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="run-episodes-h" className="text-base font-semibold">{ev ? "Evaluations" : cr ? "Assessments" : "Episodes"}</h2>
          <div className="flex flex-wrap gap-1" role="group" aria-label="Show episodes">
            {FILTERS.map((f) => (
              <button key={f.key} type="button" aria-pressed={filter === f.key} onClick={() => { setFilter(f.key); setPage(1); }}
                className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${filter === f.key ? "bg-indigo-600 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`} data-testid={`episodes-${f.key}`}>
                {f.label}{f.key !== "all" ? ` ${fmtInt(c[f.key])}` : ""}
              </button>
            ))}
          </div>
        </div>
        <div className="mt-3 overflow-x-auto">
          <table className="min-w-full text-sm" data-testid="episode-table">
            <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3">{sg ? "Scenario" : "Case"}</th><th scope="col" className="py-1 pr-3">{ev ? "Kind · replicate" : cr ? "Method" : "Agent"}</th><th scope="col" className="py-1 pr-3">{sg ? "Context" : "Mode"}</th>
                <th scope="col" className="py-1 pr-3">Status</th><th scope="col" className="py-1 pr-3 text-right">{cr ? "Checkpoints" : "Steps"}</th>
                <th scope="col" className="py-1 pr-3 text-right">{cr ? "min p" : sg ? "Ended by" : "Safety"}</th><th scope="col" className="py-1 pr-3 text-right">{cr ? "Verdict" : sg ? "" : "Helpful."}</th><th scope="col" className="py-1">Trajectory</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {episodes.rows.map((e) => (
                <tr key={e.id} data-testid="episode-row" data-status={e.status}>
                  <td className="py-1.5 pr-3">{e.case}{!ev && p.repeats > 1 ? <span className="text-xs text-slate-500"> #{e.repeat + 1}</span> : null}</td>
                  {cr ? (
                    <td className="py-1.5 pr-3">{e.criticMethod ? CRITIC_METHOD_LABELS[e.criticMethod] : "—"}</td>
                  ) : ev ? (
                    <td className="py-1.5 pr-3">{e.evalKind === "SAFETY" ? "safety" : "helpfulness"} <span className="text-xs text-slate-500">r{e.repeat + 1}</span></td>
                  ) : (
                    <td className="py-1.5 pr-3"><span>{e.agent}</span> {!sg && <span className="text-xs text-slate-500">{e.variant}</span>}</td>
                  )}
                  <td className="py-1.5 pr-3 text-xs" data-testid={e.authority ? "episode-context" : undefined}>{e.authority ? CONTEXT_LABELS[e.authority] : e.mode.toLowerCase()}</td>
                  <td className="py-1.5 pr-3">
                    <RunStatusBadge status={e.status} testId="episode-status" />
                    {e.trial > 1 && <span className="ml-1 text-xs text-slate-500" data-testid="episode-trial">trial {e.trial}</span>}
                    {e.attempts > 1 && <span className="ml-1 text-xs text-slate-500">attempt {e.attempts}</span>}
                    {e.lastError && e.status !== "DONE" && <div className="max-w-xs truncate text-xs text-rose-700" title={e.lastError}>{e.errorKind}: {e.lastError}</div>}
                  </td>
                  {cr ? (
                    <>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{e.critic?.checkpoints ?? "—"}{e.critic?.errors ? <span className="text-xs text-amber-700"> ({e.critic.errors} ERROR)</span> : null}</td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{e.critic?.minP != null ? e.critic.minP.toFixed(2) : "—"}</td>
                      <td className="py-1.5 pr-3 text-right" data-testid="unit-verdict" data-flagged={e.critic ? String(e.critic.flagged) : undefined}>{e.critic ? (e.critic.flagged ? <span className="font-medium text-rose-700">flagged</span> : <span className="text-emerald-700">passed</span>) : "—"}</td>
                    </>
                  ) : (
                    <>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{e.steps ?? "—"}</td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{sg ? <span className="text-xs">{e.stopReason?.replace(/_/g, " ") ?? "—"}</span> : (e.safety ?? "—")}</td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{sg ? "" : (e.helpfulness ?? "—")}</td>
                    </>
                  )}
                  <td className="py-1.5">{e.trajectoryId && (ev || cr || e.status !== "QUEUED") ? <Link href={`/trajectories/${e.trajectoryId}${cr ? "#checkpoint-timeline" : ""}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="trajectory-link">{!ev && !cr && e.status === "RUNNING" ? "live" : "open"}</Link> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {episodes.pages > 1 && (
          <nav className="mt-3 flex items-center justify-end gap-2 text-sm" aria-label="Episode pages">
            <button type="button" disabled={episodes.page <= 1} onClick={() => setPage(episodes.page - 1)} className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-40">Previous</button>
            <span className="tabular-nums text-slate-600">page {episodes.page} of {episodes.pages}</span>
            <button type="button" disabled={episodes.page >= episodes.pages} onClick={() => setPage(episodes.page + 1)} className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-40">Next</button>
          </nav>
        )}
      </section>

      <section className={`${card} mt-6 text-sm`} aria-labelledby="run-settings-h" data-testid="run-settings">
        <h2 id="run-settings-h" className="text-base font-semibold">Settings</h2>
        {sg ? <SageRunSettings p={p} /> : cr ? <CriticRunSettings p={p} /> : ev ? <EvaluationSettings p={p} /> : <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2">
          <div><dt className="text-xs text-slate-500">Cases</dt><dd>{fmtInt(p.caseCount)} — {describeSelection(p.caseSelection)}</dd></div>
          <div><dt className="text-xs text-slate-500">Agents</dt><dd>{p.agents.map((a) => `${a.name} (${a.variant})`).join(", ")}</dd></div>
          <div><dt className="text-xs text-slate-500">Emulator</dt><dd>{p.emulator ? <>{p.emulator.name} <span className="text-slate-500">{p.emulator.offline ? OFFLINE_MODEL_LABEL : p.emulator.model}</span></> : "—"} · {p.modes.map((m) => m.toLowerCase()).join(" + ")}{p.emulatorCritiqueRounds > 0 ? <span data-testid="run-self-critique"> · self-critique {p.emulatorCritiqueRounds} round{p.emulatorCritiqueRounds === 1 ? "" : "s"}</span> : null}</dd></div>
          <div><dt className="text-xs text-slate-500">Loop rules</dt><dd data-testid="run-loop-mode">{p.loopMode === "STRICT" ? "strict (re-asks unusable emulator outputs, acts on an Action before a Final Answer)" : "ToolEmu-compatible"}</dd></div>
          <div><dt className="text-xs text-slate-500">Evaluator</dt><dd>{p.evaluator ? `${p.evaluator.name}` : "none"}</dd></div>
          <div className="sm:col-span-2"><dt className="text-xs text-slate-500">Online critic gate</dt><dd>{p.gate ? <GateSettings gate={p.gate} /> : "none"}</dd></div>
          <div><dt className="text-xs text-slate-500">Repeats · seed</dt><dd className="tabular-nums">{p.repeats} · {p.seed}</dd></div>
          <div><dt className="text-xs text-slate-500">Created</dt><dd>{formatDate(p.createdAt)}{p.createdBy ? ` by ${p.createdBy}` : ""}{p.rerunOfId ? <> · re-run of <Link href={`/runs/${p.rerunOfId}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">an earlier run</Link></> : null}</dd></div>
          <div className="sm:col-span-2"><dt className="text-xs text-slate-500">Prompt templates</dt><dd className="font-mono text-xs">{p.promptVersions.join("  ")}</dd></div>
        </dl>}
      </section>
    </>
  );
}

/** An evaluation run's results per kind × replicate, with links to compare replicates on the dashboard. */
function EvaluationResults({ p }: { p: RunProgress }) {
  const ev = p.evaluation!;
  const reps = [...new Set(p.evaluationResults.map((r) => r.replicate))];
  const compare = (kind: string) =>
    reps.length >= 2
      ? `/dashboards/evaluators?${new URLSearchParams({ evaluator: `${ev.evaluatorBase} · r${reps[0]}`, evaluatorB: `${ev.evaluatorBase} · r${reps[1]}`, kind }).toString()}`
      : `/dashboards/evaluators?${new URLSearchParams({ evaluator: `${ev.evaluatorBase} · r${reps[0] ?? 1}`, kind }).toString()}`;
  return (
    <section className={card} aria-labelledby="run-eval-h" data-testid="evaluation-results">
      <h2 id="run-eval-h" className="text-base font-semibold">Results by replicate</h2>
      <p className="text-xs text-slate-500">Each replicate is its own evaluator on the dashboards. Mean score (0–3) of the parsed outputs; unparsed outputs are stored with no score.</p>
      <div className="mt-3 overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
            <tr><th scope="col" className="py-1 pr-3">Evaluator</th><th scope="col" className="py-1 pr-3">Kind</th><th scope="col" className="py-1 pr-3 text-right">Done</th><th scope="col" className="py-1 pr-3 text-right">Mean</th><th scope="col" className="py-1 text-right">Unparsed</th></tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {p.evaluationResults.map((r) => (
              <tr key={`${r.kind}:${r.replicate}`} data-testid="evaluation-result" data-kind={r.kind} data-replicate={r.replicate}>
                <td className="py-1.5 pr-3 font-mono text-xs">{r.evaluator}</td>
                <td className="py-1.5 pr-3 text-xs">{r.kind.toLowerCase()}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{fmtInt(r.done)}/{fmtInt(r.total)}{r.failed ? <span className="text-rose-700"> ({fmtInt(r.failed)} errors)</span> : null}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{fmtMean(r)} <span className="text-xs text-slate-500">n={r.scored}</span></td>
                <td className="py-1.5 text-right tabular-nums">{fmtInt(r.unparsed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-3 flex flex-wrap gap-3 text-sm">
        {ev.kinds.map((k) => (
          <Link key={k} href={compare(k)} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid={`compare-replicates-${k}`}>
            {reps.length >= 2 ? `Compare r${reps[0]} with r${reps[1]} (${k.toLowerCase()}, test–retest)` : `This evaluator on the dashboard (${k.toLowerCase()})`}
          </Link>
        ))}
      </p>
    </section>
  );
}

function EvaluationSettings({ p }: { p: RunProgress }) {
  const ev = p.evaluation!;
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2">
      <div><dt className="text-xs text-slate-500">Trajectories</dt><dd>{fmtInt(ev.trajectories)} — {describeTrajectories(ev.selection)}</dd></div>
      <div><dt className="text-xs text-slate-500">Evaluator</dt><dd>{p.evaluator ? p.evaluator.name : "(deleted endpoint)"} · <span className="font-mono text-xs">{ev.evaluatorBase}</span></dd></div>
      <div><dt className="text-xs text-slate-500">Kinds · replicates</dt><dd>{ev.kinds.map((k) => k.toLowerCase()).join(" + ")} · {Array.from({ length: ev.replicates }, (_, i) => `r${ev.firstReplicate + i}`).join(", ")}</dd></div>
      <div><dt className="text-xs text-slate-500">Earlier scores · temperature</dt><dd>{ev.write === "append" ? "appended" : `replaced${ev.deleted ? ` (${ev.deleted} deleted)` : ""}`} · {ev.temperature ?? "the endpoint's"}</dd></div>
      <div><dt className="text-xs text-slate-500">Created</dt><dd>{formatDate(p.createdAt)}{p.createdBy ? ` by ${p.createdBy}` : ""}</dd></div>
      <div><dt className="text-xs text-slate-500">Prompt templates</dt><dd className="font-mono text-xs">{ev.templates.join("  ")}</dd></div>
    </dl>
  );
}

function describeTrajectories(sel: { kind: string; query?: string; runId?: string; campaignId?: string; ids?: string[] }) {
  switch (sel.kind) {
    case "filter": return <Link href={`/trajectories${sel.query ? `?${sel.query}` : ""}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{sel.query ? `the list filtered by ${sel.query}` : "all trajectories"}</Link>;
    case "run": return <Link href={`/runs/${sel.runId}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">a run&apos;s trajectories</Link>;
    case "campaign": return <Link href={`/campaigns/${sel.campaignId}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">a campaign&apos;s items</Link>;
    default: return `${sel.ids?.length ?? 0} chosen trajectories`;
  }
}

function describeSelection(sel: unknown): string {
  const s = sel as { kind?: string; toolkits?: string[]; q?: string; toolkit?: string; size?: number; seed?: number };
  switch (s?.kind) {
    case "all": return "all cases";
    case "toolkits": return `toolkits ${s.toolkits?.join(", ")}`;
    case "filter": return `filter${s.q ? ` “${s.q}”` : ""}${s.toolkit ? ` in ${s.toolkit}` : ""}`;
    case "sample": return `random sample of ${s.size} (seed ${s.seed})`;
    case "ids": return "the cases of an earlier run";
    default: return "";
  }
}
