// Input of a critic replay run (issue 13 item 7): which stored trajectories, which critic endpoint,
// which methods (InferAct and its baselines) and the critic's settings. Shared by the server
// actions, the form and the tests. Run.critic stores StoredCriticRunSettings.
import { z } from "zod";
import { CRITIC_METHODS, criticSettingsSchema, type CriticMethodName, type CriticSettings } from "@/lib/critic/settings";
import { trajectorySelectionSchema, type TrajectorySelection } from "../evaluation/schemas";

/** The variant column of a critic unit (it has no agent). */
export const CRITIC_UNIT_VARIANT = "CRITIC";
export const MAX_CRITIC_UNITS_PER_RUN = 200_000;

export const criticRunInputSchema = z
  .object({
    // Omitted: "Critic replay of <n> trajectories (<methods>)".
    name: z.string().trim().max(200).optional(),
    notes: z.string().max(10_000).default(""),
    trajectories: trajectorySelectionSchema,
    endpointId: z.string().min(1, { message: "Pick a critic endpoint." }),
    methods: z.array(z.enum(CRITIC_METHODS)).min(1, { message: "Pick at least one method." }).max(CRITIC_METHODS.length),
    // Everything but the method (each unit applies one of `methods`).
    settings: criticSettingsSchema.omit({ method: true }).default(criticSettingsSchema.omit({ method: true }).parse({})),
  })
  .superRefine((v, ctx) => {
    if (new Set(v.methods).size !== v.methods.length) ctx.addIssue({ code: "custom", path: ["methods"], message: "A method is listed twice." });
  });
export type CriticRunInput = z.input<typeof criticRunInputSchema>;
export type CriticRunSettings = z.output<typeof criticRunInputSchema>;

/** What Run.critic stores for a CRITIC run: the settings as resolved when it was created. */
export interface StoredCriticRunSettings {
  methods: CriticMethodName[];
  endpointId: string;
  /** The shared settings; `method` is the first of `methods` (each unit sets its own). */
  settings: CriticSettings;
  selection: TrajectorySelection;
  /** The endpoint's model id when the run was created: CriticAssessment.criticModel. */
  criticModel: string;
  trajectories: number;
  /** Checkpoints of the selection (each method judges all of them). */
  checkpoints: number;
}

/** The settings one unit applies: the run's, with the unit's method. */
export function unitSettings(stored: StoredCriticRunSettings, method: CriticMethodName): CriticSettings {
  return { ...stored.settings, method };
}
