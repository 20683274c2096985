// Our own metadata inside ToolEmu's files, in a way ToolEmu itself ignores: one optional extra key,
// "x_toolemu_studio", on a tool of all_toolkits.json and on a case of all_cases.json. ToolEmu reads
// the fields it knows by name (a tool's name, summary, parameters, returns, exceptions; a case's
// "User Instruction", "Toolkits", …) and never looks at others, so an exported file still runs
// there unchanged.
//
//   tool: "x_toolemu_studio": { "risk_level": "none"|"mild"|"severe", "critical": true|false,
//                              "amount_arg": "<a parameter of the tool>"|null,
//                              "curated_by": "<name>" (optional, informative), "curated_at": "<ISO time>" (optional) }
//   case: "x_toolemu_studio": { "critical_tools": ["<agent tool name of one of its toolkits>", …] }
//
// The key is written only for curated tools and for cases with critical tools of their own; the
// stored `raw` JSON and the content hash never include it, so a file with it and the same file
// without it are the same toolkit or case (only the metadata is applied).
import { z } from "zod";

export const STUDIO_KEY = "x_toolemu_studio";

export const toolRiskExtensionSchema = z.strictObject(
  {
    risk_level: z.enum(["none", "mild", "severe"], { error: "expected none, mild or severe" }),
    critical: z.boolean({ error: "expected true or false" }),
    amount_arg: z.string({ error: "expected a parameter name or null" }).min(1, { error: "must not be empty (use null)" }).nullable(),
    curated_by: z.string({ error: "expected a name" }).optional(),
    curated_at: z.iso.datetime({ error: "expected an ISO 8601 time, e.g. 2026-12-02T03:00:00Z", offset: true }).optional(),
  },
  { error: (iss) => (iss.code === "unrecognized_keys" ? `unknown key(s) ${iss.keys.join(", ")}: expected risk_level, critical, amount_arg, curated_by, curated_at` : undefined) },
);
export type ToolRiskExtension = z.output<typeof toolRiskExtensionSchema>;

export const caseExtensionSchema = z.strictObject(
  {
    critical_tools: z.array(z.string({ error: "expected a tool name" }).min(1, { error: "must not be empty" }), { error: "expected a list of tool names" }),
  },
  { error: (iss) => (iss.code === "unrecognized_keys" ? `unknown key(s) ${iss.keys.join(", ")}: expected critical_tools` : undefined) },
);
export type CaseExtension = z.output<typeof caseExtensionSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A toolkit's JSON without our key on its tools (what is stored and hashed), and the key's value per tool index. */
export function splitToolkitExtension(raw: unknown): { raw: unknown; perTool: Map<number, unknown> } {
  const perTool = new Map<number, unknown>();
  if (!isObject(raw) || !Array.isArray(raw.tools) || !raw.tools.some((t) => isObject(t) && STUDIO_KEY in t)) return { raw, perTool };
  const tools = raw.tools.map((t, i) => {
    if (!isObject(t) || !(STUDIO_KEY in t)) return t;
    const { [STUDIO_KEY]: ext, ...rest } = t;
    perTool.set(i, ext);
    return rest;
  });
  return { raw: { ...raw, tools }, perTool };
}

/** A case's JSON without our key, and the key's value (undefined: absent). */
export function splitCaseExtension(raw: unknown): { raw: unknown; ext: unknown } {
  if (!isObject(raw) || !(STUDIO_KEY in raw)) return { raw, ext: undefined };
  const { [STUDIO_KEY]: ext, ...rest } = raw;
  return { raw: rest, ext };
}

/** The stored toolkit JSON with our key added to the tools that have metadata (by tool name), keys in ToolEmu's order then ours. */
export function withToolkitExtension(raw: unknown, byToolName: Map<string, ToolRiskExtension>): unknown {
  if (!isObject(raw) || !Array.isArray(raw.tools) || !byToolName.size) return raw;
  return { ...raw, tools: raw.tools.map((t) => (isObject(t) && typeof t.name === "string" && byToolName.has(t.name) ? { ...t, [STUDIO_KEY]: byToolName.get(t.name) } : t)) };
}

export function withCaseExtension(raw: unknown, ext: CaseExtension | null): unknown {
  if (!isObject(raw) || !ext) return raw;
  return { ...raw, [STUDIO_KEY]: ext };
}
