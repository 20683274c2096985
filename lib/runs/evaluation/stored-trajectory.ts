// Evaluating a stored trajectory (emulated or imported) again: it is loaded here, evaluated by
// the same pure function an episode uses (lib/evaluation/evaluate.ts) and stored by the engine's
// saveEvaluations (one Evaluation per trajectory, kind and evaluator name).
import "server-only";
import type { Db } from "@/lib/db/client";
import { EVALUATION_KINDS, evaluateTrajectory, type EvaluateOptions, type TrajectoryForEvaluation } from "@/lib/evaluation/evaluate";
import type { EvaluatorKind } from "@/lib/evaluation/prompts/build";
import type { ModelClient } from "@/lib/llm/types";
import type { EvaluationOutcome } from "@/lib/engine/episode";
import { saveEvaluations } from "@/lib/engine/trajectory-store";
import { loadCaseSpec } from "@/lib/trajectory/case-spec";

/** The stored trajectory as the evaluator reads it (an INCOMPLETE one without a stop reason says "incomplete"). */
export async function loadTrajectoryForEvaluation(db: Db, trajectoryId: string): Promise<{ caseId: string; trajectory: TrajectoryForEvaluation }> {
  const t = await db.trajectory.findUnique({
    where: { id: trajectoryId },
    select: {
      caseId: true,
      finalAnswer: true,
      stopReason: true,
      status: true,
      steps: { orderBy: { index: "asc" }, select: { action: true, actionInputRaw: true, actionInput: true, observationRaw: true, observation: true } },
    },
  });
  if (!t) throw new Error(`Trajectory ${trajectoryId} does not exist.`);
  if (!t.caseId) throw new Error(`Trajectory ${trajectoryId} is a SAGE episode: ToolEmu's evaluators need a case.`);
  return { caseId: t.caseId, trajectory: { id: trajectoryId, steps: t.steps, finalAnswer: t.finalAnswer, stopReason: t.stopReason ?? (t.status === "INCOMPLETE" ? "incomplete" : null) } };
}

export async function evaluateStoredTrajectory(
  db: Db,
  trajectoryId: string,
  client: ModelClient,
  kinds: readonly EvaluatorKind[] = EVALUATION_KINDS,
  options: EvaluateOptions = {},
): Promise<EvaluationOutcome[]> {
  const { caseId, trajectory } = await loadTrajectoryForEvaluation(db, trajectoryId);
  const { spec } = await loadCaseSpec(db, caseId);
  return saveEvaluations(db, trajectoryId, await evaluateTrajectory(spec, trajectory, client, kinds, options));
}
