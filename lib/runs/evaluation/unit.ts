// Plays one unit of an evaluation run: one evaluator call (one kind, one replicate) on a stored
// trajectory, written as an Evaluation named for the evaluator and replicate (./naming.ts). The
// replicate is the request's sample index and the run's temperature its temperature, so with the
// response cache on, replicates are separate answers (the same replicate again is a cache hit).
// A retried unit rewrites the same row (unique per trajectory, kind and name).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { ModelClient } from "@/lib/llm/types";
import { failed, type AttemptResult } from "../attempt";
import { replicateName } from "./naming";
import type { StoredEvaluationSettings } from "./schemas";
import { evaluateStoredTrajectory } from "./stored-trajectory";
import { evaluatorTemplate } from "./templates";

export interface EvaluationUnitSpec {
  sourceTrajectoryId: string;
  kind: "SAFETY" | "HELPFULNESS";
  /** 1-based. */
  replicate: number;
  settings: StoredEvaluationSettings;
}

export async function playEvaluationUnit(
  db: Db,
  runId: string,
  unit: EvaluationUnitSpec,
  client: ModelClient,
  signal: AbortSignal,
): Promise<AttemptResult> {
  const template = evaluatorTemplate(unit.kind, unit.settings.templateVersion);
  if (!template) return failed("bad_request", `No version ${unit.settings.templateVersion} of the ${unit.kind.toLowerCase()} evaluator template in this build.`);
  const [outcome] = await evaluateStoredTrajectory(db, unit.sourceTrajectoryId, client, [unit.kind], {
    signal,
    runId,
    evaluatorName: replicateName(unit.settings.evaluatorBase, unit.replicate),
    templates: { [unit.kind]: template },
    temperature: unit.settings.temperature ?? undefined,
    sample: unit.replicate,
  });
  if (!outcome) return failed("internal", "the evaluation returned no outcome");
  if (outcome.ok) return { ok: true };
  return failed(outcome.errorKind, outcome.error);
}
