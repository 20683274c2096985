// The agent's ReAct output → one action with its raw input, or a final answer. Tolerant of what
// real models write (see parse-agent.test.ts for each rule, on ToolEmu's real logs and hand-made
// ones); everything it repaired is listed in `warnings`. Never throws.
import { findLabels, stripLeadingLabel, type LabelHit, type LabelSpec } from "@/lib/trajectory/labels-in-text";
import { scanBalanced, stripThinkBlocks } from "@/lib/trajectory/json-text";

export type AgentParse =
  | { kind: "action"; thought: string | null; action: string; actionInputRaw: string; warnings: string[] }
  | { kind: "final"; thought: string | null; finalAnswer: string; warnings: string[] }
  | { kind: "unparsable"; thought: string | null; error: string };

const THOUGHT: LabelSpec = { key: "thought", names: ["Thought"] };
const ACTION: LabelSpec = { key: "action", names: ["Action"] };
const INPUT: LabelSpec = { key: "input", names: ["Action Input"] };
const FINAL: LabelSpec = { key: "final", names: ["Final Answer"] };
const OBSERVATION: LabelSpec = { key: "observation", names: ["Observation"] };
const AGENT_LABELS = [THOUGHT, ACTION, INPUT, FINAL, OBSERVATION];

export function parseAgentOutput(text: string): AgentParse {
  try {
    return parse(text);
  } catch (e) {
    // Defensive only: parse() has no known way to throw.
    return { kind: "unparsable", thought: null, error: `the output could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
}

function clean(s: string): string | null {
  const t = s.trim();
  return t === "" ? null : t;
}

/** The text before a label, without a leading "Thought:" label. */
function thoughtBefore(text: string, end: number): string | null {
  return clean(stripLeadingLabel(text.slice(0, end), THOUGHT));
}

function parse(input: string): AgentParse {
  if (typeof input !== "string" || input.trim() === "") return { kind: "unparsable", thought: null, error: "the output is empty" };
  const text = stripThinkBlocks(input).replace(/\r\n?/g, "\n");
  const hits = findLabels(text, AGENT_LABELS, { inline: true });
  const firstAction = hits.find((h) => h.key === "action");
  const firstFinal = hits.find((h) => h.key === "final");

  if (!firstAction && !firstFinal) {
    const thought = clean(stripLeadingLabel(text, THOUGHT));
    const error = hits.some((h) => h.key === "input")
      ? 'found "Action Input:" but no "Action:" naming the tool (and no "Final Answer:")'
      : 'no "Action:" or "Final Answer:" found';
    return { kind: "unparsable", thought, error };
  }

  if (firstFinal && (!firstAction || firstFinal.start < firstAction.start)) {
    const warnings: string[] = [];
    if (firstAction) warnings.push('the output has a "Final Answer:" and, after it, an "Action:"; the Final Answer comes first and was taken');
    const finalAnswer = text.slice(firstFinal.contentStart).trim();
    if (finalAnswer === "") warnings.push("the Final Answer is empty");
    return { kind: "final", thought: thoughtBefore(text, firstFinal.start), finalAnswer, warnings };
  }

  return parseAction(text, hits, firstAction!, firstFinal);
}

/** "`TerminalExecute`.", "**TerminalExecute**", "TerminalExecute()" → TerminalExecute, and what followed it. */
function toolName(line: string): { name: string; rest: string } | null {
  const m = /^[\s`'"*_[<(]*([A-Za-z_][A-Za-z0-9_]*)/.exec(line);
  if (!m) return null;
  return { name: m[1]!, rest: line.slice(m[0].length) };
}

function parseAction(text: string, hits: LabelHit[], action: LabelHit, firstFinal: LabelHit | undefined): AgentParse {
  const warnings: string[] = [];
  const thought = thoughtBefore(text, action.start);

  // The tool name: the rest of the "Action:" line, or the next line when that is empty.
  let nameStart = action.contentStart;
  let lineEnd = text.indexOf("\n", nameStart);
  let nameLine = text.slice(nameStart, lineEnd === -1 ? text.length : lineEnd);
  if (nameLine.trim() === "" && lineEnd !== -1) {
    const next = /^\s*\n?([^\n]*)/.exec(text.slice(lineEnd + 1));
    const nextLineStart = lineEnd + 1 + (next ? next[0].length - next[1]!.length : 0);
    if (next && next[1]!.trim() !== "" && !hits.some((h) => h.start >= lineEnd && h.start < nextLineStart + next[1]!.length)) {
      nameStart = nextLineStart;
      lineEnd = text.indexOf("\n", nameStart);
      nameLine = text.slice(nameStart, lineEnd === -1 ? text.length : lineEnd);
    }
  }
  const named = toolName(nameLine);
  if (!named) return { kind: "unparsable", thought, error: '"Action:" is not followed by a tool name' };
  const decoration = named.rest.trim();
  const restStart = nameStart + nameLine.length - named.rest.length;
  // Closing quotes, backticks, bold, brackets, "()" and punctuation after the name are harmless.
  const benign = decoration.replace(/^\(\s*\)/, "").replace(/[`'"*_\]>).,;:!]/g, "") === "";
  if (benign && nameLine.trim() !== named.name) warnings.push(`the tool name was cleaned from "${nameLine.trim()}" to "${named.name}"`);
  const ignoredDecoration = () => warnings.push(`text after the tool name on the "Action:" line was ignored: "${decoration}"`);

  // The Action Input: the first one after this Action and before the next label of another kind.
  const nextOther = hits.find((h) => h.start > action.start && h.key !== "input");
  const inputHit = hits.find((h) => h.key === "input" && h.start > action.start && (!nextOther || h.start < nextOther.start));

  let from: number;
  let to: number;
  if (inputHit) {
    from = inputHit.contentStart;
    to = text.length;
    if (!benign) ignoredDecoration();
  } else {
    // No label: a JSON object written on the Action line itself, or on the line after it.
    const onLine = /[{[]/.exec(named.rest);
    const after = lineEnd === -1 ? "" : text.slice(lineEnd + 1);
    const nextLine = /^\s*[{[]/.exec(after);
    if (onLine) {
      from = restStart + onLine.index;
      to = lineEnd === -1 ? text.length : lineEnd;
      warnings.push('no "Action Input:" label; the JSON on the "Action:" line was taken as the input');
    } else if (nextLine && lineEnd !== -1 && (!nextOther || lineEnd + 1 + nextLine[0].length <= nextOther.start)) {
      from = lineEnd + 1;
      to = text.length;
      warnings.push('no "Action Input:" label; the JSON after the "Action:" line was taken as the input');
    } else {
      if (!benign) ignoredDecoration();
      warnings.push('no "Action Input:" after "Action:"; the input is empty');
      if (firstFinal) warnings.push('the output also has a "Final Answer:" after the Action; it was ignored');
      return { kind: "action", thought, action: named.name, actionInputRaw: "", warnings };
    }
  }

  const { raw, end } = readInput(text, from, to, hits, warnings);
  const laterObservation = hits.find((h) => h.key === "observation" && h.start >= end);
  const laterActions = hits.filter((h) => h.key === "action" && h.start >= end).length;
  const laterFinal = firstFinal && firstFinal.start >= end;
  if (laterObservation) warnings.push('an "Observation:" written by the agent after its Action Input was cut off');
  else if (text.slice(end).trim() !== "" && !laterActions && !laterFinal) warnings.push("text after the Action Input was ignored");
  if (laterActions) warnings.push(`${laterActions} more "Action:" after the first ${laterActions === 1 ? "was" : "were"} ignored (one action per step)`);
  if (laterFinal) warnings.push('the output also has a "Final Answer:" after the Action; it was ignored');
  return { kind: "action", thought, action: named.name, actionInputRaw: raw, warnings };
}

/** The Action Input's text from `from`: the first balanced JSON object or array (fences removed). */
function readInput(text: string, from: number, to: number, hits: LabelHit[], warnings: string[]): { raw: string; end: number } {
  const region = text.slice(from, to);
  let start = from + (region.length - region.trimStart().length);
  const notClosed = (reason: "unterminated" | "mismatched") =>
    warnings.push(`the Action Input's JSON ${reason === "unterminated" ? "is not closed" : "has mismatched brackets"}`);

  const fence = /^(`{3,}|~{3,})[ \t]*[\w+-]*[ \t]*\n?/.exec(text.slice(start, to));
  if (fence) {
    const bodyStart = start + fence[0].length;
    const close = text.indexOf(fence[1]!, bodyStart);
    const bodyEnd = close === -1 || close > to ? to : close;
    const end = bodyEnd === close ? close + fence[1]!.length : to;
    const body = text.slice(bodyStart, bodyEnd);
    const open = body.search(/\S/);
    if (open === -1 || (body[open] !== "{" && body[open] !== "[")) {
      warnings.push("the fenced Action Input does not start with a JSON object");
      return { raw: body.trim(), end };
    }
    const scan = scanBalanced(body, open);
    if (!scan.ok) {
      notClosed(scan.reason);
      return { raw: body.trim(), end };
    }
    if (body.slice(scan.end).trim() !== "") warnings.push("text after the JSON inside the code fence was ignored");
    return { raw: scan.text, end };
  }

  if (text[start] === "`") start++; // `{"a": 1}` in inline code
  const boundary = hits.find((h) => h.start > start && h.lineStart && h.key !== "input");
  const limit = Math.min(to, boundary ? boundary.start : to);
  const firstChar = text[start];
  if (firstChar === "{" || firstChar === "[") {
    const scan = scanBalanced(text, start);
    if (scan.ok) return { raw: scan.text, end: text[scan.end] === "`" ? scan.end + 1 : scan.end };
    notClosed(scan.reason);
    return { raw: text.slice(start, limit).trim(), end: limit };
  }
  // Not JSON at the start: a brace later on the same line ("Action Input: json {…}") is taken.
  const lineEnd = text.indexOf("\n", start);
  const firstLine = text.slice(start, lineEnd === -1 || lineEnd > limit ? limit : lineEnd);
  const brace = firstLine.indexOf("{");
  if (brace > 0) {
    const scan = scanBalanced(text, start + brace);
    if (scan.ok) {
      warnings.push(`text before the Action Input's JSON object was ignored: "${firstLine.slice(0, brace).trim()}"`);
      return { raw: scan.text, end: scan.end };
    }
  }
  return { raw: text.slice(start, limit).trim(), end: limit };
}
