// InferAct trials (issue 13 item 7): an attempt that a rejection with written feedback kept from
// succeeding is played again as the next trial, with every earlier trial's feedback in the agent's
// memory — here, a section appended to the agent's system message (the request itself, the first
// user message, stays as the case states it). Pure.
import type { ChatMessage } from "@/lib/llm/types";
import type { TrialFeedback } from "./episode-types";

/** The memory section for the given feedback (oldest trial first); "" when there is none. */
export function trialMemory(feedback: readonly TrialFeedback[]): string {
  const items = feedback.map((f) => ({ trial: f.trial, text: f.text.replace(/\s+/g, " ").trim() })).filter((f) => f.text);
  if (!items.length) return "";
  return [
    "## Feedback from your earlier attempts at this request",
    "You have attempted this request before. Each time, the user stopped an action you were about to take and wrote:",
    ...items.map((f) => `- Attempt ${f.trial}: ${f.text}`),
    "Take this feedback into account in this attempt.",
  ].join("\n");
}

/** The agent's opening messages with the memory section at the end of the system message. */
export function withTrialMemory(messages: ChatMessage[], feedback: readonly TrialFeedback[]): ChatMessage[] {
  const memory = trialMemory(feedback);
  if (!memory) return messages;
  const i = messages.findIndex((m) => m.role === "system");
  if (i < 0) return [{ role: "system", content: memory }, ...messages];
  return messages.map((m, j) => (j === i ? { ...m, content: `${m.content.trimEnd()}\n\n${memory}` } : m));
}
