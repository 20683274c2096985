// The three generators as pipelines over one model client — no database: the job around them
// (lib/runs/generation) loads the context, stores each item as it comes and counts the calls.
//   toolkits: names (1 call) → per name a description with risks (1 call) → its full spec (1 call)
//   cases:    one call per case, each told the instructions written so far (so they differ)
//   complete: one call, the researcher's instruction kept word for word
// Every answer becomes an item: valid, or invalid with located issues and the raw text. Nothing
// a model wrote is dropped silently.
import type { ChatResult, ModelClient } from "@/lib/llm/types";
import { isPlainObject } from "@/lib/trajectory/json-text";
import { casePrompt, completeCasePrompt, toolkitDescriptionPrompt, toolkitNamesPrompt, toolkitSpecPrompt, type BuiltPrompt } from "./prompts/build";
import { readJsonObject } from "./read-output";
import { declaredRisks, sampleRisks } from "./risks";
import type { CaseGenerationInput, CompleteCaseInput, ToolkitGenerationInput } from "./schemas";
import { validateGeneratedCase, validateGeneratedToolkit, type Validation } from "./validate";

export interface ItemDraft {
  kind: "TOOLKIT" | "CASE";
  /** The parsed object, or null when the answer held none. */
  payload: Record<string, unknown> | null;
  /** The model's answer when it could not be read or did not validate. */
  rawOutput: string | null;
  validation: Validation;
  /** Prompt templates (id@version) that produced it. */
  templates: string[];
}

export interface GenerationHooks {
  /** After every model call: usage, and the stage for the progress line. */
  onCall(result: ChatResult, stage: string): Promise<void> | void;
  /** Each item as soon as it is complete. */
  onItem(item: ItemDraft): Promise<void> | void;
  /** The number of calls now planned (toolkits: fewer once a stage fails). */
  onPlan?(calls: number): Promise<void> | void;
  signal?: AbortSignal;
}

async function call(client: ModelClient, prompt: BuiltPrompt, stage: string, hooks: GenerationHooks): Promise<string> {
  const result = await client.chat({ purpose: "generator", messages: prompt.messages, signal: hooks.signal });
  await hooks.onCall(result, stage);
  return result.content;
}

const unreadable = (kind: ItemDraft["kind"], raw: string, error: string, templates: string[], path = ""): ItemDraft => ({
  kind,
  payload: null,
  rawOutput: raw,
  validation: { ok: false, issues: [{ path, message: error }] },
  templates,
});

// ---- toolkits ----------------------------------------------------------------------------------

export interface ToolkitContext {
  /** Names of the toolkits already stored. */
  existing: readonly string[];
}

export function plannedToolkitCalls(count: number): number {
  return 1 + 2 * count;
}

export async function generateToolkits(client: ModelClient, input: ToolkitGenerationInput, ctx: ToolkitContext, hooks: GenerationHooks): Promise<void> {
  const namesPrompt = toolkitNamesPrompt({ category: input.category, brief: input.brief, count: input.count, existing: ctx.existing });
  const namesText = await call(client, namesPrompt, "toolkit names", hooks);
  const names = readJsonObject(namesText);
  const list = names.ok && Array.isArray(names.value.toolkits) ? names.value.toolkits.filter(isPlainObject) : null;
  if (!list || list.length === 0) {
    await hooks.onPlan?.(1);
    await hooks.onItem(unreadable("TOOLKIT", namesText, names.ok ? "expected a non-empty list of toolkits" : names.error, [namesPrompt.template], names.ok ? "toolkits" : ""));
    return;
  }
  const chosen = list.slice(0, input.count);
  let planned = 1 + 2 * chosen.length;
  await hooks.onPlan?.(planned);
  const existing = new Set(ctx.existing);
  for (const entry of chosen) {
    const name = typeof entry.name === "string" ? entry.name.trim() : "";
    const descPrompt = toolkitDescriptionPrompt({ name, description: typeof entry.description === "string" ? entry.description : "", category: input.category, brief: input.brief });
    const descText = await call(client, descPrompt, `description of ${name || "a toolkit"}`, hooks);
    const desc = readJsonObject(descText);
    if (!desc.ok) {
      await hooks.onPlan?.(--planned);
      await hooks.onItem(unreadable("TOOLKIT", descText, `stage 2 (description): ${desc.error}`, [namesPrompt.template, descPrompt.template]));
      continue;
    }
    const specPrompt = toolkitSpecPrompt(desc.value);
    const specText = await call(client, specPrompt, `specification of ${name || "a toolkit"}`, hooks);
    const spec = readJsonObject(specText);
    const templates = [namesPrompt.template, descPrompt.template, specPrompt.template];
    if (!spec.ok) {
      await hooks.onItem(unreadable("TOOLKIT", specText, `stage 3 (specification): ${spec.error}`, templates));
      continue;
    }
    // The stage-2 risks stay with the spec when the model left them out.
    const value = spec.value.risks === undefined && desc.value.risks !== undefined ? { ...spec.value, risks: desc.value.risks } : spec.value;
    const validation = validateGeneratedToolkit(value, existing);
    if (typeof value.toolkit === "string") existing.add(value.toolkit);
    await hooks.onItem({ kind: "TOOLKIT", payload: value, rawOutput: validation.ok ? null : specText, validation, templates });
  }
}

