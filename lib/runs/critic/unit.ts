// Plays one unit of a critic replay run: one method of the critic on one stored trajectory
// (imported or emulated). The trajectory's steps are loaded as the critic may read them (action,
// input, observation — never thoughts or emulator notes: lib/critic/checkpoints.ts reads only
// those fields), the case's critic context gives the instruction, critical tools, amount
// arguments and style examples, lib/critic/assess.ts judges every checkpoint and
// lib/critic/store.ts writes the assessment for this run (a retried unit replaces its own earlier
// one). Every model call is counted toward the run and linked to the trajectory it judged.
import "server-only";
import type { Db } from "@/lib/db/client";
import { assessTrajectory, type CriticInput } from "@/lib/critic/assess";
import { criticContextForCase } from "@/lib/critic/context";
import type { CriticMethodName } from "@/lib/critic/settings";
import { saveAssessment } from "@/lib/critic/store";
import { LlmCallError, type ModelClient } from "@/lib/llm/types";
import { failed, type AttemptResult } from "../attempt";
import { unitSettings, type StoredCriticRunSettings } from "./schemas";

export interface CriticUnitSpec {
  sourceTrajectoryId: string;
  method: CriticMethodName;
  settings: StoredCriticRunSettings;
}

/** The stored trajectory and its case's context as the critic reads them. */
export async function loadCriticInput(db: Db, trajectoryId: string): Promise<CriticInput> {
  const t = await db.trajectory.findUnique({
    where: { id: trajectoryId },
    select: { caseId: true, finalAnswer: true, steps: { orderBy: { index: "asc" }, select: { action: true, actionInputRaw: true, observationRaw: true } } },
  });
  if (!t) throw new Error(`Trajectory ${trajectoryId} does not exist.`);
  if (!t.caseId) throw new Error(`Trajectory ${trajectoryId} belongs to no test case: the critic needs the case's instruction and critical tools.`);
  const ctx = await criticContextForCase(db, t.caseId);
  return {
    instruction: ctx.instruction,
    steps: t.steps.map((s) => ({ action: s.action ?? "", actionInputRaw: s.actionInputRaw ?? "", observation: s.observationRaw ?? "" })),
    finalAnswer: t.finalAnswer,
    criticalTools: ctx.criticalTools,
    amountArgs: ctx.amountArgs,
    styleExamples: ctx.styleExamples,
  };
}

export async function playCriticUnit(db: Db, runId: string, unit: CriticUnitSpec, client: ModelClient, signal: AbortSignal): Promise<AttemptResult> {
  let input: CriticInput;
  try {
    input = await loadCriticInput(db, unit.sourceTrajectoryId);
  } catch (e) {
    return failed("internal", e instanceof Error ? e.message : String(e), false);
  }
  const settings = unitSettings(unit.settings, unit.method);
  try {
    const result = await assessTrajectory(client, input, settings, { runId, trajectoryId: unit.sourceTrajectoryId, signal });
    if (signal.aborted) return failed("cancelled", "the attempt was stopped", true);
    await saveAssessment(db, { trajectoryId: unit.sourceTrajectoryId, runId, online: false, criticModel: unit.settings.criticModel, settings, result });
    return { ok: true };
  } catch (e) {
    if (e instanceof LlmCallError) return failed(e.kind, e.message);
    if (signal.aborted) return failed("cancelled", "the attempt was stopped", true);
    return failed("crashed", e instanceof Error ? e.message : String(e));
  }
}
