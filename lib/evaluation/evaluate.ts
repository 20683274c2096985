// Safety and helpfulness evaluation of a stored trajectory (emulated or imported): build the
// evaluator prompt from the case and the record (actions, inputs, observations, final answer —
// no thoughts), call the model, parse with parseEvaluatorOutput and store one Evaluation per kind
// (unique per trajectory, kind and evaluator name: evaluating again replaces it). The name is the
// endpoint's model, or what an evaluation run gives (model · template version · replicate, see
// lib/runs/evaluation/naming.ts) so replicates and template versions stay apart. An output that
// cannot be parsed is stored with score null and its raw text, never a guess. A call that fails
// for good stores nothing and is reported in the outcome.
import "server-only";
import type { Db } from "@/lib/db/client";
import { loadCaseSpec } from "@/lib/trajectory/case-spec";
import { LlmCallError, type LlmErrorKind, type ModelClient } from "@/lib/llm/types";
import type { PromptTemplate } from "@/lib/prompts/template";
import type { RecordedCall } from "@/lib/prompts/render";
import { parseEvaluatorOutput } from "./parse-evaluation";
import { buildEvaluatorMessages, type EvaluationRecord, type EvaluatorKind } from "./prompts/build";

export const EVALUATION_KINDS: readonly EvaluatorKind[] = ["SAFETY", "HELPFULNESS"];

export type EvaluationOutcome =
  | { kind: EvaluatorKind; ok: true; evaluationId: string; score: number | null; label: string | null; warning: string | null }
  | { kind: EvaluatorKind; ok: false; error: string; errorKind: LlmErrorKind };

export interface StepForRecord {
  action: string | null;
  actionInputRaw: string | null;
  actionInput?: unknown;
  observationRaw: string | null;
  observation?: unknown;
}

/**
 * The record an evaluator sees: each step that made a tool call and got an observation, and the
 * final answer. Steps without an action (a parse error) or without an observation (interrupted
 * before the tool answered) are left out. Thoughts are not even read.
 */
export function recordFromSteps(steps: readonly StepForRecord[], finalAnswer: string | null, stopReason?: string | null): EvaluationRecord {
  const calls: RecordedCall[] = [];
  for (const s of steps) {
    if (!s.action) continue;
    const observation = s.observationRaw ?? (s.observation !== undefined && s.observation !== null ? JSON.stringify(s.observation) : null);
    if (observation === null) continue;
    const input = s.actionInputRaw ?? (s.actionInput !== undefined && s.actionInput !== null ? JSON.stringify(s.actionInput) : "");
    calls.push({ action: s.action, actionInput: input, observation });
  }
  return { calls, finalAnswer, stopReason: stopReason ?? null };
}

export interface EvaluateOptions {
  signal?: AbortSignal;
  /** The Evaluation rows' evaluatorModel (default: the endpoint's model). */
  evaluatorName?: string;
  /** Template per kind (default: the current version). */
  templates?: Partial<Record<EvaluatorKind, PromptTemplate>>;
  /** Per-request sampling settings (see ChatRequest): both enter the cache key. */
  temperature?: number;
  sample?: number;
  /** The evaluation run the calls count toward. */
  runId?: string;
}

export async function evaluateTrajectory(
  db: Db,
  trajectoryId: string,
  client: ModelClient,
  kinds: readonly EvaluatorKind[] = EVALUATION_KINDS,
  options: EvaluateOptions = {},
): Promise<EvaluationOutcome[]> {
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
  const { spec } = await loadCaseSpec(db, t.caseId);
  const record = recordFromSteps(t.steps, t.finalAnswer, t.stopReason ?? (t.status === "INCOMPLETE" ? "incomplete" : null));
  const evaluatorModel = options.evaluatorName ?? client.endpoint.model;

  // The kinds are independent calls: run them side by side (an episode ends one call sooner).
  const evaluateOne = async (kind: EvaluatorKind): Promise<EvaluationOutcome> => {
    const prompt = buildEvaluatorMessages(kind, spec, record, options.templates?.[kind]);
    let res;
    try {
      res = await client.chat({
        purpose: "evaluator",
        messages: prompt.messages,
        trajectoryId,
        signal: options.signal,
        runId: options.runId,
        temperature: options.temperature,
        sample: options.sample,
      });
    } catch (e) {
      if (!(e instanceof LlmCallError)) throw e;
      return { kind, ok: false, error: e.message, errorKind: e.kind };
    }
    const parsed = parseEvaluatorOutput(kind, res.content);
    const data = {
      score: parsed.score,
      label: parsed.label,
      thought: parsed.thought,
      summary: parsed.summary,
      warning: parsed.warning,
      raw: { text: res.content, template: prompt.template },
      promptVersion: prompt.template,
      inputTokens: res.inputTokens,
      outputTokens: res.outputTokens,
      costUsd: res.costUsd,
      latencyMs: Math.round(res.latencyMs),
      sourceFile: null,
      sourceLine: null,
    };
    const row = await db.evaluation.upsert({
      where: { trajectoryId_kind_evaluatorModel: { trajectoryId, kind, evaluatorModel } },
      create: { trajectoryId, kind, evaluatorModel, ...data },
      update: data,
      select: { id: true },
    });
    return { kind, ok: true, evaluationId: row.id, score: parsed.score, label: parsed.label, warning: parsed.warning };
  };
  return Promise.all(kinds.map(evaluateOne));
}
