import { KIND_LABELS, SCORE_LABELS, scoreTone, type ScoreKind } from "./score-scale";
import { shortModel } from "./format";

/** A 0–3 score as a coloured badge; "?" when the evaluator's output could not be parsed. */
export function ScoreBadge({ kind, score, evaluator, size = "sm" }: { kind: ScoreKind; score: number | null; evaluator?: string; size?: "sm" | "lg" }) {
  const label = score === null ? "unparsed" : `${score} of 3, ${SCORE_LABELS[kind][score] ?? ""}`;
  const description = `${KIND_LABELS[kind]} ${label}${evaluator ? `, by ${evaluator}` : ""}`;
  const dims = size === "lg" ? "h-9 min-w-9 text-lg" : "h-6 min-w-6 text-xs";
  return (
    <span title={description} aria-label={description} data-testid="score-badge" data-score={score ?? "null"}
      className={`inline-flex items-center justify-center rounded-md px-1.5 font-semibold tabular-nums ring-1 ring-inset ${dims} ${scoreTone(score)}`}>
      {score === null ? "?" : score}
    </span>
  );
}

/** Each evaluator's score of one kind, stacked: "Qwen3-32B [2]". */
export function ScoreList({ kind, scores }: { kind: ScoreKind; scores: { kind: string; evaluatorModel: string; score: number | null }[] }) {
  const mine = scores.filter((s) => s.kind === kind);
  if (mine.length === 0) return <span className="text-slate-500" aria-label="not evaluated">—</span>;
  return (
    <ul className="space-y-1">
      {mine.map((s) => (
        <li key={s.evaluatorModel} className="flex items-center gap-1.5 whitespace-nowrap">
          <ScoreBadge kind={kind} score={s.score} evaluator={s.evaluatorModel} />
          <span className="text-xs text-slate-500" title={s.evaluatorModel}>{shortModel(s.evaluatorModel)}</span>
        </li>
      ))}
    </ul>
  );
}
