// Two trajectories of one case side by side: who played them, their evaluations, the steps
// aligned on the tool each called (a call only one side made sits beside a gap), the final answers.
import Link from "next/link";
import type { AlignedPair } from "@/lib/toolemu/align-steps";
import type { TrajectoryDetail } from "@/lib/toolemu/queries/trajectory";
import { CodeBlock, JsonOrText, ModelText } from "./code-block";
import { FormattedText } from "./formatted-text";
import { MODE_LABELS, STATUS_LABELS, cleanLabel, shortModel, thoughtOf } from "./format";
import { ScoreBadge } from "./score-badge";
import { KIND_LABELS, SCORE_LABELS } from "./score-scale";
import type { StepDetail } from "./types";
import { ScrollRegion } from "@/components/ui/scroll-region";

type T = TrajectoryDetail;

function Side({ t, name }: { t: T; name: "A" | "B" }) {
  return (
    <div className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={`compare-side-${name}`}>
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Trajectory {name}</p>
      <p className="mt-1 font-medium text-slate-900" title={t.agentModel}>{shortModel(t.agentModel)}{t.agentVariant ? ` · ${t.agentVariant}` : ""}</p>
      <p className="text-sm text-slate-600">
        <span title={t.emulatorModel}>{shortModel(t.emulatorModel)}</span> · <span data-testid={`compare-mode-${name}`}>{MODE_LABELS[t.emulatorMode]}</span> · {STATUS_LABELS[t.status]} · {t.stepCount} {t.stepCount === 1 ? "step" : "steps"}
      </p>
      <Link href={`/trajectories/${t.id}`} className="mt-1 inline-block font-mono text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{t.id}</Link>
    </div>
  );
}

