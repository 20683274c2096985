// Replay of a recorded ToolEmu trajectory: what its models said (the recording the replay
// endpoint answers from), what came of it (the expected actions, observations and final answer),
// and the comparison of a replayed episode with it. Pure.
//
// A ToolEmu JSONL line records every model output the run used:
//   agent     — each step's agent_log, then the AgentFinish log (the last turn);
//   emulator  — each step's simulator_log (empty where ToolEmu refused the call in code);
//   evaluator — the evaluation lines' fields, put back in the evaluator's output format.
// ToolEmu's final output keeps the ": " its parser leaves ("Final Answer: x" split on "Final
// Answer"); it is dropped before comparing (normaliseToolemuOutput).

export const REPLAY_MODEL_PREFIX = "replay:";
/** What every replayed output is labelled with: recorded text, not a model answering now. */
export const REPLAY_LABEL = "replay of recorded model outputs (not an LLM)";
/** ToolEmu's final output when the agent's turn was cut by the token limit. */
const TOKEN_LIMIT_OUTPUT = "Agent stopped: token limit exceeded";

export interface ReplayEvaluation {
  kind: "SAFETY" | "HELPFULNESS";
  evaluatorModel: string;
  text: string;
  score: number | null;
}

export interface RecordedStep {
  action: string;
  actionInputRaw: string;
  observation: string;
}

export interface ReplayRecording {
  /** Agent outputs in order: one per tool step, then the final turn. */
  agentOutputs: string[];
  /** The final turn was cut by the token limit (ToolEmu's final output says so). */
  finalCutByTokenLimit: boolean;
  /** The emulator's output per tool step ("" where ToolEmu answered in code). */
  emulatorOutputs: string[];
  evaluations: ReplayEvaluation[];
  expected: { steps: RecordedStep[]; finalAnswer: string | null };
}

/** ToolEmu's final output without the leading ": " its parser leaves. */
export function normaliseRecordedOutput(output: string): string {
  return output.replace(/^:\s*/, "");
}

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));

/** A recording from one ToolEmu trajectory line and its evaluation lines (imported Trajectory.raw / Evaluation.raw). */
export function recordingFromToolemu(line: Json, evaluations: { kind: "SAFETY" | "HELPFULNESS"; evaluatorModel: string; raw: Json }[] = []): ReplayRecording {
  const items = Array.isArray(line.intermediate_steps) ? (line.intermediate_steps as unknown[]) : [];
  const agentOutputs: string[] = [];
  const emulatorOutputs: string[] = [];
  const steps: RecordedStep[] = [];
  let finalAnswer: string | null = null;
  let finalLog: string | null = null;
  for (const item of items) {
    if (!Array.isArray(item)) continue;
    const [a, o] = item as [unknown, unknown];
    if (Array.isArray(a)) {
      const [tool, input, log] = a as unknown[];
      const [observation, , simulatorLog] = (Array.isArray(o) ? o : []) as unknown[];
      agentOutputs.push(str(log));
      emulatorOutputs.push(str(simulatorLog));
      steps.push({ action: str(tool), actionInputRaw: str(input), observation: str(observation) });
    } else if (a && typeof a === "object") {
      const finish = a as { return_values?: { output?: unknown }; log?: unknown };
      finalLog = str(finish.log);
      finalAnswer = str(finish.return_values?.output);
    }
  }
  if (finalAnswer === null && typeof line.output === "string") finalAnswer = line.output;
  if (finalLog !== null) agentOutputs.push(finalLog);
  const finalCutByTokenLimit = finalAnswer === TOKEN_LIMIT_OUTPUT;
  return {
    agentOutputs,
    finalCutByTokenLimit,
    emulatorOutputs,
    evaluations: evaluations.map((e) => ({ kind: e.kind, evaluatorModel: e.evaluatorModel, text: evaluatorText(e.raw), score: evaluationScore(e.kind, e.raw) })),
    expected: { steps, finalAnswer: finalAnswer === null ? null : normaliseRecordedOutput(finalAnswer) },
  };
}

/** An evaluation line's fields back in the evaluator's output format. */
export function evaluatorText(raw: Json): string {
  const parts: string[] = [];
  for (const key of ["Evaluator Thought", "Overall Qualitative Label", "Overall Quantitative Score", "Evaluator Log Summary"]) {
    if (raw[key] !== undefined && raw[key] !== null) parts.push(`${key}: ${str(raw[key])}`);
  }
  return parts.join("\n");
}

function evaluationScore(kind: "SAFETY" | "HELPFULNESS", raw: Json): number | null {
  const scores = raw.eval_scores as Json | undefined;
  const v = scores?.[kind === "SAFETY" ? "ToolCallRisk" : "Helpfulness"];
  return typeof v === "number" ? v : null;
}

// ---------------------------------------------------------------------------------------------
// Comparing a replayed episode with the recording

export interface ReplayedEpisode {
  steps: { action: string | null; actionInputRaw: string | null; observationRaw: string | null }[];
  finalAnswer: string | null;
}

export type DivergenceField = "action" | "action input" | "observation" | "missing step" | "extra step" | "final answer";

export interface ReplayComparison {
  identical: boolean;
  /** The first step (0-based) that differs; the step count when only the final answer differs; null when identical. */
  firstDivergentStep: number | null;
  field: DivergenceField | null;
  recorded: string | null;
  replayed: string | null;
}

const same = (a: string | null, b: string | null) => (a ?? "").trim() === (b ?? "").trim();

export function compareReplay(expected: ReplayRecording["expected"], replayed: ReplayedEpisode): ReplayComparison {
  const n = Math.max(expected.steps.length, replayed.steps.length);
  for (let i = 0; i < n; i++) {
    const r = expected.steps[i];
    const p = replayed.steps[i];
    if (!p) return diverge(i, "missing step", `${r!.action} ${r!.actionInputRaw.trim()}`, null);
    if (!r) return diverge(i, "extra step", null, `${p.action ?? "(no action)"} ${(p.actionInputRaw ?? "").trim()}`);
    if (!same(r.action, p.action)) return diverge(i, "action", r.action, p.action);
    if (!same(r.actionInputRaw, p.actionInputRaw)) return diverge(i, "action input", r.actionInputRaw.trim(), p.actionInputRaw);
    if (!same(r.observation, p.observationRaw)) return diverge(i, "observation", r.observation, p.observationRaw);
  }
  if (!same(expected.finalAnswer, replayed.finalAnswer)) return diverge(n, "final answer", expected.finalAnswer, replayed.finalAnswer);
  return { identical: true, firstDivergentStep: null, field: null, recorded: null, replayed: null };
}

function diverge(step: number, field: DivergenceField, recorded: string | null, replayed: string | null): ReplayComparison {
  return { identical: false, firstDivergentStep: step, field, recorded, replayed };
}
