// The emulator's output → its thought, log summary and Observation, checked against the tool's
// spec: a JSON object with exactly the tool's `returns` (each of its declared type), or
// {"error": "<Exception>: <message>"} with an exception the tool declares (or the generic
// InvalidRequestException). What is wrong comes back as `problem`, a sentence addressed to the
// emulator, so the engine can send it as the critique. Never throws.
import { INVALID_REQUEST, matchesType } from "./input-check";
import { isPlainObject, jsonTypeName, parseJsonLenient, scanBalanced, stripThinkBlocks, withArticle } from "@/lib/trajectory/json-text";
import { findLabels, type LabelHit, type LabelSpec } from "@/lib/trajectory/labels-in-text";
import type { ToolSpec } from "@/lib/trajectory/types";

export type EmulatorParse =
  | { ok: true; thought: string | null; summary: string | null; observation: Record<string, unknown>; observationRaw: string }
  | { ok: false; thought: string | null; summary: string | null; observationRaw: string | null; problem: string };

const THOUGHT: LabelSpec = { key: "thought", names: ["Simulator Thought", "Emulator Thought"] };
const SUMMARY: LabelSpec = { key: "summary", names: ["Simulator Log Summary", "Emulator Log Summary"] };
const OBSERVATION: LabelSpec = { key: "observation", names: ["Observation"] };
const LABELS = [THOUGHT, SUMMARY, OBSERVATION];

const list = (names: string[]) => `[${names.join(", ")}]`;

export function parseEmulatorOutput(text: string, tool: ToolSpec): EmulatorParse {
  try {
    return parse(text, tool);
  } catch (e) {
    // Defensive only: parse() has no known way to throw.
    return { ok: false, thought: null, summary: null, observationRaw: null, problem: `Your output could not be read (${e instanceof Error ? e.message : String(e)}).` };
  }
}

function section(text: string, hit: LabelHit | undefined, hits: LabelHit[]): string | null {
  if (!hit) return null;
  const next = hits.find((h) => h.start > hit.start);
  const s = text.slice(hit.contentStart, next ? next.start : text.length).trim();
  return s === "" ? null : s;
}

function formatHint(tool: ToolSpec): string {
  const exceptions = [...new Set([...tool.exceptions.map((e) => e.name), INVALID_REQUEST])];
  return (
    `End your output with "Observation:" followed by exactly one JSON object with the fields ${list(tool.returns.map((r) => r.name))}, ` +
    `or {"error": "<Exception>: <message>"} using one of ${list(exceptions)}.`
  );
}

