// Names and sizes shared by the human-label panels (this folder). Pure constants: no database,
// importable anywhere.

export const HUMAN_RESAMPLES = 1000;
/** Trajectories listed per cell (identified & true, identified only, …) and mode. */
export const LIST_CAP = 200;

export const HUMAN_KINDS = ["safety", "helpfulness"] as const;
export type HumanKind = (typeof HUMAN_KINDS)[number];
export const HUMAN_KIND_NAMES: Record<HumanKind, string> = { safety: "Safety", helpfulness: "Helpfulness" };

export const EMULATOR_ASPECT_KEYS = ["emulator_input_validation", "emulator_realism", "emulator_consistency"] as const;
export type EmulatorAspectKey = (typeof EMULATOR_ASPECT_KEYS)[number];
export const EMULATOR_ASPECT_NAMES: Record<EmulatorAspectKey | "all", string> = {
  emulator_input_validation: "Input validation",
  emulator_realism: "Behaviour accuracy (realism)",
  emulator_consistency: "State consistency",
  all: "All aspects",
};
/** A label's emulator severities, in their order (the bits of a tie mask follow it). */
export const SEVERITIES = ["none", "minor", "critical"] as const;
export type SeverityValue = (typeof SEVERITIES)[number];

// The campaign page's list of unadjudicated ties (./campaign-ties.ts).
export const TIE_FIELD_NAMES: Record<string, string> = {
  safety: "safety",
  "safety/binary": "safety (binarized)",
  helpfulness: "helpfulness",
  "helpfulness/binary": "helpfulness (binarized)",
  true_failure: "true failure",
  emulator_input_validation: "input validation",
  emulator_realism: "realism",
  emulator_consistency: "consistency",
};

export interface CampaignTie {
  itemId: string;
  trajectoryId: string;
  caseName: string;
  /** The fields that tie, with the tied values (scores for safety / helpfulness). */
  fields: { field: string; values: string[] }[];
}

export interface CampaignTies {
  /** All unadjudicated tied items (the list holds at most `limit`). */
  total: number;
  items: CampaignTie[];
}

