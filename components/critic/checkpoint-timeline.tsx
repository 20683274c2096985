// A trajectory's checkpoint timelines (issue 13 item 9): one per critic assessment (method,
// critic model, run). Per checkpoint: the step and its tool (or the final answer), what the critic
// inferred, the probability of the real task in each option order, p̄, the decision at the run's τ
// and — when the online gate asked — the human's answer. No hooks: native <details> only.
import Link from "next/link";
import type { CheckpointTimeline, TimelineCheckpoint } from "@/lib/runs/critic/queries";
import { CRITIC_METHOD_LABELS } from "@/lib/critic/settings";
import { Disclosure } from "@/components/ui/panel";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { formatDate } from "@/components/toolemu/format";
import { OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL } from "@/lib/offline-label";

const DECISION = {
  pass: { label: "pass", cls: "bg-emerald-50 text-emerald-800 ring-emerald-200", dot: "bg-emerald-500" },
  flag: { label: "flag", cls: "bg-rose-50 text-rose-800 ring-rose-200", dot: "bg-rose-500" },
  ERROR: { label: "ERROR", cls: "bg-amber-50 text-amber-900 ring-amber-300", dot: "bg-amber-500" },
} as const;

const fmtP = (p: number | null | undefined) => (p === null || p === undefined ? "—" : p.toFixed(2));

function PBar({ p, tau }: { p: number | null; tau: number }) {
  return (
    <span className="relative inline-block h-2 w-24 rounded-full bg-slate-100 align-middle" aria-hidden="true">
      {p !== null && <span className={`absolute inset-y-0 left-0 rounded-full ${p > tau ? "bg-emerald-400" : "bg-rose-400"}`} style={{ width: `${Math.round(p * 100)}%` }} />}
      <span className="absolute -inset-y-0.5 w-px bg-slate-500" style={{ left: `${Math.round(tau * 100)}%` }} />
    </span>
  );
}

function Answer({ i }: { i: NonNullable<TimelineCheckpoint["intervention"]> }) {
  const who = i.simulated ? "simulated user" : (i.answeredBy ?? "a reviewer");
  if (i.status === "PENDING") return <p className="mt-2 text-xs text-amber-800" data-testid="checkpoint-answer" data-status="PENDING">Waiting for a human&apos;s answer (<Link href="/interventions" className="underline">intervention queue</Link>).</p>;
  return (
    <p className={`mt-2 rounded-md px-2 py-1 text-xs ${i.status === "APPROVED" ? "bg-emerald-50 text-emerald-900" : "bg-rose-50 text-rose-900"}`} data-testid="checkpoint-answer" data-status={i.status}>
      <strong>{i.status === "APPROVED" ? "Approved" : i.feedback ? "Rejected with feedback" : "Rejected"}</strong> by {who}{i.answeredAt ? ` · ${formatDate(i.answeredAt)}` : ""}
      {i.feedback && <span className="mt-0.5 block whitespace-pre-wrap">“{i.feedback}”</span>}
    </p>
  );
}

function Baseline({ k }: { k: TimelineCheckpoint }) {
  const d = k.detail as { votesCorrect?: number; votesIncorrect?: number; unreadable?: number; steps?: (number | null)[]; aggregation?: string; correct?: boolean | null; confidence?: number | null; raw?: string } | null;
  if (!d) return null;
  if (typeof d.votesCorrect === "number") return <p className="text-xs text-slate-600">Votes: {d.votesCorrect} on track, {d.votesIncorrect ?? 0} off track{d.unreadable ? `, ${d.unreadable} unreadable` : ""}.</p>;
  if (Array.isArray(d.steps)) return <p className="text-xs text-slate-600">Per step: {d.steps.map((p) => fmtP(p)).join(" · ")} → {d.aggregation}.</p>;
  if (d.correct !== undefined) return <p className="text-xs text-slate-600">Verdict: {d.correct === null ? "unreadable" : d.correct ? "correct" : "incorrect"}{d.confidence !== null && d.confidence !== undefined ? `, confidence ${fmtP(d.confidence)}` : ""}.</p>;
  return null;
}