function parse(input: string, tool: ToolSpec): EmulatorParse {
  if (typeof input !== "string" || input.trim() === "")
    return { ok: false, thought: null, summary: null, observationRaw: null, problem: `Your output is empty. ${formatHint(tool)}` };
  const text = stripThinkBlocks(input).replace(/\r\n?/g, "\n");
  let hits = findLabels(text, LABELS);
  if (!hits.some((h) => h.key === "observation")) hits = findLabels(text, LABELS, { inline: true });

  const summaryHit = hits.find((h) => h.key === "summary");
  // The Observation is the first one after the log summary (as ToolEmu reads it), else the last.
  const observationHit = summaryHit
    ? (hits.find((h) => h.key === "observation" && h.start > summaryHit.start) ?? hits.findLast((h) => h.key === "observation"))
    : hits.findLast((h) => h.key === "observation");
  const thoughtHit = hits.find((h) => h.key === "thought");
  const firstOther = hits.find((h) => h.key !== "thought");
  const thought = thoughtHit
    ? section(text, thoughtHit, hits.filter((h) => h.key !== "thought" || h === thoughtHit))
    : firstOther
      ? text.slice(0, firstOther.start).trim() || null
      : null;
  const summary = summaryHit && (!observationHit || summaryHit.start < observationHit.start) ? section(text, summaryHit, hits.filter((h) => h.key !== "thought")) : null;

  // Where the Observation's JSON is: after the label; or, without any label, the whole output
  // when it is nothing but one JSON object.
  let from: number;
  if (observationHit) from = observationHit.contentStart;
  else {
    const bare = /^\s*(?:(`{3,})[ \t]*\w*[ \t]*\n)?\s*\{/.exec(text);
    if (!bare || hits.length > 0)
      return { ok: false, thought, summary, observationRaw: null, problem: `Your output has no "Observation:" section. ${formatHint(tool)}` };
    from = 0;
  }

  // The Observation ends at the next label on a line of its own (an emulator that went on).
  const next = observationHit ? hits.find((h) => h.start > observationHit.start && h.lineStart) : undefined;
  const located = locateJson(next ? text.slice(0, next.start) : text, from);
  if (!located.ok) return { ok: false, thought, summary, observationRaw: located.raw, problem: `${located.problem} ${formatHint(tool)}` };
  const problem = checkObservation(located.value, tool);
  if (problem) return { ok: false, thought, summary, observationRaw: located.raw, problem };
  return { ok: true, thought, summary, observation: located.value as Record<string, unknown>, observationRaw: located.raw };
}

type Located = { ok: true; raw: string; value: unknown } | { ok: false; raw: string | null; problem: string };

/** The first JSON object after `from` (code fence and leading prose allowed, trailing text ignored). */
function locateJson(text: string, from: number): Located {
  let rest = text.slice(from);
  const fence = /^\s*(`{3,}|~{3,})[ \t]*[\w+-]*[ \t]*\n?/.exec(rest);
  if (fence) {
    rest = rest.slice(fence[0].length);
    const close = rest.indexOf(fence[1]!);
    if (close !== -1) rest = rest.slice(0, close);
  }
  const open = rest.search(/[{[]/);
  const restTrimmed = rest.trim();
  if (open === -1) {
    return {
      ok: false,
      raw: restTrimmed || null,
      problem: restTrimmed ? "Your Observation is not a JSON object." : 'Your "Observation:" is empty.',
    };
  }
  const scan = scanBalanced(rest, open);
  if (!scan.ok) {
    return {
      ok: false,
      raw: rest.slice(open).trim(),
      problem:
        scan.reason === "unterminated"
          ? "Your Observation's JSON is cut off: it ends before its closing brace. Write a complete JSON object (shorter, if it was long)."
          : "Your Observation's JSON has mismatched brackets.",
    };
  }
  const parsed = parseJsonLenient(scan.text);
  if (!parsed.ok) return { ok: false, raw: scan.text, problem: `Your Observation is not valid JSON (${parsed.error}).` };
  if (!isPlainObject(parsed.value)) return { ok: false, raw: scan.text, problem: `Your Observation must be a JSON object, not ${withArticle(jsonTypeName(parsed.value))}.` };
  return { ok: true, raw: scan.text, value: parsed.value };
}

/** null when the observation fits the spec, else the critique. */
function checkObservation(obs: unknown, tool: ToolSpec): string | null {
  const o = obs as Record<string, unknown>;
  const keys = Object.keys(o);
  const returns = tool.returns.map((r) => r.name);
  const declared = tool.exceptions.map((e) => e.name);
  const allowed = [...new Set([...declared, INVALID_REQUEST])];

  if (keys.length === 1 && keys[0] === "error" && !returns.includes("error")) {
    const err = o.error;
    if (typeof err !== "string")
      return `Your Observation's "error" must be a string of the form "<Exception>: <message>", not ${withArticle(jsonTypeName(err))}; ${tool.agentName} declares ${list(allowed)}.`;
    const m = /^\s*([A-Za-z_][\w.]*)\s*:\s*([\s\S]*)$/.exec(err);
    if (!m || m[2]!.trim() === "")
      return `Your Observation's error "${short(err)}" should read "<Exception>: <message>" with one of ${list(allowed)} for ${tool.agentName}.`;
    if (!allowed.includes(m[1]!))
      return `Your Observation raises ${m[1]}, which ${tool.agentName} does not declare; use one of ${list(allowed)} as "<Exception>: <message>".`;
    return null;
  }

  const missing = returns.filter((r) => !Object.hasOwn(o, r));
  const extra = keys.filter((k) => !returns.includes(k));
  if (missing.length || extra.length) {
    const parts: string[] = [];
    if (missing.length) parts.push(`missing ${list(missing)}`);
    if (extra.length) parts.push(`not returned by the tool: ${list(extra)}`);
    const errorNote = extra.includes("error") ? ' To report a failure, the Observation must be {"error": "<Exception>: <message>"} alone.' : "";
    return (
      `Your Observation has the keys ${list(keys)} but ${tool.agentName} returns ${list(returns)} (${parts.join("; ")}). ` +
      `Return exactly those fields, or {"error": "<Exception>: <message>"} with one of ${list(allowed)}.${errorNote}`
    );
  }
  const wrong = tool.returns.filter((r) => !matchesType(o[r.name], r.type)).map((r) => `${r.name} should be ${r.type}, not ${jsonTypeName(o[r.name])}`);
  if (wrong.length) return `Your Observation has fields of the wrong type for ${tool.agentName}: ${wrong.join("; ")}.`;
  return null;
}

function short(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
