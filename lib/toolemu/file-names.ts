// ToolEmu output files are named <agent>_emu-<emulator>_eval-<evaluator>[_<tag>]_r<A>-<B>_<date>_<time>
// with companions <prefix>_eval_agent_safe.jsonl and <prefix>_eval_agent_help_ignore_safety.jsonl.
// The model labels come from the name; people can edit them before confirming an import.
//
// The optional <tag> (e.g. "int4", "int8": how the agent was served) sits after the evaluator only
// because that is where the run scripts append it; it describes the AGENT run. Two runs of one agent
// that differ only by the tag are different agents to us, so the tag goes into the agent label,
// spelled "<agent> · <tag>" (agentRunLabel), and never into the evaluator's name — otherwise one
// judge would become several evaluators and the two runs would merge into one agent.
import path from "node:path";

export type JsonlRole = "trajectories" | "safety" | "helpfulness";

export interface ParsedFileName {
  prefix: string;
  role: JsonlRole;
  agentModel: string | null;
  emulatorModel: string | null;
  evaluatorModel: string | null;
  /** The run tag between the evaluator and the case range ("int4"), or null. */
  runTag: string | null;
}

const SUFFIXES: [string, JsonlRole][] = [
  ["_eval_agent_help_ignore_safety", "helpfulness"],
  ["_eval_agent_help", "helpfulness"],
  ["_eval_agent_safe", "safety"],
];

/** Separator between an agent model and its run tag in the agent label. */
const RUN_TAG_SEPARATOR = " · ";

/** "Qwen/Qwen3-32B" + "int4" → "Qwen/Qwen3-32B · int4"; no tag → the model alone. */
export function agentRunLabel(model: string, tag: string | null | undefined): string {
  return tag ? `${model}${RUN_TAG_SEPARATOR}${tag}` : model;
}

/** "Qwen_Qwen2.5-7B-Instruct" → "Qwen/Qwen2.5-7B-Instruct" (the org separator was flattened). */
function modelLabel(raw: string): string {
  const i = raw.indexOf("_");
  return i > 0 ? `${raw.slice(0, i)}/${raw.slice(i + 1)}` : raw;
}

// Segments that name how a model was served rather than the model: quantisations and formats.
// Only these are split off a two-part evaluator segment, where "org_name" is the other reading
// ("gpt-5-mini_int4" has a tag; "Qwen_Qwen3-32B" is org + name).
const TAG_SEGMENT = /^(?:u?int\d+|fp\d+|bf16|nf4|q\d+[a-z]*|w\d+a\d+|awq|gptq|gguf|exl2|mlx|\d+bit)$/i;

/**
 * Splits the run tag off the text between "_eval-" and the case range. Everything after an
 * "org_name" pair is a tag; a last segment that looks like a quantisation is one too.
 */
export function splitRunTag(evaluatorPart: string): { evaluator: string; tag: string | null } {
  const segments = evaluatorPart.split("_");
  let keep = segments.length;
  while (keep > 1 && TAG_SEGMENT.test(segments[keep - 1]!)) keep--;
  keep = Math.min(keep, 2);
  if (keep === segments.length) return { evaluator: evaluatorPart, tag: null };
  return { evaluator: segments.slice(0, keep).join("_"), tag: segments.slice(keep).join("_") };
}

export function parseJsonlName(file: string): ParsedFileName {
  let stem = path.basename(file).replace(/\.jsonl$/i, "");
  let role: JsonlRole = "trajectories";
  for (const [suffix, r] of SUFFIXES) {
    if (stem.endsWith(suffix)) {
      stem = stem.slice(0, -suffix.length);
      role = r;
      break;
    }
  }
  const m = /^(.+?)_emu-(.+?)_eval-(.+?)(?:_r\d+-\d+)?(?:_\d+_\d+)?$/.exec(stem);
  if (!m) return { prefix: stem, role, agentModel: null, emulatorModel: null, evaluatorModel: null, runTag: null };
  const { evaluator, tag } = splitRunTag(m[3]!);
  return {
    prefix: stem,
    role,
    agentModel: agentRunLabel(modelLabel(m[1]!), tag),
    emulatorModel: modelLabel(m[2]!),
    evaluatorModel: modelLabel(evaluator),
    runTag: tag,
  };
}
