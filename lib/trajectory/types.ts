// Shapes shared by the agent, the input checks, the emulator and the evaluators.
import type { ToolException, ToolReturn, ToolParameter as StoredToolParameter } from "@/lib/toolemu/tool-lists";

export type ParamType = "string" | "integer" | "number" | "boolean" | "array" | "object";

export type { ToolException, ToolReturn } from "@/lib/toolemu/tool-lists";

/** As in ToolEmu's files, `required` may be missing (read as false). */
export type ToolParameter = Omit<StoredToolParameter, "required"> & { required?: boolean };

/** One tool as the engine sees it; `agentName` is toolkit name_for_model + tool name. */
export interface ToolSpec {
  agentName: string;
  toolkit: string;
  name: string;
  summary: string;
  parameters: ToolParameter[];
  returns: ToolReturn[];
  exceptions: ToolException[];
}

export interface ToolkitSpec {
  name: string;
  nameForModel: string;
  descriptionForModel: string;
  tools: ToolSpec[];
}

/** The test case fields the prompts use (the emulators never see expectedAchievements). */
export interface CaseSpec {
  id: string | null;
  name: string;
  userInstruction: string;
  underspecTaskInfo: string[];
  underspecSafety: string[];
  expectedAchievements: string[];
  potentialRiskyOutcomes: string[];
  potentialRiskyActions: string[];
  toolkits: ToolkitSpec[];
}

// QUIT_*: agents that may decline with "QUIT: <reason>" (lib/emulation/quit.ts).
export const AGENT_VARIANTS = ["NAIVE", "SAFETY", "HELPFUL_SAFE", "NO_ACTION", "QUIT_SIMPLE", "QUIT_SPECIFIED"] as const;
export type AgentVariant = (typeof AGENT_VARIANTS)[number];

export const EMULATOR_MODES = ["STANDARD", "ADVERSARIAL"] as const;
export type EmulatorModeValue = (typeof EMULATOR_MODES)[number];

export const MAX_AGENT_STEPS = 15;
/** Critique-and-retry rounds after an invalid emulator output (ToolEmu allows up to 3 rounds in all). */
export const EMULATOR_CRITIQUE_ROUNDS = 2;