/** One row per (kind, evaluator) that scored either side: both scores and labels, summaries on demand. */
function Evaluations({ a, b }: { a: T; b: T }) {
  const keys: { kind: "SAFETY" | "HELPFULNESS"; model: string }[] = [];
  for (const e of [...a.evaluations, ...b.evaluations]) if (!keys.some((k) => k.kind === e.kind && k.model === e.evaluatorModel)) keys.push({ kind: e.kind, model: e.evaluatorModel });
  keys.sort((x, y) => (x.kind === y.kind ? (x.model < y.model ? -1 : 1) : x.kind === "SAFETY" ? -1 : 1));
  if (keys.length === 0) return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">Neither trajectory has been evaluated.</p>;
  const cell = (t: T, kind: "SAFETY" | "HELPFULNESS", model: string) => {
    const e = t.evaluations.find((x) => x.kind === kind && x.evaluatorModel === model);
    if (!e) return <span className="text-sm text-slate-500">not scored</span>;
    return (
      <div className="min-w-0">
        <div className="flex items-center gap-2">
          <ScoreBadge kind={kind} score={e.score} evaluator={model} />
          <span className="text-sm text-slate-800">{cleanLabel(e.label) ?? (e.score !== null ? SCORE_LABELS[kind][e.score] : "unparsed")}</span>
        </div>
        {e.summary && (
          <details className="mt-1 text-sm">
            <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">Summary</summary>
            <FormattedText text={e.summary} className="mt-1" />
          </details>
        )}
      </div>
    );
  };
  return (
    <ScrollRegion>
      <table className="w-full text-left text-sm" data-testid="compare-evaluations">
        <thead className="bg-slate-50 text-xs uppercase text-slate-600">
          <tr><th scope="col" className="px-3 py-2">Evaluation</th><th scope="col" className="px-3 py-2">A</th><th scope="col" className="px-3 py-2">B</th></tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((k) => (
            <tr key={`${k.kind}-${k.model}`} className="align-top" data-testid="compare-evaluation-row">
              <th scope="row" className="px-3 py-2 font-normal"><span className="font-medium text-slate-800">{KIND_LABELS[k.kind]}</span><br /><span className="font-mono text-xs text-slate-600" title={k.model}>{shortModel(k.model)}</span></th>
              <td className="px-3 py-2">{cell(a, k.kind, k.model)}</td>
              <td className="px-3 py-2">{cell(b, k.kind, k.model)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function StepCell({ step, side }: { step: StepDetail | null; side: "A" | "B" }) {
  if (!step) return <div className="flex items-center justify-center rounded-lg border border-dashed border-slate-300 p-3 text-xs text-slate-500" data-testid="compare-gap">no matching step in {side}</div>;
  const thought = thoughtOf(step.thought);
  return (
    <div className="min-w-0 space-y-2 rounded-lg border border-slate-200 bg-white p-3" data-testid={`compare-step-${side}`}>
      <p className="text-xs text-slate-500">Step {step.index + 1} · <code className="font-mono text-sm font-semibold text-indigo-800" data-testid="compare-step-action">{step.action ?? "(no action)"}</code></p>
      {thought && <ModelText text={thought} className="text-xs text-slate-700" />}
      <div>
        <p className="mb-0.5 text-[11px] font-semibold uppercase tracking-wide text-slate-500">Input</p>
        {step.actionInputRaw ? <CodeBlock text={step.actionInputRaw} label={`${side} step ${step.index + 1} input`} /> : <p className="text-xs text-slate-500">(none)</p>}
      </div>
      <div>
        <p className="mb-0.5 text-[11px] font-semibold uppercase tracking-wide text-slate-500">Observation</p>
        <JsonOrText raw={step.observationRaw} parsed={step.observation} label={`${side} step ${step.index + 1} observation`} />
      </div>
    </div>
  );
}

export function CompareView({ a, b, pairs }: { a: T; b: T; pairs: AlignedPair[] }) {
  const same = pairs.filter((p) => p.a !== null && p.b !== null && a.steps[p.a]!.action === b.steps[p.b]!.action).length;
  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-2">
        <Side t={a} name="A" />
        <Side t={b} name="B" />
      </div>

      <section aria-labelledby="compare-evaluations-heading">
        <h2 id="compare-evaluations-heading" className="mb-2 text-lg font-semibold">Evaluations</h2>
        <Evaluations a={a} b={b} />
      </section>

      <section aria-labelledby="compare-steps-heading">
        <h2 id="compare-steps-heading" className="text-lg font-semibold">Steps</h2>
        <p className="mb-3 text-sm text-slate-600" data-testid="compare-alignment-note">
          Aligned on the tool each step called (longest common sequence of calls): {same} of {pairs.length} rows call the same tool on both sides; a call only one side made sits beside a gap.
        </p>
        {pairs.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">Neither agent called a tool.</p>
        ) : (
          <ol className="space-y-3">
            {pairs.map((p, i) => {
              const sa = p.a !== null ? a.steps[p.a]! : null;
              const sb = p.b !== null ? b.steps[p.b]! : null;
              const differ = !sa || !sb || sa.action !== sb.action;
              return (
                <li key={i} className={`grid gap-3 rounded-xl p-2 md:grid-cols-2 ${differ ? "bg-amber-50/70 ring-1 ring-amber-200" : "bg-slate-50"}`} data-testid="compare-row" data-differ={differ}>
                  <StepCell step={sa} side="A" />
                  <StepCell step={sb} side="B" />
                </li>
              );
            })}
          </ol>
        )}
      </section>

      <section aria-labelledby="compare-final-heading">
        <h2 id="compare-final-heading" className="mb-2 text-lg font-semibold">Final answers</h2>
        <div className="grid gap-4 md:grid-cols-2">
          {[a, b].map((t, i) => (
            <div key={t.id} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={`compare-final-${i === 0 ? "A" : "B"}`}>
              <ModelText text={t.finalAnswer} />
            </div>
          ))}
        </div>
      </section>
    </div>
  );
}
