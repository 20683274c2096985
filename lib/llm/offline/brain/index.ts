// PLACEHOLDER until the heuristic brain lands (issue 4): answers every request with a final answer.
import type { ChatMessage } from "@/lib/llm/types";

export function respond(_messages: ChatMessage[]): string {
  return "Thought: placeholder.\nFinal Answer: placeholder.";
}
