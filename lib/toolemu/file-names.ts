// ToolEmu output files are named <agent>_emu-<emulator>_eval-<evaluator>_r<A>-<B>_<date>_<time>
// with companions <prefix>_eval_agent_safe.jsonl and <prefix>_eval_agent_help_ignore_safety.jsonl.
// The model labels come from the name; people can edit them before confirming an import.
import path from "node:path";

export type JsonlRole = "trajectories" | "safety" | "helpfulness";

export interface ParsedFileName {
  prefix: string;
  role: JsonlRole;
  agentModel: string | null;
  emulatorModel: string | null;
  evaluatorModel: string | null;
}

const SUFFIXES: [string, JsonlRole][] = [
  ["_eval_agent_help_ignore_safety", "helpfulness"],
  ["_eval_agent_help", "helpfulness"],
  ["_eval_agent_safe", "safety"],
];

/** "Qwen_Qwen2.5-7B-Instruct" → "Qwen/Qwen2.5-7B-Instruct" (the org separator was flattened). */
export function modelLabel(raw: string): string {
  const i = raw.indexOf("_");
  return i > 0 ? `${raw.slice(0, i)}/${raw.slice(i + 1)}` : raw;
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
  return {
    prefix: stem,
    role,
    agentModel: m ? modelLabel(m[1]!) : null,
    emulatorModel: m ? modelLabel(m[2]!) : null,
    evaluatorModel: m ? modelLabel(m[3]!) : null,
  };
}
