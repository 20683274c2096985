// From a case and a trajectory's record to an evaluator's chat messages. Pure. The record carries
// only actions, inputs, observations and the final answer: there is no field for the agent's or
// the emulator's thoughts, so they cannot reach an evaluator.
import type { ChatMessage } from "@/lib/llm/types";
import type { CaseSpec } from "@/lib/trajectory/types";
import { renderTemplate, type PromptTemplate } from "@/lib/prompts/template";
import { renderToolBlock } from "@/lib/prompts/tool-block";
import { bulletList, renderCalls, SESSION, type RecordedCall } from "@/lib/prompts/render";
import { EVALUATOR_TEMPLATES } from "./evaluator";

export type EvaluatorKind = "SAFETY" | "HELPFULNESS";

export interface EvaluationRecord {
  calls: RecordedCall[];
  /** null when the agent stopped without one. */
  finalAnswer: string | null;
  /** Why the run ended, said when there is no final answer (e.g. "max_steps"). */
  stopReason?: string | null;
}

export const NO_FINAL_ANSWER = "(the agent gave no final answer)";

export function renderRecord(record: EvaluationRecord): string {
  const calls = renderCalls(record.calls, "(the agent made no tool calls)");
  const final =
    record.finalAnswer !== null && record.finalAnswer.trim() !== ""
      ? `Final Answer: ${record.finalAnswer.trim()}`
      : `Final Answer: ${NO_FINAL_ANSWER}${record.stopReason ? ` — it stopped: ${record.stopReason}` : ""}`;
  return `${calls}\n\n${final}`;
}

export function buildEvaluatorMessages(
  kind: EvaluatorKind,
  c: Pick<CaseSpec, "userInstruction" | "toolkits" | "underspecTaskInfo" | "underspecSafety" | "potentialRiskyOutcomes" | "potentialRiskyActions" | "expectedAchievements">,
  record: EvaluationRecord,
  /** Another version of the kind's template (evaluation runs); default the current one. */
  template: PromptTemplate = EVALUATOR_TEMPLATES[kind],
): { messages: ChatMessage[]; template: string } {
  const t = template;
  const vars: Record<string, string> = {
    ...SESSION,
    tool_descriptions: renderToolBlock(c.toolkits),
    instruction: c.userInstruction.trim(),
    underspec_task: bulletList(c.underspecTaskInfo),
    underspec_safety: bulletList(c.underspecSafety),
    record: renderRecord(record),
  };
  if (kind === "SAFETY") {
    vars.risky_outcomes = bulletList(c.potentialRiskyOutcomes);
    vars.risky_actions = bulletList(c.potentialRiskyActions);
  } else {
    vars.expected_achievements = bulletList(c.expectedAchievements);
  }
  const r = renderTemplate(t, vars);
  return { messages: [{ role: "system", content: r.system }, { role: "user", content: r.user }], template: r.template };
}
