// From a checkpoint to the critic's chat messages. Pure. The only view of the trajectory any
// critic prompt gets is the Checkpoint (lib/critic/checkpoints.ts): earlier actions with inputs
// and observations, then the pending action or final answer. There is no field for thoughts,
// emulator notes or the pending action's observation, so they cannot reach a critic.
import type { ChatMessage } from "@/lib/llm/types";
import { bulletList } from "@/lib/prompts/render";
import { renderTemplate, type PromptTemplate } from "@/lib/prompts/template";
import { renderChain, type ChainAction, type ChainStep, type Checkpoint } from "../checkpoints";
import { renderOptions, verificationOptions, type Order } from "../verification";
import { CRITIC_TEMPLATES, SIMULATED_USER_GATE } from "./templates";

export interface BuiltPrompt {
  messages: ChatMessage[];
  /** "critic.standard@1" */
  template: string;
}

function build(t: PromptTemplate, vars: Record<string, string>, seed?: number | null): BuiltPrompt {
  const r = renderTemplate(t, vars, seed);
  return { messages: [{ role: "system", content: r.system }, { role: "user", content: r.user }], template: r.template };
}

const NO_EXAMPLES = "- (no examples available)";

/** Task inference: the chain and style examples only — the real request is not in this prompt. */
export function buildInferencePrompt(checkpoint: Checkpoint, styleExamples: readonly string[], n: number): BuiltPrompt {
  const examples = styleExamples.length ? bulletList(styleExamples) : NO_EXAMPLES;
  return build(CRITIC_TEMPLATES.inference, { n: String(n), style_examples: examples, chain: renderChain(checkpoint) });
}

/** Task verification in one order: options A–E per lib/critic/verification.ts. */
export function buildVerificationPrompt(checkpoint: Checkpoint, inferred: readonly string[], instruction: string, order: Order): BuiltPrompt {
  const options = verificationOptions(inferred.map(oneLineText), oneLineText(instruction), order);
  return build(CRITIC_TEMPLATES.verification, { chain: renderChain(checkpoint), options: renderOptions(options) });
}

/** Standard evaluation; `sample` (self-consistency) goes into the marker as its seed, so samples differ. */
export function buildStandardPrompt(checkpoint: Checkpoint, instruction: string, sample?: number): BuiltPrompt {
  return build(CRITIC_TEMPLATES.standard, { instruction: instruction.trim(), chain: renderChain(checkpoint) }, sample ?? null);
}

/** The number of steps a multi-step critic rates at this checkpoint: the earlier ones and the pending one. */
export function stepCount(checkpoint: Checkpoint): number {
  return checkpoint.earlier.length + 1;
}

/** The chain numbered by step ("Step k" over each step's lines, as renderChain writes them). */
export function renderNumberedChain(checkpoint: Checkpoint): string {
  const blocks = checkpoint.earlier.map((s, k) => `Step ${k + 1}\n${renderEarlier([s])}`);
  blocks.push(`Step ${checkpoint.earlier.length + 1}\n${renderChain({ index: checkpoint.index, earlier: [], pending: checkpoint.pending })}`);
  return blocks.join("\n\n");
}

export function buildMultiStepPrompt(checkpoint: Checkpoint, instruction: string): BuiltPrompt {
  return build(CRITIC_TEMPLATES.multiStep, { instruction: instruction.trim(), steps: renderNumberedChain(checkpoint) });
}

export const NO_EARLIER_ACTIONS = "(no actions yet)";

/** The simulated user's prompt: the earlier chain and the pending tool call, shown apart. */
export function buildSimulatedUserPrompt(input: { instruction: string; expectedAchievements: readonly string[]; chain: readonly ChainStep[]; pending: ChainAction }): BuiltPrompt {
  const earlier = input.chain.length ? renderEarlier(input.chain) : NO_EARLIER_ACTIONS;
  const pending = renderChain({ index: input.chain.length, earlier: [], pending: { kind: "tool", action: input.pending.action, input: input.pending.input } });
  return build(SIMULATED_USER_GATE, {
    instruction: input.instruction.trim(),
    expected_achievements: bulletList(input.expectedAchievements),
    chain: earlier,
    pending,
  });
}

/** Earlier steps in renderChain's own line format (Action / Action Input / Observation). */
function renderEarlier(steps: readonly ChainStep[]): string {
  return steps.map((s) => `Action: ${s.action}\nAction Input: ${s.input}\nObservation: ${s.observation}`).join("\n");
}

/** An option is one line of the list: its line breaks folded. */
function oneLineText(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
