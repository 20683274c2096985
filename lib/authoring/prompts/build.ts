// Rendering the generators' prompts from their inputs. Toolkits and cases go in as JSON blocks
// (a model reads them as easily as prose, and the offline model can read them back).
import type { ChatMessage } from "@/lib/llm/types";
import { renderTemplate, type PromptTemplate } from "@/lib/prompts/template";
import { isPlainObject } from "@/lib/trajectory/json-text";
import { COMPLETE_MODE_NOTES, GENERATOR_CASE_COMPLETE, GENERATOR_CASE_RED_TEAM, GENERATOR_CASE_STANDARD } from "./case";
import { GENERATOR_TOOLKIT_DESCRIPTION, GENERATOR_TOOLKIT_NAMES, GENERATOR_TOOLKIT_SPEC } from "./toolkit";
import type { GenerationMode } from "../schemas";

export interface BuiltPrompt {
  messages: ChatMessage[];
  /** id@version */
  template: string;
}

function build(t: PromptTemplate, vars: Record<string, string>): BuiltPrompt {
  const r = renderTemplate(t, vars);
  return { messages: [...(r.system ? [{ role: "system" as const, content: r.system }] : []), { role: "user", content: r.user }], template: r.template };
}

const json = (v: unknown) => "```json\n" + JSON.stringify(v, null, 1) + "\n```";

/** A toolkit as the case prompts show it: its spec without its risks (those are sampled apart). */
export function toolkitForPrompt(raw: unknown): unknown {
  if (!isPlainObject(raw)) return raw;
  const { risks: _risks, ...rest } = raw;
  return rest;
}

/** An auxiliary toolkit: what it is and its tools' names and summaries. */
function auxiliaryForPrompt(raw: unknown): unknown {
  if (!isPlainObject(raw)) return raw;
  const tools = Array.isArray(raw.tools) ? raw.tools.filter(isPlainObject).map((t) => ({ name: t.name, summary: t.summary })) : [];
  return { toolkit: raw.toolkit, name_for_model: raw.name_for_model, description_for_model: raw.description_for_model, tools };
}

export function toolkitNamesPrompt(i: { category: string; brief: string; count: number; existing: readonly string[] }): BuiltPrompt {
  return build(GENERATOR_TOOLKIT_NAMES, {
    category: i.category,
    brief: i.brief,
    count: String(i.count),
    existing: i.existing.length ? i.existing.join(", ") : "(none)",
  });
}

export function toolkitDescriptionPrompt(i: { name: string; description: string; category: string; brief: string }): BuiltPrompt {
  return build(GENERATOR_TOOLKIT_DESCRIPTION, i);
}

export function toolkitSpecPrompt(description: unknown): BuiltPrompt {
  return build(GENERATOR_TOOLKIT_SPEC, { description_json: json(description) });
}

export interface CasePromptInput {
  mode: GenerationMode;
  /** Toolkit JSON (ToolEmu format). */
  primary: readonly unknown[];
  auxiliary: readonly unknown[];
  /** The sampled risks, by primary toolkit name. */
  risks: Readonly<Record<string, readonly string[]>>;
  /** Example cases (ToolEmu format). */
  examples: readonly unknown[];
  /** User instructions of the cases written earlier in the batch. */
  previous: readonly string[];
  index: number;
  count: number;
}

export function casePrompt(i: CasePromptInput): BuiltPrompt {
  const riskLines = Object.entries(i.risks).flatMap(([tk, rs]) => rs.map((r) => `- ${tk}: ${r}`));
  return build(i.mode === "RED_TEAM" ? GENERATOR_CASE_RED_TEAM : GENERATOR_CASE_STANDARD, {
    primary_toolkits: json(i.primary.map(toolkitForPrompt)),
    risks: riskLines.length ? riskLines.join("\n") : "(none recorded: infer them from the tools)",
    auxiliary_toolkits: i.auxiliary.length ? json(i.auxiliary.map(auxiliaryForPrompt)) : "(none)",
    examples: i.examples.length ? json(i.examples) : "(none)",
    previous: i.previous.length ? i.previous.map((p) => `- ${p}`).join("\n") : "(none yet)",
    index: String(i.index),
    count: String(i.count),
  });
}

export function completeCasePrompt(i: { instruction: string; toolkits: readonly unknown[]; examples: readonly unknown[]; mode: GenerationMode }): BuiltPrompt {
  return build(GENERATOR_CASE_COMPLETE, {
    instruction: i.instruction,
    toolkits: json(i.toolkits.map(toolkitForPrompt)),
    examples: i.examples.length ? json(i.examples) : "(none)",
    mode_note: COMPLETE_MODE_NOTES[i.mode],
  });
}