// ---- cases -------------------------------------------------------------------------------------

export interface CaseContext {
  /** Toolkit JSON (ToolEmu format, maybe with "risks"), by name. */
  toolkits: ReadonlyMap<string, unknown>;
  /** Risks of each primary toolkit beyond its own list (stored cases' risky outcomes). */
  caseRisks: Readonly<Record<string, readonly string[]>>;
  examples: readonly unknown[];
  /** Every stored toolkit's name (a case may only name these). */
  known: ReadonlySet<string>;
  /** Every stored case's name (a new case must not take one). */
  caseNames: ReadonlySet<string>;
}

function pick(ctx: CaseContext, names: readonly string[]): unknown[] {
  return names.map((n) => ctx.toolkits.get(n)).filter((t) => t !== undefined);
}

export async function generateCases(client: ModelClient, input: CaseGenerationInput, ctx: CaseContext, hooks: GenerationHooks): Promise<void> {
  await hooks.onPlan?.(input.count);
  const primary = pick(ctx, input.primaryToolkits);
  const auxiliary = pick(ctx, input.auxiliaryToolkits);
  const previous: string[] = [];
  const taken = new Set(ctx.caseNames);
  for (let index = 1; index <= input.count; index++) {
    const risks: Record<string, string[]> = {};
    for (const name of input.primaryToolkits) {
      const pool = [...declaredRisks(ctx.toolkits.get(name)), ...(ctx.caseRisks[name] ?? [])];
      risks[name] = sampleRisks(pool, input.risksPerToolkit, input.seed, name, index);
    }
    const prompt = casePrompt({ mode: input.mode, primary, auxiliary, risks, examples: ctx.examples, previous, index, count: input.count });
    const text = await call(client, prompt, `case ${index} of ${input.count}`, hooks);
    const read = readJsonObject(text);
    if (!read.ok) {
      await hooks.onItem(unreadable("CASE", text, read.error, [prompt.template]));
      continue;
    }
    const instruction = read.value["User Instruction"];
    if (typeof instruction === "string") previous.push(instruction);
    const validation = validateGeneratedCase(read.value, ctx.known, taken);
    if (typeof read.value.name === "string") taken.add(read.value.name);
    await hooks.onItem({ kind: "CASE", payload: read.value, rawOutput: validation.ok ? null : text, validation, templates: [prompt.template] });
  }
}

export async function completeCase(client: ModelClient, input: CompleteCaseInput, ctx: CaseContext, hooks: GenerationHooks): Promise<void> {
  await hooks.onPlan?.(1);
  const prompt = completeCasePrompt({ instruction: input.instruction, toolkits: pick(ctx, input.toolkits), examples: ctx.examples, mode: input.mode });
  const text = await call(client, prompt, "completing the case", hooks);
  const read = readJsonObject(text);
  if (!read.ok) {
    await hooks.onItem(unreadable("CASE", text, read.error, [prompt.template]));
    return;
  }
  // The instruction is the researcher's: a model that reworded it is overruled, not trusted.
  const value = { ...read.value, "User Instruction": input.instruction };
  const validation = validateGeneratedCase(value, ctx.known, ctx.caseNames);
  await hooks.onItem({ kind: "CASE", payload: value, rawOutput: validation.ok ? null : text, validation, templates: [prompt.template] });
}
