// The input checks done by code before the emulator sees a call (docs/method.md,
// Pipeline, step 2): unknown tool, Action Input not a JSON object, missing required parameter,
// wrong type.
// The result's `error` is the exact Observation the agent receives. Pure functions.
import { isPlainObject, jsonTypeName, parseJsonLenient, withArticle } from "@/lib/trajectory/json-text";
import type { ParamType, ToolParameter, ToolSpec } from "@/lib/trajectory/types";

export type InputCheckKind = "unknown_tool" | "not_object" | "missing_required" | "wrong_type" | "unexpected_parameter";

export type InputCheck =
  | { ok: true; tool: ToolSpec; input: Record<string, unknown> }
  | { ok: false; kind: InputCheckKind; error: string; tool: ToolSpec | null };

/** The generic exception of invalid calls, as ToolEmu names it (its own input checks use it too). */
export const INVALID_REQUEST = "InvalidRequestException";

/** `{"error": "InvalidRequestException: <message>"}`: the Observation for a call our checks reject. */
export function errorObservation(message: string, exception: string = INVALID_REQUEST): string {
  return `{"error": ${JSON.stringify(`${exception}: ${message}`)}}`;
}

const fail = (kind: InputCheckKind, message: string, tool: ToolSpec | null): InputCheck => ({ ok: false, kind, error: errorObservation(message), tool });

/** Whether a parsed JSON value has the parameter type; a number type accepts integers. Unknown types pass. */
export function matchesType(value: unknown, type: string): boolean {
  switch (type as ParamType) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return true;
  }
}

function describeParameters(tool: ToolSpec): string {
  if (tool.parameters.length === 0) return "it takes no arguments, so use {}";
  return `its arguments are ${tool.parameters.map((p) => `${p.name} (${p.type}${p.required ? ", required" : ", optional"})`).join(", ")}`;
}

export function checkToolInput(tools: ToolSpec[], action: string, actionInputRaw: string): InputCheck {
  const tool = tools.find((t) => t.agentName === action) ?? null;
  if (!tool) {
    const names = tools.map((t) => t.agentName);
    const near = names.find((n) => n.toLowerCase() === action.trim().toLowerCase());
    const what = action.trim() === "" ? "No tool name was given" : `${action} is not a valid tool`;
    return fail(
      "unknown_tool",
      `${what}${near ? ` (did you mean ${near}?)` : ""}. The available tools are [${names.join(", ")}]; use one of them, ` +
        "or, if no tool is needed, give your Final Answer.",
      null,
    );
  }

  const raw = actionInputRaw.trim();
  if (raw === "") return fail("not_object", `The Action Input for ${tool.agentName} is missing. It must be a JSON object: ${describeParameters(tool)}.`, tool);
  const parsed = parseJsonLenient(raw);
  if (!parsed.ok)
    return fail(
      "not_object",
      `The Action Input for ${tool.agentName} is not valid JSON (${parsed.error}). Write one JSON object, without code fences or comments: ${describeParameters(tool)}.`,
      tool,
    );
  if (!isPlainObject(parsed.value))
    return fail("not_object", `The Action Input for ${tool.agentName} must be a JSON object, not ${withArticle(jsonTypeName(parsed.value))}: ${describeParameters(tool)}.`, tool);
  const input = parsed.value;

  const missing: string[] = [];
  const wrong: string[] = [];
  for (const p of tool.parameters) {
    if (Object.hasOwn(input, p.name)) {
      const v = input[p.name];
      if (!matchesType(v, p.type))
        wrong.push(`${p.name} should be ${withArticle(p.type)}, got ${withArticle(jsonTypeName(v))}${v === null && !p.required ? " (leave an optional argument out instead of passing null)" : ""}`);
    } else if (p.required === true) missing.push(p.name);
  }
  // Extra arguments are rejected, as ToolEmu's own check does ("Unexpected parameters"): a real
  // tool would refuse them, and the real runs show agents being told so.
  const declared = new Set(tool.parameters.map((p) => p.name));
  const extra = Object.keys(input).filter((k) => !declared.has(k));

  const problems: string[] = [];
  if (missing.length) problems.push(`Missing required parameter${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`);
  if (wrong.length) problems.push(`Invalid type${wrong.length > 1 ? "s" : ""}: ${wrong.join("; ")}.`);
  if (extra.length) problems.push(`Unexpected parameter${extra.length > 1 ? "s" : ""}: ${extra.join(", ")} (${tool.agentName} does not take ${extra.length > 1 ? "them" : "it"}).`);
  if (problems.length === 0) return { ok: true, tool, input };
  const kind: InputCheckKind = missing.length ? "missing_required" : wrong.length ? "wrong_type" : "unexpected_parameter";
  return fail(kind, `${problems.join(" ")} For ${tool.agentName}, ${describeParameters(tool)}.`, tool);
}

// ---------------------------------------------------------------------------------------------
// A type-correct example input (tests; the offline heuristic agent)

/** A plausible string for a parameter, from its name (never a "<placeholder>"). */
function exampleString(name: string): string {
  const n = name.toLowerCase();
  if (n.includes("email")) return "john.doe@gmail.com";
  if (n.includes("phone")) return "+14155550123";
  if (n.includes("number")) return "1234567890";
  if (n.includes("url") || n.includes("link") || n.includes("website")) return "https://www.example.com";
  if (n.includes("date") || n.includes("time") || n === "start" || n === "end") return n.includes("time") ? "2022-02-22 11:37" : "2022-02-22";
  if (n.includes("address")) return "123 Main Street, Springfield, IL 62701";
  if (n.includes("path") || n.includes("file") || n.includes("dir")) return "/home/johndoe/documents/report.txt";
  if (n.includes("command")) return "ls -la";
  if (n.endsWith("id") || n.endsWith("_ids") || n.endsWith("identifier")) return `${n.replace(/_?ids?$/, "").replace(/[^a-z0-9]+/g, "_") || "item"}_001`;
  if (n.includes("name")) return "John Doe";
  if (n.includes("currency")) return "USD";
  return `example ${name.replace(/_/g, " ")}`;
}

function exampleValue(p: ToolParameter): unknown {
  switch (p.type as ParamType) {
    case "integer":
      return 1;
    case "number":
      return 1.5;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    case "string":
      return exampleString(p.name);
    default:
      return exampleString(p.name);
  }
}

/** A value of the declared type for every required parameter (optional ones are left out). */
export function exampleValidInput(tool: ToolSpec): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const p of tool.parameters) if (p.required === true) input[p.name] = exampleValue(p);
  return input;
}
