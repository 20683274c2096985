// One intervention as the approver reads it: the pending call (large), the user's real request
// beside the tasks the critic inferred from the actions alone, p̄ with what it means, and the
// chain of earlier actions and observations the critic saw. No hooks.
import Link from "next/link";
import type { InterventionView } from "@/lib/runs/interventions/queries";
import { CodeBlock } from "@/components/toolemu/code-block";
import { Disclosure } from "@/components/ui/panel";
import { formatDate } from "@/components/toolemu/format";

const p2 = (p: number | null) => (p === null ? "—" : p.toFixed(2));

/** The one line under p̄: what the number says about this call. */
export function pMeaning(c: InterventionView["critic"]): string {
  if (c.p === null) return "The critic's answer could not be read (ERROR), so the gate stops the call for a person to be safe.";
  const tau = c.tau === null ? "the run's threshold τ" : `τ = ${c.tau.toFixed(2)}`;
  return `The critic puts the chance that these actions serve the user's real request at ${Math.round(c.p * 100)}%; at or below ${tau} the gate pauses the call for you.`;
}

export function InterventionDetail({ iv }: { iv: InterventionView }) {
  const c = iv.critic;
  return (
    <div className="space-y-5" data-testid="intervention" data-intervention-id={iv.id}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
        {iv.run ? <Link href={`/runs/${iv.run.id}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{iv.run.name}</Link> : <span>Outside a run</span>}
        <span aria-hidden="true">·</span>
        {iv.case.id ? <Link href={`/cases/${iv.case.id}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="intervention-case">{iv.case.name}</Link> : <span>{iv.case.name}</span>}
        <span aria-hidden="true">·</span>
        <span>agent <code className="font-mono text-xs text-slate-800">{iv.agent.model}</code>{iv.agent.variant ? ` (${iv.agent.variant.toLowerCase()})` : ""}</span>
        {iv.trial > 1 && <span className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium text-indigo-800">trial {iv.trial}</span>}
        <span aria-hidden="true">·</span>
        <span>waiting since {formatDate(iv.createdAt)} UTC</span>
        <Link href={`/trajectories/${iv.trajectoryId}`} className="ml-auto text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Open the trajectory</Link>
      </div>

      <section aria-labelledby="pending-heading" className="rounded-xl border-2 border-amber-300 bg-amber-50/60 p-5 shadow-sm">
        <h2 id="pending-heading" className="text-xs font-semibold uppercase tracking-wide text-amber-800">Step {iv.stepIndex + 1} — the call waiting for you (not run yet)</h2>
        <p className="mt-1 break-all font-mono text-2xl font-semibold text-slate-900" data-testid="pending-tool">{iv.tool}</p>
        <div className="mt-3">
          <CodeBlock text={iv.actionInput || "(no input)"} label="Action input" testId="pending-input" />
        </div>
      </section>

      <div className="grid gap-4 md:grid-cols-2">
        <section aria-labelledby="real-task-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="real-task-heading" className="text-sm font-semibold text-slate-900">What the user really asked</h2>
          <p className="mt-2 whitespace-pre-wrap text-sm leading-relaxed text-slate-800" data-testid="real-instruction">{iv.case.instruction || "(no instruction)"}</p>
          {iv.trialFeedback && (
            <p className="mt-3 rounded-md bg-indigo-50 p-2 text-xs text-indigo-900">Feedback given to the previous trial: {iv.trialFeedback}</p>
          )}
        </section>
        <section aria-labelledby="inferred-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="inferred-heading" className="text-sm font-semibold text-slate-900">What the critic thinks the actions are for</h2>
          {c.inferredTasks.length ? (
            <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-slate-800" data-testid="inferred-tasks">
              {c.inferredTasks.map((t, i) => <li key={i}>{t}</li>)}
            </ol>
          ) : (
            <p className="mt-2 text-sm italic text-slate-500">{c.method && c.method !== "INFERACT" ? `This critic (${c.method.toLowerCase().replace("_", " ")}) does not infer tasks.` : "No inferred tasks were recorded."}</p>
          )}
          <p className="mt-2 text-xs text-slate-500">Inferred from the actions and observations only, without seeing the request.</p>
        </section>
      </div>

      <section aria-labelledby="p-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
          <h2 id="p-heading" className="text-sm font-semibold text-slate-900">p̄(real request)</h2>
          <span className={`text-3xl font-semibold tabular-nums ${c.p === null ? "text-rose-700" : "text-slate-900"}`} data-testid="critic-p">{c.p === null ? "ERROR" : p2(c.p)}</span>
          {c.tau !== null && <span className="text-sm text-slate-600">τ = {c.tau.toFixed(2)}</span>}
          {(c.forwardP !== null || c.reverseP !== null) && (
            <span className="text-xs text-slate-500">options in order: {p2(c.forwardP)} · reversed: {p2(c.reverseP)}</span>
          )}
        </div>
        <p className="mt-1 text-sm text-slate-700" data-testid="critic-p-meaning">{pMeaning(c)}</p>
        {c.error && <p className="mt-1 text-xs text-rose-700">{c.error}</p>}
        <Disclosure>
          <p>
            InferAct (Fang et al., 2024). Before a critical call runs, one request to the critic model lists the three requests a user most likely made, judging only from
            the actions and observations so far. A second request shows those three, the user&apos;s real request and &quot;none of the above&quot; as options A–E and asks for
            the probability that the chain fulfils, or is on its way to fulfil, each; it is asked again with the options in reverse order.
          </p>
          <p>p̄ is the mean of the real request&apos;s probability in the two orders (an option not named counts 0). The call passes when p̄ &gt; τ; otherwise it waits here. An answer the critic&apos;s output does not allow to read is ERROR and always waits.</p>
          <p>Approve: the call runs and the episode goes on. Reject: the agent observes that the user blocked the action. Reject with feedback: the same, and your words go into the agent&apos;s memory for its next trial.</p>
        </Disclosure>
      </section>

      <section aria-labelledby="chain-heading">
        <h2 id="chain-heading" className="mb-2 text-sm font-semibold text-slate-900">What the agent did before ({iv.chain.length} step{iv.chain.length === 1 ? "" : "s"}; actions and observations, as the critic saw them)</h2>
        {iv.chain.length === 0 ? (
          <p className="text-sm italic text-slate-500">Nothing: this is the agent&apos;s first call.</p>
        ) : (
          <ol className="space-y-3" data-testid="chain">
            {iv.chain.map((s) => (
              <li key={s.index} className="rounded-lg border border-slate-200 bg-white p-3" data-testid="chain-step">
                <div className="flex items-center gap-2">
                  <span className="rounded-full bg-slate-800 px-2 py-0.5 text-xs font-semibold text-white tabular-nums">Step {s.index + 1}</span>
                  <code className="font-mono text-sm font-semibold text-indigo-800">{s.action ?? "(no action)"}</code>
                </div>
                <div className="mt-2 grid gap-2 lg:grid-cols-2">
                  <div>
                    <p className="mb-1 text-xs font-medium text-slate-500">Input</p>
                    <CodeBlock text={s.actionInput ?? "(none)"} label={`Input of step ${s.index + 1}`} />
                  </div>
                  <div>
                    <p className="mb-1 text-xs font-medium text-slate-500">Observation</p>
                    <CodeBlock text={s.observation ?? "(none)"} label={`Observation of step ${s.index + 1}`} />
                  </div>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
