// Reading a SAGE agent's answer (lib/sage/prompts/agent.ts asks for one JSON object: a tool call
// or a final answer). Pure. The object is located in the text (prose or a ```json fence around it
// is tolerated); a problem says what is wrong and where, so the episode can stop with a clear
// reason ("invalid agent output").
//
// Accepted shapes (the asked-for one first; the others are what models commonly write instead):
//   {"type": "tool_call", "tool": "x", "arguments": {...}, "reason": "..."}
//   {"type": "final_answer", "message": "..."}
//   tool name under tool | tool_name | name; arguments under arguments | args | tool_args |
//   parameters | input | action_input (an object, or a string holding one; missing = {});
//   {"final_answer": "..."}; {"tool_call": {...}} (the call nested one level).
// Several objects: the first action counts when every other action object is the same; two
// different actions are a problem (the agent must choose one).
import { findJsonObjects, isRecord, lineColumn, type JsonCandidate } from "./find-json";

export type SageAgentAction =
  | { kind: "tool_call"; tool: string; arguments: Record<string, unknown>; reason: string | null }
  | { kind: "final_answer"; message: string };

export type SageAgentProblemCode = "empty" | "no-json" | "invalid-json" | "not-an-action" | "several-actions" | "unknown-tool" | "bad-field";

export type SageAgentParse =
  | { ok: true; action: SageAgentAction; /** Where the object is in the text. */ start: number; end: number }
  | { ok: false; code: SageAgentProblemCode; problem: string };

const TOOL_KEYS = ["tool", "tool_name", "name"] as const;
const ARG_KEYS = ["arguments", "args", "tool_args", "parameters", "input", "action_input"] as const;
const MESSAGE_KEYS = ["message", "content", "answer", "final_answer", "response", "text"] as const;
const TOOL_TYPES = new Set(["tool_call", "tool", "call", "action", "function_call"]);
const FINAL_TYPES = new Set(["final_answer", "final", "answer", "reply", "message", "respond"]);

type Read = { action: SageAgentAction } | { problem: string; code: SageAgentProblemCode } | null;

/** One parsed object as an action; null when it is not an action at all. */
function readAction(v: Record<string, unknown>, where: string): Read {
  if (isRecord(v.tool_call)) return readAction({ type: "tool_call", ...v.tool_call }, where);
  const type = typeof v.type === "string" ? v.type.trim().toLowerCase() : null;
  const toolKey = TOOL_KEYS.find((k) => v[k] !== undefined);
  const isFinal = type !== null ? FINAL_TYPES.has(type) : toolKey === undefined && v.final_answer !== undefined;
  const isTool = type !== null ? TOOL_TYPES.has(type) : toolKey !== undefined;
  if (type !== null && !isFinal && !isTool) {
    return { code: "not-an-action", problem: `${where}: "type" is "${v.type as string}"; expected "tool_call" or "final_answer"` };
  }
  if (isFinal) {
    const key = MESSAGE_KEYS.find((k) => v[k] !== undefined);
    const m = key === undefined ? undefined : v[key];
    if (typeof m !== "string" || !m.trim()) return { code: "bad-field", problem: `${where}: a final answer needs "message" as non-empty text${key ? ` (got ${JSON.stringify(m)})` : ""}` };
    return { action: { kind: "final_answer", message: m.trim() } };
  }
  if (isTool) {
    const tool = toolKey === undefined ? undefined : v[toolKey];
    if (typeof tool !== "string" || !tool.trim()) return { code: "bad-field", problem: `${where}: a tool call needs "tool" as a tool name${toolKey ? ` (got ${JSON.stringify(tool)})` : ""}` };
    const argKey = ARG_KEYS.find((k) => v[k] !== undefined);
    let args: unknown = argKey === undefined ? {} : v[argKey];
    if (typeof args === "string") {
      const s = args.trim();
      if (s === "") args = {};
      else {
        try {
          args = JSON.parse(s);
        } catch {
          return { code: "bad-field", problem: `${where}: "${argKey}" is text that is not a JSON object: ${JSON.stringify(s.slice(0, 80))}` };
        }
      }
    }
    if (args === null) args = {};
    if (!isRecord(args)) return { code: "bad-field", problem: `${where}: "${argKey}" must be an object of inputs, got ${Array.isArray(args) ? "a list" : typeof args}` };
    const reason = typeof v.reason === "string" && v.reason.trim() ? v.reason.trim() : null;
    return { action: { kind: "tool_call", tool: tool.trim(), arguments: args, reason } };
  }
  return null;
}

const same = (a: SageAgentAction, b: SageAgentAction) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The agent's action from its raw output. `toolNames`, when given, are the scenario's tools: a
 * call to another name is a problem ("unknown-tool") listing the valid ones.
 */
export function parseSageAgentOutput(text: string, toolNames?: readonly string[]): SageAgentParse {
  if (!text.trim()) return { ok: false, code: "empty", problem: "the answer is empty; expected one JSON object (a tool call or a final answer)" };
  const candidates = findJsonObjects(text);
  if (candidates.length === 0) return { ok: false, code: "no-json", problem: `no JSON object in the answer (it starts ${JSON.stringify(text.trim().slice(0, 60))}); expected one JSON object (a tool call or a final answer)` };
  const actions: { c: JsonCandidate; action: SageAgentAction }[] = [];
  let firstProblem: { code: SageAgentProblemCode; problem: string } | null = null;
  for (const c of candidates) {
    const where = `the object at ${lineColumn(text, c.start)}`;
    if (c.error !== undefined) {
      firstProblem ??= { code: "invalid-json", problem: `invalid JSON: ${c.error}` };
      continue;
    }
    if (!isRecord(c.value)) continue;
    const r = readAction(c.value, where);
    if (r === null) continue;
    if ("problem" in r) {
      firstProblem ??= r;
      continue;
    }
    actions.push({ c, action: r.action });
  }
  if (actions.length === 0) {
    return { ok: false, ...(firstProblem ?? { code: "not-an-action", problem: `the JSON in the answer is neither a tool call nor a final answer: expected "type": "tool_call" with "tool", or "type": "final_answer" with "message"` }) };
  }
  const first = actions[0]!;
  const other = actions.find((a) => !same(a.action, first.action));
  if (other) {
    return { ok: false, code: "several-actions", problem: `two different actions in one answer (at ${lineColumn(text, first.c.start)} and ${lineColumn(text, other.c.start)}); answer with exactly one` };
  }
  if (first.action.kind === "tool_call" && toolNames && !toolNames.includes(first.action.tool)) {
    return { ok: false, code: "unknown-tool", problem: `unknown tool "${first.action.tool}"; the tools are: ${toolNames.join(", ")}` };
  }
  return { ok: true, action: first.action, start: first.c.start, end: first.c.end };
}

/** The canonical one-line JSON of an action (what the transcript and the judge show). */
export function actionJson(action: SageAgentAction): string {
  return action.kind === "tool_call"
    ? JSON.stringify({ type: "tool_call", tool: action.tool, arguments: action.arguments, ...(action.reason ? { reason: action.reason } : {}) })
    : JSON.stringify({ type: "final_answer", message: action.message });
}
