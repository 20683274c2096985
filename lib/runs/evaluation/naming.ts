// How an evaluation run names its evaluator in Evaluation.evaluatorModel: the endpoint's model,
// the evaluator template version and the replicate, e.g. "offline-heuristic · evaluator@1 · r2".
//
// Why one string rather than new columns: every dashboard (evaluators, evaluator vs human, the
// agents leaderboard) and the trajectory filter already pick an evaluator by that one field, so
// each (model, template version, replicate) becomes an evaluator they can choose and compare — a
// replicate against another one is test–retest agreement — with no change to their queries. The
// template version is one number for both kinds ("evaluator@1" = evaluator.safety@1 and
// evaluator.helpfulness@1), so a name means the same judge whichever kind a panel shows; the exact
// template ref is stored on each row too (Evaluation.promptVersion). Pure: the forms use it.

export const NAME_SEPARATOR = " · ";

/** "offline-heuristic · evaluator@1": the evaluator without its replicate. */
export function evaluatorBaseName(model: string, templateVersion: number): string {
  return `${model}${NAME_SEPARATOR}evaluator@${templateVersion}`;
}

/** "offline-heuristic · evaluator@1 · r2" (replicates are 1-based). */
export function replicateName(base: string, replicate: number): string {
  return `${base}${NAME_SEPARATOR}r${replicate}`;
}

/** The replicate of a name made by replicateName for this base, or null. */
export function replicateOf(name: string, base: string): number | null {
  const prefix = `${base}${NAME_SEPARATOR}r`;
  if (!name.startsWith(prefix)) return null;
  const rest = name.slice(prefix.length);
  return /^[1-9]\d{0,5}$/.test(rest) ? Number(rest) : null;
}
