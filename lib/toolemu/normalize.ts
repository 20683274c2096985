// From validated source objects to the rows we store. Pure functions.
import type { CaseSource, EvaluationLine, ToolkitSource, TrajectoryLine } from "./source-schemas";
import { stepSchema } from "./source-schemas";
import { contentHash } from "./canonical";
import { checkJsonText } from "./locate";

export const TOOLEMU_SOURCE = "toolemu";

export function toolkitRow(src: ToolkitSource, raw: unknown) {
  return {
    name: src.toolkit,
    nameForModel: src.name_for_model,
    nameForHuman: src.name_for_human,
    descriptionForModel: src.description_for_model,
    descriptionForHuman: src.description_for_human,
    category: src.category?.trim() || null,
    source: TOOLEMU_SOURCE,
    contentHash: contentHash(raw),
    raw: raw as object,
    tools: src.tools.map((t, position) => ({
      position,
      name: t.name,
      agentName: `${src.name_for_model}${t.name}`,
      summary: t.summary,
      parameters: t.parameters,
      returns: t.returns,
      exceptions: t.exceptions,
    })),
  };
}
export type ToolkitRow = ReturnType<typeof toolkitRow>;

export function caseRow(src: CaseSource, raw: unknown) {
  return {
    source: TOOLEMU_SOURCE,
    name: src.name,
    userInstruction: src["User Instruction"],
    underspecTaskInfo: src.Underspecifications["Task Information"],
    underspecSafety: src.Underspecifications["Safety & Security Constraints"],
    expectedAchievements: src["Expected Achievements"],
    potentialRiskyOutcomes: src["Potential Risky Outcomes"],
    potentialRiskyActions: src["Potential Risky Actions"],
    contentHash: contentHash(raw),
    raw: raw as object,
    toolkitNames: src.Toolkits,
  };
}
export type CaseRow = ReturnType<typeof caseRow>;

/**
 * A tool input or observation that is itself JSON, parsed; undefined when it is not. Text the
 * import scanner would refuse (NUL, unpaired surrogates, deep nesting) is kept as the raw string
 * only, so the jsonb column never gets what PostgreSQL cannot store.
 */
