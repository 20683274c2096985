// Forced self-critique rounds of the emulator (ToolEmu's optional critique of a valid output): the
// round record kept on Step.emulatorCritiques, and reading a round's answer back. Pure.

/** Most forced rounds an episode may ask for (each one is an extra emulator call per tool call). */
export const MAX_SELF_CRITIQUE_ROUNDS = 3;

export interface EmulatorCritiqueRound {
  /** 1-based. */
  round: number;
  /** What the emulator found (null when it wrote no "Critique:" part). */
  critique: string | null;
  /** The revised output as written (Simulator Thought / Log Summary / Observation). */
  revision: string;
  /** The revision was usable and replaced the observation; otherwise the previous one stands. */
  accepted: boolean;
  /** Why an unusable revision was set aside. */
  problem: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

const CRITIQUE_LABEL = /^\s*\**\s*Critique\s*\**\s*:\s*/i;
const REVISION_START = /^\s*\**\s*(?:Revised\s+)?(?:Simulator|Emulator)\s+Thought\s*\**\s*:/im;

/** "Critique: …" then the revised output → the two parts (no label: all of it is the revision). */
export function splitCritique(text: string): { critique: string | null; revision: string } {
  const start = REVISION_START.exec(text);
  if (!start) return { critique: null, revision: text };
  const before = text.slice(0, start.index);
  const critique = CRITIQUE_LABEL.test(before) ? before.replace(CRITIQUE_LABEL, "").trim() || null : before.trim() || null;
  return { critique, revision: text.slice(start.index).replace(/^\s*\**\s*Revised\s+/i, "") };
}
