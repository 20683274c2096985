"use client";

import type { AgentVariant } from "@/lib/trajectory/types";
import { useEffect, useState, useTransition } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { StepCard } from "@/components/toolemu/step-card";
import { EvaluationCard } from "@/components/toolemu/evaluation-card";
import { PageHeader } from "@/components/ui/page-header";
import { MODE_LABELS, STATUS_LABELS, formatCost } from "@/components/toolemu/format";
import type { EpisodeLive } from "@/lib/engine/playground";
import type { StartEpisodeAction } from "./start-action";

const POLL_MS = 800;

/** One episode, refreshed while it plays: steps as they are stored, then the evaluations. */
export function LiveEpisode({ initial, canRun, startEpisode }: { initial: EpisodeLive; canRun: boolean; startEpisode: StartEpisodeAction }) {
  const [ep, setEp] = useState(initial);
  const [pollError, setPollError] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const router = useRouter();

  useEffect(() => {
    if (ep.done) return;
    let stopped = false;
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`/playground/${encodeURIComponent(ep.id)}/live`, { cache: "no-store" });
        const body = await res.json();
        if (stopped) return;
        if (!res.ok) setPollError(body.error ?? `HTTP ${res.status}`);
        else {
          setPollError(null);
          setEp(body as EpisodeLive);
        }
      } catch {
        if (!stopped) setPollError("Lost the connection to the server; retrying…");
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [ep]);

  const otherMode = ep.emulatorMode === "STANDARD" ? "ADVERSARIAL" : "STANDARD";
  function rerun(mode: "STANDARD" | "ADVERSARIAL") {
    if (!ep.agentEndpointId || !ep.emulatorEndpointId) {
      setStartError("An endpoint of this episode was deleted; start a new one from the playground.");
      return;
    }
    const input = {
      caseId: ep.case.id,
      agentEndpointId: ep.agentEndpointId,
      variant: (ep.agentVariant ?? "NAIVE") as AgentVariant,
      emulatorEndpointId: ep.emulatorEndpointId,
      mode,
      evaluatorEndpointId: ep.evaluatorEndpointId,
    };
    startTransition(async () => {
      const res = await startEpisode(input);
      if (res.ok) router.push(`/playground/${res.data.trajectoryId}`);
      else setStartError(res.error);
    });
  }

  const offlineAny = ep.offline.agent || ep.offline.emulator || ep.offline.evaluator;
  const divergentStep = ep.replay?.comparison?.identical === false ? ep.replay.comparison.firstDivergentStep : null;
  const running = ep.status === "RUNNING";
  const evaluating = !running && !ep.done;
  const kinds = (["SAFETY", "HELPFULNESS"] as const).filter((k) => ep.evaluations.some((e) => e.kind === k));
  // Mid-run the trajectory's totals are written only at the end: add up the calls stored so far.
  const soFar = [...ep.steps, ...ep.evaluations].reduce((u, x) => ({ tokens: u.tokens + x.inputTokens + x.outputTokens, cost: u.cost + x.costUsd }), { tokens: 0, cost: 0 });
  const usage = running || evaluating ? soFar : { tokens: ep.inputTokens + ep.outputTokens, cost: ep.costUsd };
  const lastStep = ep.steps.at(-1);

  return (
    <div className="space-y-6">
      <PageHeader
        card
        title={<>Episode on {ep.case.name}</>}
        description={ep.case.userInstruction}
        meta={<>
            <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
              <div><dt className="inline text-slate-500">Agent </dt><dd className="inline font-medium">{ep.agentModel} · {ep.agentVariant ?? "NAIVE"}</dd></div>
              <div><dt className="inline text-slate-500">Emulator </dt><dd className="inline font-medium">{ep.emulatorModel} · {MODE_LABELS[ep.emulatorMode]}</dd></div>
              <div><dt className="inline text-slate-500">Status </dt><dd className="inline font-medium" data-testid="episode-status">{evaluating ? "Evaluating" : STATUS_LABELS[ep.status]}</dd></div>
              {ep.stopReason && <div><dt className="inline text-slate-500">Stopped </dt><dd className="inline" title={ep.stopDetail ?? undefined}>{ep.stopReason.replace(/_/g, " ")}{ep.stopDetail ? `: ${ep.stopDetail.slice(0, 120)}` : ""}</dd></div>}
              <div><dt className="inline text-slate-500">Usage{running || evaluating ? " so far" : ""} </dt><dd className="inline tabular-nums" data-testid="episode-usage">{usage.tokens > 0 ? `${usage.tokens.toLocaleString("en-US")} tokens · ${formatCost(usage.cost)}` : running || evaluating ? <span title="No model call has finished yet">—</span> : `0 tokens · ${formatCost(usage.cost)}`}</dd></div>
            </dl>
            {ep.replay ? (
              <p className="mt-2 inline-block rounded bg-amber-50 px-2 py-1 text-xs font-medium text-amber-900" data-testid="replay-label">
                Produced by {ep.offlineLabel}: every agent, emulator and evaluator output is recorded text from <Link href={`/trajectories/${ep.replay.recordedId}`} className="underline">the recorded trajectory</Link>, played through our engine ({ep.loopMode === "STRICT" ? "strict" : "ToolEmu-compatible"} loop rules) — not an LLM answering now.
              </p>
            ) : offlineAny && (
              <p className="mt-2 inline-block rounded bg-amber-50 px-2 py-1 text-xs font-medium text-amber-900" data-testid="offline-label">
                Produced by {ep.offlineLabel}: deterministic rules, for demos and tests — not an LLM&apos;s output.
              </p>
            )}
        </>}
        footer={<>
        {(running || evaluating) && (
          <div className="mt-4">
            {/* Indeterminate: an agent may finish at any step, so no fraction is shown. */}
            <div role="progressbar" aria-label={running ? "Episode playing" : "Evaluating"} aria-valuetext={running ? `step ${Math.max(ep.steps.length, 1)}` : "evaluating"} className="h-1.5 w-full overflow-hidden rounded bg-slate-100" data-testid="episode-progress">
              <div className="h-full w-full animate-pulse rounded bg-indigo-300" />
            </div>
            <p className="mt-1 text-xs text-slate-600" aria-live="polite" data-testid="episode-progress-text">
              {running ? `Playing — step ${Math.max(ep.steps.length, 1)}${ep.maxSteps ? ` of at most ${ep.maxSteps}` : ""}; the agent may finish at any step` : "Agent done — waiting for the evaluators"}
            </p>
          </div>
        )}
        {ep.replay?.comparison && <ReplayVerdict comparison={ep.replay.comparison} />}
        {pollError && <p role="alert" className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">{pollError}</p>}
        {startError && <p role="alert" className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">{startError}</p>}
        </>}
      >
          <div className="flex flex-wrap items-center justify-end gap-2" data-testid="episode-actions">
            {canRun && !ep.replay && (
              <button type="button" onClick={() => rerun(otherMode)} disabled={pending} className="rounded-md border border-indigo-300 bg-white px-3 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50 disabled:opacity-50" data-testid="other-mode">
                {pending ? "Starting…" : `Same case, ${otherMode === "STANDARD" ? "standard" : "adversarial"} emulator`}
              </button>
            )}
            {ep.done && <Link href={`/trajectories/${ep.id}`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="open-trajectory">Open as trajectory →</Link>}
          </div>
      </PageHeader>

      <section aria-labelledby="steps">
        <h2 id="steps" className="mb-3 text-lg font-semibold">Steps ({ep.steps.length})</h2>
        {ep.steps.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-500">{running ? "Waiting for the agent's first action…" : "The agent called no tool."}</p>
        ) : (
          <ol className="space-y-4" data-testid="live-steps">
            {ep.steps.map((s) =>
              s.index === divergentStep ? (
                // An <li> holding a one-item list: an <ol> may only hold <li>s, and StepCard is one.
                <li key={s.id} className="list-none rounded-xl ring-2 ring-rose-500 ring-offset-2" data-testid="divergent-step"><ol aria-label="Divergent step"><StepCard step={s} /></ol></li>
              ) : (
                <StepCard key={s.id} step={s} waiting={running && s.id === lastStep?.id} />
              ),
            )}
          </ol>
        )}
      </section>

      {!running && (
        <section aria-labelledby="final" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="final" className="mb-2 text-lg font-semibold">{ep.finalAnswer !== null ? "Final answer" : "No final answer"}</h2>
          {ep.actionInFinalAnswer && (
            <p className="mb-2 inline-block rounded bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900" data-testid="action-in-final-answer" title="The agent wrote an Action before its Final Answer; as in ToolEmu, the Final Answer ended the episode and the Action was not executed.">
              action inside final answer
            </p>
          )}
          <p className="whitespace-pre-wrap text-sm text-slate-900" data-testid="final-answer">{ep.finalAnswer ?? "The episode ended without one (see the stop reason above)."}</p>
        </section>
      )}

      <section aria-labelledby="evaluations">
        <h2 id="evaluations" className="mb-3 text-lg font-semibold">Evaluations ({ep.evaluations.length})</h2>
        {ep.evaluations.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-500">
            {ep.evaluatorEndpointId === null ? "No evaluator was chosen for this episode." : ep.done ? "The evaluators produced nothing (see the stop reason)." : "The evaluators run after the last step."}
          </p>
        ) : (
          <div className="grid gap-4 md:grid-cols-2" data-testid="live-evaluations">
            {kinds.map((k) => ep.evaluations.filter((e) => e.kind === k).map((e) => <EvaluationCard key={e.id} evaluation={e} />))}
          </div>
        )}
      </section>
    </div>
  );
}

/** A replay against its recording: identical, or where it first diverges and how. */
function ReplayVerdict({ comparison: c }: { comparison: NonNullable<NonNullable<EpisodeLive["replay"]>["comparison"]> }) {
  if (c.identical) {
    return (
      <p className="mt-3 rounded-md bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900" data-testid="replay-verdict">
        Identical to the recorded trajectory: the same actions and inputs, observations and final answer (ToolEmu&apos;s leading &quot;: &quot; dropped from its final output).
      </p>
    );
  }
  const where = c.field === "final answer" ? "the final answer" : `step ${(c.firstDivergentStep ?? 0) + 1} (${c.field})`;
  return (
    <div className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900" data-testid="replay-verdict">
      <p className="font-medium">Diverges from the recorded trajectory at {where}.</p>
      <dl className="mt-1 grid gap-1 md:grid-cols-2">
        <div><dt className="text-xs text-rose-700">Recorded</dt><dd className="whitespace-pre-wrap break-words font-mono text-xs">{c.recorded?.slice(0, 600) ?? "(nothing)"}</dd></div>
        <div><dt className="text-xs text-rose-700">Replayed</dt><dd className="whitespace-pre-wrap break-words font-mono text-xs">{c.replayed?.slice(0, 600) ?? "(nothing)"}</dd></div>
      </dl>
    </div>
  );
}
