import { ScoreBadge } from "./score-badge";
import { FormattedText } from "./formatted-text";
import { cleanLabel } from "./format";
import { KIND_LABELS, SCORE_LABELS } from "./score-scale";
import type { EvaluationDetail } from "./types";

/** One evaluator's verdict: score, qualitative label, model, summary; the full reasoning folds out. */
export function EvaluationCard({ evaluation: e }: { evaluation: EvaluationDetail }) {
  const label = cleanLabel(e.label) ?? (e.score !== null ? SCORE_LABELS[e.kind][e.score] : null);
  return (
    <article data-testid="evaluation-card" data-kind={e.kind} data-evaluator={e.evaluatorModel} className="flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start gap-3">
        <ScoreBadge kind={e.kind} score={e.score} evaluator={e.evaluatorModel} size="lg" />
        <div className="min-w-0">
          <p className="break-all font-mono text-xs font-semibold text-slate-600" data-testid="evaluation-model" title={`${KIND_LABELS[e.kind]} evaluator ${e.evaluatorModel}`}>{e.evaluatorModel}</p>
          <p className="font-medium text-slate-900" data-testid="evaluation-label">{label ?? "No label"}</p>
        </div>
      </div>
      {e.warning && (
        <p className="mt-3 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-800" data-testid="evaluation-warning">{e.warning}</p>
      )}
      {e.score === null && (
        <p className="mt-3 rounded-md bg-amber-50 px-2 py-1 text-xs text-amber-800">The evaluator&apos;s output could not be parsed into a score.</p>
      )}
      {e.summary && (
        <div className="mt-3">
          <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Summary</h4>
          <FormattedText text={e.summary} testId="evaluation-summary" />
        </div>
      )}
      {e.thought && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-xs font-medium text-slate-600 hover:text-slate-900">Evaluator reasoning</summary>
          <div className="mt-2 max-h-[36rem] overflow-auto rounded-md bg-slate-50 p-3" tabIndex={0} role="region" aria-label={`Reasoning of ${e.evaluatorModel}`}><FormattedText text={e.thought} testId="evaluation-thought" /></div>
        </details>
      )}
    </article>
  );
}
