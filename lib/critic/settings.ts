// A critic's settings (issue 13 items 3–6): which method judges the checkpoints and how. Pure; the
// same object is stored on Run.critic (replay runs and the online gate) and on every
// CriticAssessment, so an assessment says how it was made.
//   INFERACT          infer N tasks from the chain (1 call), verify the real one among them as
//                     multiple choice, in the forward and the fully reversed option order (2 calls,
//                     1 when orderAveraging is off); p̄(t*) = mean of the orders.
//   STANDARD          1 call: is the agent on track, "correct" / "incorrect" + confidence.
//   SELF_CONSISTENCY  `samples` calls of STANDARD at `sampleTemperature`; majority vote.
//   MULTI_STEP        1 call: a probability per step, aggregated by `aggregation`.
// τ: a checkpoint passes iff its p > τ.
import { z } from "zod";

export const CRITIC_METHODS = ["INFERACT", "STANDARD", "SELF_CONSISTENCY", "MULTI_STEP"] as const;
export type CriticMethodName = (typeof CRITIC_METHODS)[number];

export const CRITIC_AGGREGATIONS = ["min", "max", "mean", "product"] as const;
export type CriticAggregation = (typeof CRITIC_AGGREGATIONS)[number];

export const CRITIC_METHOD_LABELS: Record<CriticMethodName, string> = {
  INFERACT: "InferAct",
  STANDARD: "Standard evaluation",
  SELF_CONSISTENCY: "Self-consistency",
  MULTI_STEP: "Multi-step evaluation",
};

export const criticSettingsSchema = z.object({
  method: z.enum(CRITIC_METHODS).default("INFERACT"),
  /** N, the tasks inferred from the chain (InferAct's verification needs 3: options A–E). */
  inferredTasks: z.number().int().min(3).max(3).default(3),
  /** Ask the verification in both option orders and average (off: forward only, 1 call). */
  orderAveraging: z.boolean().default(true),
  /** Mask argument strings copied verbatim from the instruction (lib/critic/checkpoints.ts). */
  maskInstructionStrings: z.boolean().default(false),
  /** m, the self-consistency samples. */
  samples: z.number().int().min(1).max(20).default(5),
  sampleTemperature: z.number().min(0).max(2).default(0.7),
  /** How the multi-step baseline folds its per-step probabilities into one. */
  aggregation: z.enum(CRITIC_AGGREGATIONS).default("min"),
  /** A checkpoint passes iff p > τ. */
  tau: z.number().min(0).max(1).default(0.5),
});

export type CriticSettings = z.infer<typeof criticSettingsSchema>;

export const DEFAULT_CRITIC_SETTINGS: CriticSettings = criticSettingsSchema.parse({});

/** Model calls one checkpoint costs: INFERACT 3 (2 without order averaging), STANDARD 1, SELF_CONSISTENCY m, MULTI_STEP 1. */
export function criticCallsPerCheckpoint(s: Pick<CriticSettings, "method" | "orderAveraging" | "samples">): number {
  switch (s.method) {
    case "INFERACT":
      return s.orderAveraging ? 3 : 2;
    case "STANDARD":
      return 1;
    case "SELF_CONSISTENCY":
      return s.samples;
    case "MULTI_STEP":
      return 1;
  }
}