function Checkpoint({ k, tau, method }: { k: TimelineCheckpoint; tau: number; method: CheckpointTimeline["method"] }) {
  const dec = DECISION[k.decision];
  return (
    <li className="relative pb-4 pl-6 last:pb-0" data-testid="timeline-checkpoint" data-decision={k.decision} data-step={k.stepIndex}>
      <span className={`absolute left-0 top-1.5 h-3 w-3 rounded-full ring-2 ring-white ${dec.dot}`} aria-hidden="true" />
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="font-medium text-slate-900">{k.final ? "Final answer" : <>Step {k.stepIndex + 1} · <span className="font-mono text-sm">{k.tool}</span></>}</span>
        <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${dec.cls}`} data-testid="checkpoint-decision">{dec.label}</span>
        <span className="flex items-center gap-2 text-sm tabular-nums">
          <span title={method === "INFERACT" ? "p̄(t*): the mean of both orders' probability of the real task" : "The critic's probability that the agent is on track"}>{method === "INFERACT" ? "p̄" : "p"} = <strong data-testid="checkpoint-p">{fmtP(k.p)}</strong></span>
          <PBar p={k.p} tau={tau} />
        </span>
        {k.amount !== null && <span className="text-xs text-slate-500">amount {k.amount}</span>}
      </div>
      {k.error && <p className="mt-1 text-xs text-amber-800" data-testid="checkpoint-error">{k.error}</p>}
      {method === "INFERACT" && (k.forward || k.reverse) && (
        <dl className="mt-1 flex flex-wrap gap-x-4 text-xs text-slate-600 tabular-nums">
          <div><dt className="inline">p(t*) forward </dt><dd className="inline font-medium text-slate-800" data-testid="checkpoint-forward">{fmtP(k.forward?.p)}</dd></div>
          {k.reverse && <div><dt className="inline">reversed </dt><dd className="inline font-medium text-slate-800" data-testid="checkpoint-reverse">{fmtP(k.reverse.p)}</dd></div>}
        </dl>
      )}
      {k.inferredTasks.length > 0 && (
        <div className="mt-1.5">
          <p className="text-xs font-medium text-slate-500">Tasks the critic inferred from the actions</p>
          <ol className="mt-0.5 list-[upper-alpha] space-y-0.5 pl-5 text-sm text-slate-700" data-testid="inferred-tasks">
            {k.inferredTasks.map((task, i) => <li key={i}>{task}</li>)}
          </ol>
        </div>
      )}
      <Baseline k={k} />
      {(k.forward?.raw || k.reverse?.raw) && (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer text-slate-500 hover:text-slate-800">Critic&apos;s answers</summary>
          {k.forward?.raw && <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-700">{k.forward.raw}</pre>}
          {k.reverse?.raw && <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-700">{k.reverse.raw}</pre>}
        </details>
      )}
      {k.intervention && <Answer i={k.intervention} />}
    </li>
  );
}

export function CheckpointTimelines({ timelines }: { timelines: CheckpointTimeline[] }) {
  return (
    <section aria-labelledby="checkpoint-timeline" id="checkpoint-timeline-section" className="scroll-mt-4" data-testid="checkpoint-timelines">
      <h2 id="checkpoint-timeline" className="mb-3 scroll-mt-4 text-lg font-semibold">Critic checkpoints ({timelines.length})</h2>
      {timelines.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-500" data-testid="no-assessment">
          No critic has judged this trajectory yet. A <Link href="/runs/critic" className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">critic replay</Link> (InferAct or a baseline) checks it at each critical call and at the final answer.
        </p>
      ) : (
        <div className="space-y-4">
          {timelines.map((a) => (
            <article key={a.assessmentId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="checkpoint-timeline" data-method={a.method} data-flagged={a.flagged}>
              <header className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
                <div>
                  <h3 className="font-semibold text-slate-900">{CRITIC_METHOD_LABELS[a.method]} <span className="font-normal text-slate-500" data-testid="timeline-critic-model">· {a.criticModel === OFFLINE_MODEL_ID ? OFFLINE_MODEL_LABEL : a.criticModel}</span></h3>
                  <p className="text-xs text-slate-500">
                    {a.run ? <>Run <Link href={`/runs/${a.run.id}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{a.run.name}</Link></> : "No run"}
                    {a.online ? " · online gate" : " · replay"} · {formatDate(a.createdAt)} · {fmtInt(a.usage.inputTokens + a.usage.outputTokens)} tokens · {fmtUsd(a.usage.costUsd)}
                  </p>
                </div>
                <p className="text-sm">
                  τ = <span className="tabular-nums">{a.tau}</span> · {a.checkpoints.length} checkpoint{a.checkpoints.length === 1 ? "" : "s"} · min {a.method === "INFERACT" ? "p̄" : "p"} <span className="tabular-nums">{fmtP(a.minP)}</span>
                  {a.errorCount > 0 && <span className="text-amber-800"> · {a.errorCount} ERROR</span>}
                  {" · "}<strong className={a.flagged ? "text-rose-700" : "text-emerald-700"} data-testid="timeline-verdict">{a.flagged ? "flagged" : "passed"}</strong>
                </p>
              </header>
              {a.checkpoints.length === 0 ? (
                <p className="text-sm text-slate-500">No checkpoint: no critical tool was called and there is no final answer.</p>
              ) : (
                <ol className="relative border-l border-slate-200 pl-0 [&>li]:-ml-[7px]">{a.checkpoints.map((k) => <Checkpoint key={k.stepIndex} k={k} tau={a.tau} method={a.method} />)}</ol>
              )}
            </article>
          ))}
          <Disclosure>
            <p>A <strong>checkpoint</strong> is each call of a critical tool (the toolkit&apos;s risk metadata, curated or by the default rule, plus the case&apos;s own) and the final answer. The critic sees the earlier actions with their inputs and observations and the pending action — never the agent&apos;s thoughts, nor the pending call&apos;s observation.</p>
            <p><strong>InferAct</strong>: the critic first infers three tasks the actions could serve (A–C), then is asked which of the options — those three, the user&apos;s real task t* and “None of the above” — the chain fulfils, naming a probability for each; asked again with the options in reversed order. p̄ is the mean of t*&apos;s probability in the two orders (an option not named counts 0). The baselines give one probability that the agent is on track (standard: correct/incorrect with a confidence; self-consistency: the share of m samples voting correct; multi-step: per-step probabilities folded by min, max, mean or product).</p>
            <p><strong>Decision</strong> at the run&apos;s τ: pass iff p̄ &gt; τ, flag otherwise; ERROR when the critic&apos;s answer could not be read (counted as a flag). A trajectory is flagged at its first flagged checkpoint. The marker on each bar is τ.</p>
          </Disclosure>
        </div>
      )}
    </section>
  );
}
