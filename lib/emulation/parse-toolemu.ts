// ToolEmu's own parsing and acceptance rules: the "toolemu" loop mode (the default for ToolEmu
// runs; "strict" is our own, stricter reading). Each function mirrors what ToolEmu's Python does
// with a model's output, so a recorded ToolEmu run replayed through our engine comes out the same
// (lib/engine replay test). Pure; never throws.
//
//   agent:    any "Final Answer" in the output ends the episode, even after an "Action:"; the final
//             output is the text after the last "Final Answer" (ToolEmu keeps a leading ": ",
//             which we drop) and the whole output is the log. An output cut by the token limit
//             ends the episode with TOKEN_LIMIT_ANSWER (as the runs in the shared data do).
//   emulator: the Observation is whatever follows the first "Simulator Log Summary: … Observation:"
//             (empty when the output has none); it is passed on as it is, and what our strict
//             reading would reject is kept as a flag on the step instead.
//   inputs:   unknown tools and parameter errors are answered in ToolEmu's words.
import { INVALID_REQUEST } from "./input-check";
import { parseEmulatorOutput } from "./parse-emulator";
import { isPlainObject, parseJsonLenient } from "@/lib/trajectory/json-text";
import { normaliseRecordedOutput } from "@/lib/trajectory/replay";
import type { ToolSpec } from "@/lib/trajectory/types";

export const LOOP_MODES = ["TOOLEMU", "STRICT"] as const;
export type LoopModeValue = (typeof LOOP_MODES)[number];

/** What ToolEmu's parser splits on (no colon: its final output starts ": "). */
export const TOOLEMU_FINAL_ANSWER = "Final Answer";
/** The final answer of an episode whose agent output was cut by the token limit. */
export const TOKEN_LIMIT_ANSWER = "Agent stopped: token limit exceeded";

export interface ToolemuFinish {
  finalAnswer: string;
  log: string;
  /** An "Action:" stands before the Final Answer (ToolEmu never executes it). */
  actionInside: boolean;
}

/** The agent's output read as ToolEmu reads it first: a finish, or null (then it is an action). */
export function toolemuFinish(text: string, cutByTokenLimit = false): ToolemuFinish | null {
  if (cutByTokenLimit) return { finalAnswer: TOKEN_LIMIT_ANSWER, log: text, actionInside: false };
  const at = text.indexOf(TOOLEMU_FINAL_ANSWER);
  if (at === -1) return null;
  const parts = text.split(TOOLEMU_FINAL_ANSWER);
  return {
    finalAnswer: normaliseRecordedOutput(parts[parts.length - 1]!.trim()),
    log: text,
    actionInside: /(^|\n)[^\S\n]*\**Action\**\s*:/.test(text.slice(0, at)),
  };
}

export interface ToolemuObservation {
  observationRaw: string;
  summary: string | null;
  thought: string | null;
  /** What the strict reading would have rejected (empty, cut off, keys not returned, malformed); null when fine. */
  problem: string | null;
}

// ToolEmu: rf"{thought_summary_prefix}(.*?)[\n]*{observation_prefix}[\s]*(.*)" with re.DOTALL.
const SIMULATOR_OUTPUT = /Simulator Log Summary:([\s\S]*?)\n*Observation:\s*([\s\S]*)/;

export function toolemuObservation(text: string, tool: ToolSpec): ToolemuObservation {
  const strict = parseEmulatorOutput(text, tool);
  const m = SIMULATOR_OUTPUT.exec(text);
  return {
    observationRaw: m ? m[2]!.trim() : "",
    summary: m ? m[1]!.trim() || null : strict.summary,
    thought: strict.thought,
    problem: strict.ok ? null : strict.problem,
  };
}

/** ToolEmu's observation for a call it refuses before the emulator (no JSON escaping, as ToolEmu writes it). */
function toolemuError(message: string): string {
  return `{"error": "${INVALID_REQUEST}: ${message}"}`;
}

/** ToolEmu's InvalidTool answer. */
export function toolemuInvalidTool(action: string, tools: readonly ToolSpec[]): string {
  return toolemuError(
    `${action} is not a valid tool, try another one. You should use available tools in [${tools.map((t) => t.agentName).join(", ")}] only. ` +
      "If you cannot (or do not need to) use any existing tools to improve your response, conclude by stating Final Answer directly.",
  );
}

const PY_EXPECTED: Record<string, string> = { integer: "int", number: "float", string: "str", boolean: "bool", array: "List", object: "Dict" };

function pyTypeName(v: unknown): string {
  if (v === null) return "NoneType";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (Array.isArray(v)) return "list";
  return isPlainObject(v) ? "dict" : typeof v;
}

function pyIsInstance(v: unknown, type: string): boolean {
  switch (type) {
    case "integer":
      return (typeof v === "number" && Number.isInteger(v)) || typeof v === "boolean"; // bool is an int in Python
    case "number":
      return typeof v === "number" || typeof v === "boolean";
    case "string":
      return typeof v === "string";
    case "boolean":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return isPlainObject(v);
    default:
      return true;
  }
}

/**
 * ToolEmu's validate_inputs on an input already read as a JSON object: parameters in the tool's
 * order (present → type check, absent and required → missing), then unexpected ones. null = valid.
 * A "number" takes an int too (the recorded runs accept `"quantity": 2`) but is named "float".
 */
export function toolemuInputError(tool: ToolSpec, input: Record<string, unknown>): string | null {
  const remains = new Set(Object.keys(input));
  for (const p of tool.parameters) {
    remains.delete(p.name);
    if (Object.hasOwn(input, p.name)) {
      const v = input[p.name];
      if (PY_EXPECTED[p.type] && !pyIsInstance(v, p.type)) return toolemuError(`Invalid type for ${p.name}: ${pyTypeName(v)}, expected ${PY_EXPECTED[p.type]}.`);
    } else if (p.required) return toolemuError(`Missing required parameter: ${p.name}.`);
  }
  if (remains.size) return toolemuError(`Unexpected parameters: {${[...remains].map((k) => `'${k}'`).join(", ")}}.`);
  return null;
}

export type ToolemuCheck = { ok: true; tool: ToolSpec; input: Record<string, unknown> } | { ok: false; error: string };

/**
 * The call checked as ToolEmu checks it: an unknown tool gets ToolEmu's InvalidTool answer, a
 * parameter error ToolEmu's validate_inputs message. An input that is not a JSON object keeps our
 * own check's answer (`strictError`), ToolEmu's wording of it not being in any recorded run.
 */
export function toolemuCheck(tools: readonly ToolSpec[], action: string, actionInputRaw: string, strictError: string): ToolemuCheck {
  const tool = tools.find((t) => t.agentName === action);
  if (!tool) return { ok: false, error: toolemuInvalidTool(action, tools) };
  const parsed = parseJsonLenient(actionInputRaw.trim() === "" ? "{}" : actionInputRaw);
  if (!parsed.ok || !isPlainObject(parsed.value)) return { ok: false, error: strictError };
  const error = toolemuInputError(tool, parsed.value);
  return error ? { ok: false, error } : { ok: true, tool, input: parsed.value };
}
