// Input schemas for runs, shared by the server actions, the CLI and the forms.
import { z } from "zod";
import { AGENT_VARIANTS, EMULATOR_MODES } from "@/lib/trajectory/types";
import { MAX_SELF_CRITIQUE_ROUNDS } from "@/lib/emulation/self-critique";
import { LOOP_MODES } from "@/lib/emulation/parse-toolemu";
import { criticSettingsSchema } from "@/lib/critic/settings";

const names = z.array(z.string().trim().min(1).max(200)).max(500);

/** Which cases a run plays. Resolved to case ids when the run is created (lib/runs/cases.ts). */
export const caseSelectionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("toolkits"), toolkits: names.min(1, { message: "Pick at least one toolkit." }) }),
  // The Cases page's filter: text in the name, instruction or risks, and/or one toolkit.
  z.object({
    kind: z.literal("filter"),
    q: z.string().trim().max(200).optional(),
    toolkit: z.string().trim().max(200).optional(),
  }),
  // A seeded random sample of `size` cases (of all cases, or of the given toolkits').
  z.object({
    kind: z.literal("sample"),
    size: z.number().int().min(1).max(100_000),
    seed: z.number().int().min(0).max(2 ** 32 - 1),
    toolkits: names.optional(),
  }),
  // Explicit case ids (the CLI, "re-run as new").
  z.object({ kind: z.literal("ids"), ids: z.array(z.string().min(1)).min(1).max(100_000) }),
]);
export type CaseSelection = z.infer<typeof caseSelectionSchema>;

export const runAgentSchema = z.object({
  endpointId: z.string().min(1, { message: "Pick an agent endpoint." }),
  variant: z.enum(AGENT_VARIANTS),
});
export type RunAgent = z.infer<typeof runAgentSchema>;

export const MAX_EPISODES_PER_RUN = 100_000;

export const GATE_ANSWERERS = ["human", "simulated"] as const;
export type GateAnswerer = (typeof GATE_ANSWERERS)[number];
/** Feedback trials (retries after a rejection with feedback) a gated episode may get at most. */
export const MAX_FEEDBACK_TRIALS = 3;

/**
 * The online critic gate of an episode run (issue 13 item 7): before a critical tool call runs,
 * the critic judges the chain so far; a call with p̄ ≤ τ (or an ERROR) waits for an answer — a
 * person in the interventions queue ("human") or the simulated user at once ("simulated").
 * maxTrials: how many feedback trials an episode may get after its first attempt (trial 1): an
 * attempt that a rejection with written feedback kept from succeeding is played again as trial
 * n + 1 with every earlier feedback in the agent's prompt, while n ≤ maxTrials. So N, the feedback
 * rounds an attempt had, runs 0..maxTrials (0..3).
 */
export const criticGateSchema = z
  .object({
    endpointId: z.string().min(1, { message: "Pick the critic's endpoint." }),
    settings: criticSettingsSchema.default(criticSettingsSchema.parse({})),
    answerer: z.enum(GATE_ANSWERERS, { message: 'Choose "human" or "simulated".' }).default("human"),
    simulatedUserEndpointId: z.string().min(1).nullable().optional(),
    maxTrials: z
      .number()
      .int({ message: "A whole number." })
      .min(1, { message: "At least 1." })
      .max(MAX_FEEDBACK_TRIALS, { message: `At most ${MAX_FEEDBACK_TRIALS}.` })
      .default(1),
  })
  .superRefine((v, ctx) => {
    if (v.answerer === "simulated" && !v.simulatedUserEndpointId) {
      ctx.addIssue({ code: "custom", path: ["simulatedUserEndpointId"], message: "The simulated user needs an endpoint." });
    }
  });
export type CriticGateInput = z.input<typeof criticGateSchema>;
export type CriticGate = z.output<typeof criticGateSchema>;

/** Run.critic of an episode run: the gate, or null for none. */
export const runCriticSchema = z.object({ gate: criticGateSchema }).nullable();
export type RunCritic = z.output<typeof runCriticSchema>;

/** Run.critic as stored, read back: the gate, or null (a CRITIC run's replay settings, or anything unreadable, are no gate). */
export function storedGate(critic: unknown): CriticGate | null {
  if (!critic || typeof critic !== "object" || !("gate" in critic)) return null;
  const r = criticGateSchema.safeParse((critic as { gate: unknown }).gate);
  return r.success ? r.data : null;
}

export const runInputSchema = z
  .object({
    name: z.string().trim().min(1, { message: "Give the run a name." }).max(200),
    notes: z.string().max(10_000).default(""),
    cases: caseSelectionSchema,
    agents: z.array(runAgentSchema).min(1, { message: "Add at least one agent." }).max(50),
    emulatorEndpointId: z.string().min(1, { message: "Pick an emulator endpoint." }),
    modes: z.array(z.enum(EMULATOR_MODES)).min(1, { message: "Pick at least one emulator mode." }),
    // null / omitted: episodes are not evaluated.
    evaluatorEndpointId: z.string().min(1).nullable().optional(),
    repeats: z.number().int().min(1).max(100).default(1),
    // Forced emulator self-critique rounds per valid observation (0 = off, ToolEmu's default).
    emulatorCritiqueRounds: z
      .number()
      .int({ message: "A whole number." })
      .min(0, { message: "At least 0." })
      .max(MAX_SELF_CRITIQUE_ROUNDS, { message: `At most ${MAX_SELF_CRITIQUE_ROUNDS}.` })
      .default(0),
    // Parsing and acceptance rules of the episodes (lib/emulation/parse-toolemu.ts); ToolEmu's by default.
    loopMode: z.enum(LOOP_MODES, { message: "Choose TOOLEMU or STRICT." }).default("TOOLEMU"),
    seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
    // The online critic gate (off: null / omitted).
    critic: runCriticSchema.optional(),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.agents.forEach((a, i) => {
      const k = `${a.endpointId}:${a.variant}`;
      if (seen.has(k)) ctx.addIssue({ code: "custom", path: ["agents", i], message: "This agent and variant is listed twice." });
      seen.add(k);
    });
    if (new Set(v.modes).size !== v.modes.length) ctx.addIssue({ code: "custom", path: ["modes"], message: "A mode is listed twice." });
  });
export type RunInput = z.input<typeof runInputSchema>;
export type RunSettings = z.output<typeof runInputSchema>;

