// InferAct checkpoints (issue 13 item 2): where the critic looks, and what it may see there. Pure.
//
// A checkpoint is each step whose tool is critical, plus the final answer. At checkpoint i the
// critic sees S_i = (a1, o1, …, a_{i−1}, o_{i−1}, a_i): the earlier actions with their inputs and
// observations, then the pending action and its input. It never sees the agent's thoughts, the
// emulator's thoughts or log summaries, nor the pending action's observation (it has not run).
// Steps are read through RecordedStep's three fields only, so whatever else a caller's step
// object carries (agent log, simulator log) cannot leak into the chain.
import type { RecordedStep } from "@/lib/trajectory/replay";

export type CriticStep = Pick<RecordedStep, "action" | "actionInputRaw" | "observation">;

export interface CriticTrajectory {
  steps: readonly CriticStep[];
  /** Null when the episode ended without a final answer (then there is no final checkpoint). */
  finalAnswer: string | null;
}

export interface ChainAction {
  action: string;
  input: string;
}

export interface ChainStep extends ChainAction {
  observation: string;
}

export type PendingAction = ({ kind: "tool" } & ChainAction) | { kind: "final"; finalAnswer: string };

export interface Checkpoint {
  /** The step index of the pending action; steps.length for the final answer. */
  index: number;
  earlier: ChainStep[];
  pending: PendingAction;
}

export interface CheckpointOptions {
  /** Mask argument strings copied verbatim from this instruction (InferAct's leakage guard). */
  maskFromInstruction?: string;
}

export const MASK = "[masked]";
/** Shorter strings ("yes", "5") are too common to say they were copied from the instruction. */
export const MASK_MIN_LENGTH = 4;

const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

function maskValue(value: unknown, instruction: string): unknown {
  if (typeof value === "string") {
    const v = normalise(value);
    return v.length >= MASK_MIN_LENGTH && instruction.includes(v) ? MASK : value;
  }
  if (Array.isArray(value)) return value.map((v) => maskValue(v, instruction));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(v, instruction)]));
  }
  return value;
}

/**
 * The action input with every string argument (at any depth) that occurs verbatim in the
 * instruction — case and whitespace aside, at least MASK_MIN_LENGTH characters — replaced by
 * MASK. An input that is not a JSON object is returned unchanged (there are no arguments to mask).
 */
export function maskActionInput(inputRaw: string, instruction: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(inputRaw);
  } catch {
    return inputRaw;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return inputRaw;
  const masked = maskValue(parsed, normalise(instruction));
  return JSON.stringify(masked) === JSON.stringify(parsed) ? inputRaw : JSON.stringify(masked);
}

/** The checkpoints of a trajectory, given the agent-facing names of its critical tools. */
export function checkpoints(trajectory: CriticTrajectory, criticalTools: ReadonlySet<string>, options: CheckpointOptions = {}): Checkpoint[] {
  const instruction = options.maskFromInstruction;
  const input = (raw: string) => (instruction ? maskActionInput(raw, instruction) : raw);
  const earlier: ChainStep[] = [];
  const out: Checkpoint[] = [];
  trajectory.steps.forEach((step, index) => {
    if (criticalTools.has(step.action)) {
      out.push({ index, earlier: [...earlier], pending: { kind: "tool", action: step.action, input: input(step.actionInputRaw) } });
    }
    earlier.push({ action: step.action, input: input(step.actionInputRaw), observation: step.observation });
  });
  if (trajectory.finalAnswer !== null) {
    out.push({ index: trajectory.steps.length, earlier: [...earlier], pending: { kind: "final", finalAnswer: trajectory.finalAnswer } });
  }
  return out;
}

/** The chain S_i as the critic's prompt shows it (ReAct field names, no thoughts). */
export function renderChain(checkpoint: Checkpoint): string {
  const lines: string[] = [];
  for (const s of checkpoint.earlier) lines.push(`Action: ${s.action}`, `Action Input: ${s.input}`, `Observation: ${s.observation}`);
  const p = checkpoint.pending;
  if (p.kind === "tool") lines.push(`Action: ${p.action}`, `Action Input: ${p.input}`);
  else lines.push(`Final Answer: ${p.finalAnswer}`);
  return lines.join("\n");
}
