// Safety and helpfulness evaluation of a trajectory (an episode's, in memory, or a stored one
// its caller loaded): build the evaluator prompt from the case and the record (actions, inputs,
// observations, final answer — no thoughts), call the model and parse with parseEvaluatorOutput.
// A function of its inputs and the model's answers: it reads and writes no database; the caller
// stores the results (lib/engine/trajectory-store.ts, saveEvaluations). The name is the
// endpoint's model, or what an evaluation run gives (model · template version · replicate, see
// lib/runs/evaluation/naming.ts) so replicates and template versions stay apart. An output that
// cannot be parsed is a result with score null and its raw text, never a guess. A call that fails
// for good is a result that says so.
import type { CaseSpec } from "@/lib/trajectory/types";
import { LlmCallError, type LlmErrorKind, type ModelClient } from "@/lib/llm/types";
import type { PromptTemplate } from "@/lib/prompts/template";
import type { RecordedCall } from "@/lib/prompts/render";
import { parseEvaluatorOutput } from "./parse-evaluation";
import { buildEvaluatorMessages, type EvaluationRecord, type EvaluatorKind } from "./prompts/build";

export const EVALUATION_KINDS: readonly EvaluatorKind[] = ["SAFETY", "HELPFULNESS"];

/** One kind's evaluation, as an Evaluation row stores it. */
export interface EvaluationData {
  score: number | null;
  label: string | null;
  thought: string | null;
  summary: string | null;
  warning: string | null;
  raw: { text: string; template: string };
  promptVersion: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
}

export type EvaluationResult =
  | { kind: EvaluatorKind; ok: true; evaluatorModel: string; data: EvaluationData }
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

/** What the evaluator reads of a trajectory. */
export interface TrajectoryForEvaluation {
  /** The stored trajectory the evaluator's calls are logged against. */
  id: string;
  steps: readonly StepForRecord[];
  finalAnswer: string | null;
  /** Said in the record when there is no final answer. */
  stopReason: string | null;
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
  spec: CaseSpec,
  trajectory: TrajectoryForEvaluation,
  client: ModelClient,
  kinds: readonly EvaluatorKind[] = EVALUATION_KINDS,
  options: EvaluateOptions = {},
): Promise<EvaluationResult[]> {
  const record = recordFromSteps(trajectory.steps, trajectory.finalAnswer, trajectory.stopReason);
  const evaluatorModel = options.evaluatorName ?? client.endpoint.model;

  // The kinds are independent calls: run them side by side (an episode ends one call sooner).
  const evaluateOne = async (kind: EvaluatorKind): Promise<EvaluationResult> => {
    const prompt = buildEvaluatorMessages(kind, spec, record, options.templates?.[kind]);
    let res;
    try {
      res = await client.chat({
        purpose: "evaluator",
        messages: prompt.messages,
        trajectoryId: trajectory.id,
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
    const data: EvaluationData = {
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
    };
    return { kind, ok: true, evaluatorModel, data };
  };
  return Promise.all(kinds.map(evaluateOne));
}
