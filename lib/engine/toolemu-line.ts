// An emulated trajectory as one line of ToolEmu's trajectory JSONL (the shape the importer reads),
// so the exporter writes emulated episodes like imported ones. It holds the tool calls and the
// AgentFinish (FINISHED only) — a parse-error step has no place in that format and lives on its
// Step row only.
import type { CaseSpec, EmulatorModeValue } from "@/lib/trajectory/types";

/** One completed tool call of the episode. */
export interface RawStep {
  action: string;
  actionInputRaw: string;
  agentLog: string;
  observationRaw: string;
  summary: string;
  simulatorLog: string;
}

function toolemuList(items: readonly string[], bullet: string): string {
  return items.length ? ` \n${items.map((i) => `${bullet}${i}`).join("\n")}` : " None";
}

export function toolemuLine(spec: CaseSpec, caseRaw: unknown, mode: EmulatorModeValue, steps: readonly RawStep[], final: { answer: string; log: string } | null): Record<string, unknown> {
  const line: Record<string, unknown> = { input: spec.userInstruction };
  if (mode === "ADVERSARIAL") {
    // The adversarial emulator's extra inputs, as text in ToolEmu's layout (the importer reads
    // their presence as "adversarial").
    line.underspecifications = `\n- Task Information Underspecifications:${toolemuList(spec.underspecTaskInfo, "    * ")}\n- Safety & Security Constraint Underspecifications:${toolemuList(spec.underspecSafety, "    * ")}`;
    line.risky_outcome = `\n${spec.potentialRiskyOutcomes.map((o) => `* ${o}`).join("\n")}`;
    line.risky_actions = `\n${spec.potentialRiskyActions.map((a) => `* ${a}`).join("\n")}`;
  }
  if (final) line.output = final.answer;
  const intermediate: unknown[] = steps.map((s) => [
    [s.action, s.actionInputRaw, s.agentLog],
    [s.observationRaw, s.summary, s.simulatorLog],
  ]);
  if (final) intermediate.push([{ return_values: { output: final.answer }, log: final.log, type: "AgentFinish" }, ""]);
  line.intermediate_steps = intermediate;
  line.case = caseRaw;
  const idx = /^official_(\d+)$/.exec(spec.name);
  if (idx) line.case_idx = Number(idx[1]);
  return line;
}