function parseJson(raw: string): unknown | undefined {
  const t = raw.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
  if (!t || (t[0] !== "{" && t[0] !== "[")) return undefined;
  if (checkJsonText(t)) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

function str(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === "string" ? v : JSON.stringify(v);
}

export interface StepRow {
  index: number;
  thought: string | null;
  action: string | null;
  actionInputRaw: string | null;
  actionInput: unknown;
  observationRaw: string | null;
  observation: unknown;
  emulatorSummary: string | null;
  emulatorThought: string | null;
}

export interface TrajectoryRow {
  contentHash: string;
  caseName: string;
  emulatorMode: "STANDARD" | "ADVERSARIAL";
  finalAnswer: string | null;
  finalLog: string | null;
  status: "FINISHED" | "INCOMPLETE";
  stepCount: number;
  hasErrors: boolean;
  raw: object;
  steps: StepRow[];
}

/**
 * Returns the row, or the index and message of the first malformed step. `knownHash`: the content
 * hash an earlier pass computed for this very record (skips hashing it again).
 */
export function trajectoryRow(line: TrajectoryLine, raw: unknown, knownHash?: string): TrajectoryRow | { stepIndex: number; message: string } {
  const steps: StepRow[] = [];
  let finalAnswer: string | null = null;
  let finalLog: string | null = null;
  let finished = false;
  for (const [i, rawStep] of line.intermediate_steps.entries()) {
    const parsed = stepSchema.safeParse(rawStep);
    if (!parsed.success) return { stepIndex: i, message: parsed.error.issues[0]?.message ?? "malformed step" };
    const step = parsed.data;
    if (!Array.isArray(step[0])) {
      const finish = step[0] as { return_values: { output?: unknown }; log?: string };
      finalAnswer = str(finish.return_values.output);
      finalLog = finish.log ?? null;
      finished = true;
      continue;
    }
    const [tool, toolInput, agentLog] = step[0] as [string, string, string];
    const [observation, summary, emulatorLog] = step[1] as [string, unknown?, unknown?];
    const observationJson = parseJson(observation);
    steps.push({
      index: steps.length,
      thought: agentLog,
      action: tool,
      actionInputRaw: toolInput,
      actionInput: parseJson(toolInput) ?? null,
      observationRaw: observation,
      observation: observationJson ?? null,
      emulatorSummary: str(summary),
      emulatorThought: str(emulatorLog),
    });
  }
  if (finalAnswer === null && line.output !== undefined) finalAnswer = str(line.output);
  // Imported ToolEmu runs that carry underspecifications / risky inputs used the adversarial emulator.
  const adversarial = [line.underspecifications, line.risky_outcome, line.risky_actions].some((v) => v !== undefined && v !== null && v !== "");
  return {
    contentHash: knownHash ?? contentHash(raw),
    caseName: line.case.name,
    emulatorMode: adversarial ? "ADVERSARIAL" : "STANDARD",
    finalAnswer,
    finalLog,
    status: finished ? "FINISHED" : "INCOMPLETE",
    stepCount: steps.length,
    hasErrors: steps.some((s) => isErrorObservation(s.observation)),
    raw: raw as object,
    steps,
  };
}

function isErrorObservation(obs: unknown): boolean {
  return !!obs && typeof obs === "object" && !Array.isArray(obs) && "error" in obs;
}

const SCORE_KEYS = { SAFETY: "ToolCallRisk", HELPFULNESS: "Helpfulness" } as const;

export interface EvaluationRow {
  kind: "SAFETY" | "HELPFULNESS";
  score: number | null;
  label: string | null;
  thought: string | null;
  summary: string | null;
  raw: object;
  contentHash: string;
}

/**
 * What is wrong with an evaluation line's eval_scores for a file of this kind, or null. Missing or
 * empty eval_scores is not wrong: the evaluator's output could not be parsed, and the evaluation is
 * kept with score null ("unparsed"). Otherwise it must hold the kind's key with an integer 0–3.
 */
export function evalScoresIssue(kind: "SAFETY" | "HELPFULNESS", scores: EvaluationLine["eval_scores"]): { field: string; message: string } | null {
  if (!scores || Object.keys(scores).length === 0) return null;
  const key = SCORE_KEYS[kind];
  if (!Object.hasOwn(scores, key)) {
    return { field: "eval_scores", message: `expected eval_scores.${key} in a ${kind === "SAFETY" ? "safety" : "helpfulness"} evaluation file` };
  }
  const s = scores[key];
  if (typeof s === "number" && Number.isInteger(s) && s >= 0 && s <= 3) return null;
  return { field: `eval_scores.${key}`, message: `expected an integer score from 0 to 3, got ${JSON.stringify(s)?.slice(0, 40) ?? String(s)}` };
}

/** `hashed: false` leaves contentHash empty (a writer that knows the record is already compared). */
export function evaluationRow(kind: "SAFETY" | "HELPFULNESS", line: EvaluationLine, raw: unknown, hashed = true): EvaluationRow {
  const s = line.eval_scores?.[SCORE_KEYS[kind]];
  const score = typeof s === "number" && Number.isInteger(s) && s >= 0 && s <= 3 ? s : null;
  const label = str(line["Overall Qualitative Label"]);
  return {
    kind,
    score,
    // "**Possible Mild Risk (2)**" → "Possible Mild Risk (2)"
    label: label ? label.replace(/\*\*/g, "").trim() : null,
    thought: str(line["Evaluator Thought"]),
    summary: str(line["Evaluator Log Summary"]),
    raw: raw as object,
    contentHash: hashed ? contentHash(raw) : "",
  };
}
