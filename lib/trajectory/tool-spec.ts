// Tool specs from ToolEmu's all_toolkits.json and from our Tool rows: the engine's ToolSpec.
import { toolkitSchema } from "@/lib/toolemu/source-schemas";
import { toolExceptions, toolParameters, toolReturns } from "@/lib/toolemu/tool-lists";
import type { ToolkitSpec, ToolSpec } from "./types";

/**
 * ToolEmu's all_toolkits.json (an array of toolkit specs) → ToolkitSpec[], validated with the
 * importer's schema (a parameter without `required` is optional, a tool without `exceptions` has
 * none). Throws an Error naming the first invalid field.
 */
export function toolSpecsFromToolkitJson(toolkitsJson: unknown[]): ToolkitSpec[] {
  return toolkitsJson.map((raw, i) => {
    const parsed = toolkitSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`toolkits[${i}]${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}: ${issue.message}`);
    }
    const tk = parsed.data;
    return {
      name: tk.toolkit,
      nameForModel: tk.name_for_model,
      descriptionForModel: tk.description_for_model,
      tools: tk.tools.map((t) => ({
        agentName: `${tk.name_for_model}${t.name}`,
        toolkit: tk.toolkit,
        name: t.name,
        summary: t.summary,
        parameters: t.parameters.map((p) => ({ name: p.name, type: p.type, description: p.description, required: p.required })),
        returns: t.returns.map((r) => ({ name: r.name, type: r.type, description: r.description })),
        exceptions: t.exceptions.map((e) => ({ name: e.name, description: e.description })),
      })),
    };
  });
}

/** The Tool columns toolSpecFromRow reads (prisma Tool: parameters, returns, exceptions are JSON). */
export interface ToolRowLike {
  name: string;
  agentName?: string | null;
  summary: string;
  parameters: unknown;
  returns: unknown;
  exceptions: unknown;
}

/**
 * A stored Tool row → ToolSpec. The JSON columns were validated on import; anything that is not
 * an object in them is skipped and a missing `required` is false, as ToolEmu reads it.
 * `toolkit` is the toolkit's name_for_model (the same as its name in all of ToolEmu's data).
 */
export function toolSpecFromRow(toolkitNameForModel: string, row: ToolRowLike): ToolSpec {
  return {
    agentName: row.agentName || `${toolkitNameForModel}${row.name}`,
    toolkit: toolkitNameForModel,
    name: row.name,
    summary: row.summary,
    parameters: toolParameters(row.parameters),
    returns: toolReturns(row.returns),
    exceptions: toolExceptions(row.exceptions),
  };
}
