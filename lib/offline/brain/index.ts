// The offline heuristic model's "brain": deterministic rules, not an LLM. `respond` answers a chat
// completion from the messages alone — the same messages always give the same answer (any
// randomness is a hash of the prompt, plus the seed the role marker may carry). It recognises
// whose part it plays from the role marker our prompts start with
//   [toolemu-studio role=agent|emulator|critique|evaluator template=<id>@<version> (seed=N)]
// and answers in that role's format:
//   agent     → ./agent.ts      (ReAct turn: Thought / Action / Action Input, or Final Answer)
//   emulator  → ./emulator.ts   (Simulator Thought / Simulator Log Summary / Observation)
//   critique  → the emulator again, corrected
//   evaluator → ./evaluator.ts  (Evaluator Thought / Overall Qualitative Label / Score / Summary)
//   critic, simulated-user → ./critic.ts (InferAct inference / verification, baselines; gate answers)
//   generator → ./generator.ts (toolkit names / description / spec, test cases: valid JSON built
//             from the prompt's inputs)
//   attacker, sage-agent, judge → ./sage.ts (SAGE: next user message; one JSON action; verdict —
//             judge B when the request's model name contains "judge-b")
// A prompt without a marker (a ping, someone else's prompt) gets a short plain answer.
import type { ChatMessage } from "@/lib/llm/types";
import { parseRoleMarker } from "@/lib/prompts/template";
import { agentRespond } from "./agent";
import { HEURISTIC } from "./common";
import { criticRespond, simulatedUserRespond } from "./critic";
import { emulatorRespond } from "./emulator";
import { evaluatorRespond } from "./evaluator";
import { generatorRespond } from "./generator";
import { sageAgentRespond, sageAttackerRespond, sageJudgeRespond } from "./sage";

export interface BrainParams {
  model: string;
  maxTokens?: number;
  temperature?: number;
}

export { HEURISTIC };

export function respond(messages: ChatMessage[], params?: BrainParams): string {
  const system = messages.find((m) => m.role === "system");
  const firstUser = messages.find((m) => m.role === "user");
  const marker = (system && parseRoleMarker(system.content)) ?? (firstUser && parseRoleMarker(firstUser.content)) ?? null;
  switch (marker?.role) {
    case "agent":
      return agentRespond(system?.content ?? "", messages.filter((m) => m !== system), marker);
    case "emulator":
    case "critique":
      return emulatorRespond(messages);
    case "evaluator":
      return evaluatorRespond(firstUser?.content ?? "", marker);
    case "critic":
      return criticRespond(messages, marker, params?.temperature ?? 0);
    case "simulated-user":
      return simulatedUserRespond(messages);
    case "attacker":
      return sageAttackerRespond(messages);
    case "sage-agent":
      return sageAgentRespond(system?.content ?? "", messages.filter((m) => m !== system));
    case "judge":
      return sageJudgeRespond(messages, marker, params?.model ?? "");
    case "generator":
      return generatorRespond(messages, marker);
    default: {
      const last = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
      return `This is the ${HEURISTIC}: it answers ToolEmu Studio's agent, emulator and evaluator prompts by fixed rules. Received ${messages.length} message(s); the last one has ${last.length} characters. OK.`;
    }
  }
}
