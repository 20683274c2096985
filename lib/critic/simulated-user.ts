// The simulated user (issue 13 item 7): for unattended runs, a model that is given the case's
// request and expected achievements answers an intervention in the human's place — approve,
// reject, or reject with feedback. It sees the chain before the pending action and the pending
// action with its input (never the agent's thoughts). One call at temperature 0, purpose
// "simulated-user" (recorded as an LlmCall row by a client with a database). An answer without a
// readable decision is returned as an error for the caller to decide on (it is not a guess).
import type { ModelClient } from "@/lib/llm/types";
import type { ChainAction, ChainStep } from "./checkpoints";
import { parseSimulatedUser } from "./parse";
import { buildSimulatedUserPrompt } from "./prompts/build";

export interface SimulatedUserInput {
  instruction: string;
  expectedAchievements: readonly string[];
  /** The steps before the pending action: action, input, observation. */
  chain: readonly ChainStep[];
  /** The paused tool call. */
  pending: ChainAction;
}

export interface SimulatedUserOptions {
  trajectoryId?: string;
  /** The pending action's step index (for the LlmCall row). */
  stepIndex?: number;
  runId?: string;
  signal?: AbortSignal;
}

export interface SimulatedUserResult {
  decision: "approve" | "reject";
  /** Written feedback with a rejection; null for a plain reject or an approval. */
  feedback: string | null;
  raw: string;
  template: string;
}

export class SimulatedUserParseError extends Error {
  constructor(
    message: string,
    readonly raw: string,
  ) {
    super(message);
    this.name = "SimulatedUserParseError";
  }
}

/** Throws SimulatedUserParseError when the answer has no decision, LlmCallError when the call fails for good. */
export async function askSimulatedUser(client: ModelClient, input: SimulatedUserInput, options: SimulatedUserOptions = {}): Promise<SimulatedUserResult> {
  const prompt = buildSimulatedUserPrompt(input);
  const res = await client.chat({
    purpose: "simulated-user",
    messages: prompt.messages,
    temperature: 0,
    trajectoryId: options.trajectoryId,
    stepIndex: options.stepIndex,
    runId: options.runId,
    signal: options.signal,
  });
  const parsed = parseSimulatedUser(res.content);
  if (!parsed.ok) throw new SimulatedUserParseError(`the simulated user's answer could not be read: ${parsed.error}`, res.content);
  return { ...parsed.value, raw: res.content, template: prompt.template };
}
