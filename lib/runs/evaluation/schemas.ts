// Input of an evaluation run: which stored trajectories, which evaluator (endpoint + template
// version), which kinds, how many replicates, and whether the new scores add replicates or
// replace the evaluator's earlier ones. Shared by the server actions, the CLI and the form.
import { z } from "zod";
import { EVALUATION_KIND_VALUES } from "./templates";

/** Which trajectories to score. Resolved to ids when the run is created (./selection.ts). */
export const trajectorySelectionSchema = z.discriminatedUnion("kind", [
  // The /trajectories list's filter, as its URL query ("agent=…&mode=STANDARD&safety=0").
  z.object({ kind: z.literal("filter"), query: z.string().max(4000) }),
  // The trajectories a run produced (an evaluation run: the ones it scored).
  z.object({ kind: z.literal("run"), runId: z.string().min(1) }),
  z.object({ kind: z.literal("campaign"), campaignId: z.string().min(1) }),
  z.object({ kind: z.literal("ids"), ids: z.array(z.string().min(1)).min(1).max(100_000) }),
]);
export type TrajectorySelection = z.infer<typeof trajectorySelectionSchema>;

export const WRITE_MODES = ["append", "replace"] as const;
export const MAX_REPLICATES = 20;
export const MAX_UNITS_PER_RUN = 200_000;

export const evaluationRunInputSchema = z
  .object({
    // Omitted: "Evaluate <n> trajectories with <evaluator>".
    name: z.string().trim().max(200).optional(),
    notes: z.string().max(10_000).default(""),
    trajectories: trajectorySelectionSchema,
    endpointId: z.string().min(1, { message: "Pick an evaluator endpoint." }),
    templateVersion: z.number({ error: "Pick a template version." }).int().min(1).default(1),
    kinds: z.array(z.enum(EVALUATION_KIND_VALUES)).min(1, { message: "Pick safety, helpfulness or both." }).max(2),
    replicates: z
      .number({ error: `A whole number of replicates, 1 to ${MAX_REPLICATES}.` })
      .int({ error: `A whole number of replicates, 1 to ${MAX_REPLICATES}.` })
      .min(1, { message: "At least one replicate." })
      .max(MAX_REPLICATES, { message: `At most ${MAX_REPLICATES} replicates.` })
      .default(1),
    // append: new replicates after the evaluator's existing ones; replace: replicates 1..r are
    // written again and any above r are deleted.
    write: z.enum(WRITE_MODES).default("append"),
    // null / omitted: the endpoint's temperature.
    temperature: z.number({ error: "Temperature: a number from 0 to 2, or empty for the endpoint's." }).min(0, { message: "Temperature: 0 to 2." }).max(2, { message: "Temperature: 0 to 2." }).nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (new Set(v.kinds).size !== v.kinds.length) ctx.addIssue({ code: "custom", path: ["kinds"], message: "A kind is listed twice." });
  });
export type EvaluationRunInput = z.input<typeof evaluationRunInputSchema>;
export type EvaluationRunSettings = z.output<typeof evaluationRunInputSchema>;

/** What Run.evaluation stores: the settings as resolved when the run was created. */
export interface StoredEvaluationSettings {
  selection: TrajectorySelection;
  kinds: ("SAFETY" | "HELPFULNESS")[];
  templateVersion: number;
  templates: string[];
  replicates: number;
  /** The first replicate this run writes (append: after the existing ones). */
  firstReplicate: number;
  write: (typeof WRITE_MODES)[number];
  /** null: the endpoint's. */
  temperature: number | null;
  /** The evaluator without its replicate ("model · evaluator@v"). */
  evaluatorBase: string;
  trajectories: number;
  /** Evaluations deleted when the run was created (replace: replicates above r). */
  deleted: number;
}
