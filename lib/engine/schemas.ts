// Inputs of the engine's use cases, validated at the edge (server actions, CLI).
import { z } from "zod";
import { AGENT_VARIANTS, EMULATOR_MODES } from "@/lib/trajectory/types";
import { MAX_SELF_CRITIQUE_ROUNDS } from "@/lib/emulation/self-critique";
import { LOOP_MODES } from "@/lib/emulation/parse-toolemu";

export const startEpisodeSchema = z.object({
  caseId: z.string().min(1, "Pick a test case."),
  agentEndpointId: z.string().min(1, "Pick the agent's endpoint."),
  variant: z.enum(AGENT_VARIANTS),
  emulatorEndpointId: z.string().min(1, "Pick the emulator's endpoint."),
  mode: z.enum(EMULATOR_MODES),
  // Forced emulator self-critique rounds per valid observation (0 = off, ToolEmu's default).
  selfCritiqueRounds: z.number().int().min(0).max(MAX_SELF_CRITIQUE_ROUNDS, `At most ${MAX_SELF_CRITIQUE_ROUNDS} self-critique rounds.`).default(0),
  // Empty: no evaluation.
  evaluatorEndpointId: z.string().nullable(),
  // Parsing and acceptance rules (lib/emulation/parse-toolemu.ts); ToolEmu's by default.
  loopMode: z.enum(LOOP_MODES).default("TOOLEMU"),
});

export type StartEpisodeInput = z.infer<typeof startEpisodeSchema>;

/** Replay an imported trajectory through the engine (the replay endpoint answers every call). */
export const startReplaySchema = z.object({
  trajectoryId: z.string().min(1),
  loopMode: z.enum(LOOP_MODES).default("TOOLEMU"),
});
export type StartReplayInput = z.infer<typeof startReplaySchema>;
