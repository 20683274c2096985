// "Redact model self-identification" for blinded items (a per-campaign option): names of every
// known model and endpoint — endpoint names and model ids, agent/emulator/evaluator models seen in
// trajectories, the offline model's label — are replaced by a neutral token in the text annotators
// read (thoughts, actions, inputs, observations, the final answer and log). An agent that says
// "As Qwen2.5, I …" or the offline model's "offline-heuristic (not an LLM)" would otherwise tell
// the annotator whose trajectory it is.
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import type { BlindedItem } from "./blinded";

export const REDACTED_MODEL = "[model]";

/**
 * The spellings a model might use for itself, from one known name:
 * "Qwen/Qwen2.5-7B-Instruct" → the whole id, its organisation ("Qwen"), the name after the slash,
 * its shorter prefixes ("Qwen2.5", "Qwen2.5-7B") and the family word before a version ("Qwen").
 * Family words come only from letters directly followed by a version ("gpt" in gpt-4o, "Llama"
 * in Llama-3), so "offline-heuristic" does not make every "offline" in a tool's output vanish.
 */
export function nameVariants(name: string): string[] {
  const out = new Set<string>();
  const add = (s: string) => {
    const v = s.trim();
    if (v.length >= 3 && /[a-z]/i.test(v)) out.add(v);
  };
  add(name);
  const slash = name.lastIndexOf("/");
  const base = slash >= 0 ? name.slice(slash + 1) : name;
  if (slash >= 0) for (const org of name.slice(0, slash).split("/")) add(org);
  add(base);
  const parts = base.split(/[-_:\s]+/).filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    // Prefixes up to a part with a digit: "Qwen2.5", "Qwen2.5-7B" (not "Meta" alone from "Meta-Llama-3").
    if (/\d/.test(parts[i - 1]!)) add(parts.slice(0, i).join("-"));
  }
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const glued = p.match(/^([A-Za-z]{3,})\d/); // "Qwen2.5" → "Qwen"
    if (glued) add(glued[1]!);
    else if (/^[A-Za-z]{3,}$/.test(p) && /^\d/.test(parts[i + 1] ?? "")) add(p); // "gpt" in "gpt-4o"
  }
  return [...out];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export type Redactor = (text: string | null) => string | null;

/** A function replacing every variant of `names` (case-insensitive, whole words) by REDACTED_MODEL. */
export function makeRedactor(names: readonly string[]): Redactor {
  const variants = [...new Set(names.flatMap(nameVariants))].sort((a, b) => b.length - a.length || a.localeCompare(b));
  if (variants.length === 0) return (t) => t;
  // Whole words only: "gpt" not inside "gptq", "Qwen" not inside "Qwen2" (the longer variant wins).
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${variants.map(escape).join("|")})(?![\\p{L}\\p{N}])`, "giu");
  return (t) => (t === null ? null : t.replace(re, REDACTED_MODEL));
}

/** Every model and endpoint name the database knows, plus the offline model's own names. */
export async function knownModelNames(db: Db | Prisma.TransactionClient): Promise<string[]> {
  const rows = await db.$queryRaw<{ name: string }[]>`
    SELECT name FROM "ModelEndpoint" UNION SELECT model FROM "ModelEndpoint"
    UNION SELECT DISTINCT "agentModel" FROM "Trajectory" UNION SELECT DISTINCT "emulatorModel" FROM "Trajectory"
    UNION SELECT DISTINCT "evaluatorModel" FROM "Evaluation"`;
  return [...new Set([...rows.map((r) => r.name), OFFLINE_MODEL_ID, OFFLINE_MODEL_LABEL])];
}

// The names change only when endpoints are added or trajectories imported; a redacting campaign
// reads them at most once a minute per process rather than on every claim.
const TTL_MS = 60_000;
let cached: { at: number; redactor: Redactor } | null = null;

async function modelNameRedactor(db: Db | Prisma.TransactionClient, now = Date.now()): Promise<Redactor> {
  if (cached && now - cached.at < TTL_MS) return cached.redactor;
  const redactor = makeRedactor(await knownModelNames(db));
  cached = { at: now, redactor };
  return redactor;
}

/** For tests and after an import: the next redacting load reads the names again. */
export function forgetModelNames(): void {
  cached = null;
}

/** The item with model names redacted when its campaign asks for it; unchanged otherwise. */
export async function redactIfAsked(db: Db | Prisma.TransactionClient, item: BlindedItem): Promise<BlindedItem> {
  if (!item.campaign.redactModelNames) return item;
  const r = await modelNameRedactor(db);
  return {
    ...item,
    steps: item.steps.map((s) => ({ index: s.index, thought: r(s.thought), action: r(s.action), actionInput: r(s.actionInput), observation: r(s.observation) })),
    finalAnswer: r(item.finalAnswer),
    finalMessage: r(item.finalMessage),
  };
}
