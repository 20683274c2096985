// One agreement table of the human-label panels (evaluator vs human, annotator vs annotator):
// confusion matrix, κ / raw agreement / marginals, their bootstrap intervals, ties and n.
import {
  agreementIntervals,
  agreementSummary,
  confusionFromCells,
  type AgreementIntervals,
  type AgreementRanges,
  type AgreementSummary,
  type ConfusionMatrix,
} from "@/lib/metrics";

export interface AgreementBlock {
  /** Rows: first rater (evaluator / annotator), columns: second (human ground truth / annotator). */
  confusion: ConfusionMatrix;
  summary: AgreementSummary;
  intervals: AgreementIntervals;
  /** Items whose ground truth is an unadjudicated tie (0 where there is no vote). */
  ties: number;
  /** Of those, left out of n by the "exclude" policy. */
  tiesExcluded?: number;
  /** "sensitivity": each statistic's exact range over every resolution of the ties. */
  ranges?: AgreementRanges;
  n: number;
}

export function agreementBlock(cells: { rater1: number; rater2: number; count: number }[], labels: readonly number[], ties: number, seed: number, resamples: number): AgreementBlock {
  const confusion = confusionFromCells(cells, labels);
  return { confusion, summary: agreementSummary(confusion), intervals: agreementIntervals(confusion, { seed, resamples }), ties, n: confusion.n };
}
