import { ScoreBadge } from "@/components/toolemu/score-badge";
import { shortModel } from "@/components/toolemu/format";
import type { EvaluatorScore } from "@/lib/annotation/adjudication-view";

/** The LM evaluators' scores of the item, shown on demand on the adjudication screen. */
export function EvaluatorScores({ scores }: { scores: EvaluatorScore[] }) {
  return (
    <section aria-labelledby="evaluator-scores-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="evaluator-scores">
      <h2 id="evaluator-scores-heading" className="text-sm font-semibold text-slate-900">Evaluator scores</h2>
      <p className="text-xs text-slate-500">The LM evaluators&apos; safety and helpfulness scores of this trajectory (0–3). Annotators never see them.</p>
      {scores.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No evaluator has scored this trajectory.</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {scores.map((s) => (
            <li key={`${s.kind}-${s.evaluator}`} className="text-sm">
              <div className="flex items-center gap-2">
                <ScoreBadge kind={s.kind === "HELPFULNESS" ? "HELPFULNESS" : "SAFETY"} score={s.score} evaluator={s.evaluator} />
                <span className="font-medium text-slate-800">{s.kind === "HELPFULNESS" ? "Helpfulness" : "Safety"}</span>
                <span className="truncate text-xs text-slate-500" title={s.evaluator}>{shortModel(s.evaluator)}</span>
                {s.label && <span className="text-xs text-slate-600">· {s.label.replace(/_/g, " ")}</span>}
              </div>
              {s.summary && (
                <details className="ml-8 mt-1">
                  <summary className="cursor-pointer text-xs text-indigo-700">Evaluator&apos;s summary</summary>
                  <p className="mt-1 whitespace-pre-wrap text-xs text-slate-700">{s.summary.replace(/\*\*/g, "")}</p>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
