// The agent's turn: one call with the conversation so far, its output parsed (ReAct).
import { parseAgentOutput, type AgentParse } from "@/lib/emulation/parse-agent";
import { toolemuFinish, type ToolemuFinish } from "@/lib/emulation/parse-toolemu";
import { addUsage, type Episode, type EpisodeState, type Usage } from "./episode-types";

/**
 * Where the agent's turn is cut: a line that starts "Observation:" (ToolEmu's stop). A bare
 * "Observation:" would also cut an output that merely begins with the word.
 */
export const AGENT_STOP = ["\nObservation:"];

export interface AgentTurn {
  text: string;
  parsed: AgentParse;
  /**
   * ToolEmu-compatible loop: the output ends the episode as ToolEmu reads it (any "Final Answer",
   * an Action before it included; an output cut by the token limit); null = read `parsed`.
   */
  finish: ToolemuFinish | null;
}

/** Calls the agent for step `index`, counting the call in the step's usage and the episode's. */
export async function agentTurn(ep: Episode, s: EpisodeState, index: number, stepUsage: Usage): Promise<AgentTurn> {
  const res = await ep.opts.agent.client.chat({ purpose: "agent", messages: s.messages, stop: AGENT_STOP, trajectoryId: ep.trajectoryId, stepIndex: index, signal: ep.opts.signal });
  addUsage(res, stepUsage, s.total);
  const finish = ep.opts.loopMode === "TOOLEMU" ? toolemuFinish(res.content, res.finishReason === "length") : null;
  return { text: res.content, parsed: parseAgentOutput(res.content), finish };
}
