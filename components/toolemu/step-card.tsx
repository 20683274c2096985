import { JsonOrText, ModelText, CodeBlock } from "./code-block";
import { fmtUsd } from "@/components/ui/format";
import { thoughtOf } from "./format";
import type { StepDetail } from "./types";
import type { EmulatorCritiqueRound } from "@/lib/emulation/self-critique";


/** Step.emulatorCritiques as stored by the engine (lib/emulation/self-critique.ts); anything else reads as none. */
function critiqueRounds(v: unknown): EmulatorCritiqueRound[] {
  return Array.isArray(v) ? (v.filter((r) => r && typeof r === "object" && typeof (r as EmulatorCritiqueRound).round === "number") as EmulatorCritiqueRound[]) : [];
}

function isErrorObservation(obs: unknown): boolean {
  return !!obs && typeof obs === "object" && !Array.isArray(obs) && "error" in obs;
}

/** One agent step: thought, action and input, the emulated observation, the emulator's notes. */
export function StepCard({ step, waiting = false }: { step: StepDetail; /** Live view: the emulator has not answered this call yet. */ waiting?: boolean }) {
  const thought = thoughtOf(step.thought);
  const fullLogDiffers = !!step.thought && step.thought.trim() !== thought;
  const error = isErrorObservation(step.observation);
  const n = step.index + 1;
  const critiques = critiqueRounds(step.emulatorCritiques);
  return (
    <li id={`step-${n}`} data-testid="step-card" data-step={n} className="scroll-mt-4 rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-5 py-2.5">
        <span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white tabular-nums">Step {n}</span>
        <code className="font-mono text-sm font-semibold text-indigo-800" data-testid="step-action">{step.action ?? "(no action)"}</code>
        {error && <span className="rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-700">error observation</span>}
        {step.inputInvalid && <span className="rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-800" title="Our input checks rejected the call before the emulator saw it" data-testid="step-input-invalid">input_invalid</span>}
        {critiques.length > 0 && (
          <span className="rounded bg-violet-50 px-1.5 py-0.5 text-xs text-violet-800" title="Forced self-critique: the emulator checked its own valid observation and wrote it again" data-testid="step-self-critique-badge">
            {critiques.length} self-critique round{critiques.length === 1 ? "" : "s"}
          </span>
        )}
        {step.emulatorRounds > 1 && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600" title="The emulator's output was critiqued and re-asked">{step.emulatorRounds} emulator rounds</span>}
        {(step.inputTokens > 0 || step.latencyMs > 0) && (
          <span className="ml-auto text-xs tabular-nums text-slate-500" data-testid="step-usage">
            {step.inputTokens + step.outputTokens} tokens · {fmtUsd(step.costUsd)} · {(step.latencyMs / 1000).toFixed(2)} s
          </span>
        )}
      </div>
      {(step.parseError || step.emulatorFailure) && (
        <p className="border-b border-amber-100 bg-amber-50 px-5 py-2 text-xs text-amber-900" data-testid="step-problem">
          {step.parseError && <>Agent output not parsed: {step.parseError}. </>}
          {step.emulatorFailure && <>Emulator failure: {step.emulatorFailure}</>}
        </p>
      )}
      {step.emulatorProblem && (
        <p className="border-b border-amber-100 bg-amber-50 px-5 py-2 text-xs text-amber-900" data-testid="step-emulator-problem">
          Emulator output passed on as it was (ToolEmu-compatible loop), though: {step.emulatorProblem}
        </p>
      )}
      <div className="space-y-4 px-5 py-4">
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Agent thought</h3>
          <ModelText text={thought} testId="step-thought" />
          {fullLogDiffers && (
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer text-xs font-medium text-slate-500 hover:text-slate-800">Full agent log</summary>
              <div className="mt-2"><CodeBlock text={step.thought ?? ""} label={`Step ${n} agent log`} /></div>
            </details>
          )}
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="min-w-0">
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Action input</h3>
            <JsonOrText raw={step.actionInputRaw} parsed={step.actionInput} label={`Step ${n} action input`} testId="step-action-input" />
          </div>
          <div className="min-w-0">
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Observation <span className="font-normal normal-case text-slate-500">(emulated)</span></h3>
            {waiting && step.observationRaw === null ? (
              <p className="animate-pulse text-sm text-slate-600" data-testid="step-waiting">waiting for the emulator…</p>
            ) : (
              <JsonOrText raw={step.observationRaw} parsed={step.observation} label={`Step ${n} observation`} tone={error ? "error" : "plain"} testId="step-observation" />
            )}
          </div>
        </div>
        {(step.emulatorSummary || step.emulatorThought) && (
          <details className="rounded-md border border-slate-200 bg-slate-50/60 px-3 py-2 text-sm" data-testid="emulator-log">
            <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">Emulator log summary</summary>
            <div className="mt-2 space-y-3">
              <ModelText text={step.emulatorSummary} />
              {step.emulatorThought && step.emulatorThought !== step.emulatorSummary && (
                <details>
                  <summary className="cursor-pointer text-xs font-medium text-slate-500 hover:text-slate-800">Full emulator log</summary>
                  <div className="mt-2"><CodeBlock text={step.emulatorThought} label={`Step ${n} emulator log`} /></div>
                </details>
              )}
            </div>
          </details>
        )}
        {critiques.length > 0 && (
          <details className="rounded-md border border-violet-200 bg-violet-50/40 px-3 py-2 text-sm" data-testid="self-critique">
            <summary className="cursor-pointer text-xs font-medium text-violet-900 hover:text-violet-950">
              Emulator self-critique ({critiques.length} round{critiques.length === 1 ? "" : "s"}, {critiques.filter((r) => r.accepted).length} revision{critiques.filter((r) => r.accepted).length === 1 ? "" : "s"} used)
            </summary>
            <p className="mt-1 text-xs text-slate-500">
              After a usable observation the emulator critiqued it against its requirements (input validity, realism, accuracy, consistency; adversarial: the stress test) and wrote it again. A usable revision replaced the observation; an unusable one was set aside. The observation above is the last one used.
            </p>
            <ol className="mt-2 space-y-3">
              {critiques.map((r) => (
                <li key={r.round} data-testid="self-critique-round">
                  <p className="text-xs font-semibold text-slate-700">
                    Round {r.round} · {r.accepted ? "revision used" : `revision set aside: ${r.problem ?? "unusable"}`} · {r.inputTokens + r.outputTokens} tokens · {fmtUsd(r.costUsd)}
                  </p>
                  <h4 className="mt-1 text-xs font-medium uppercase tracking-wide text-slate-500">Critique</h4>
                  <ModelText text={r.critique ?? "(no critique written)"} />
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs font-medium text-slate-500 hover:text-slate-800">Revised output</summary>
                    <div className="mt-2"><CodeBlock text={r.revision} label={`Step ${n} self-critique round ${r.round} revision`} /></div>
                  </details>
                </li>
              ))}
            </ol>
          </details>
        )}
      </div>
    </li>
  );
}
