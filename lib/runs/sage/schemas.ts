// Input of a SAGE run (issue 14 items 2–4): which scenarios, which agents, both authority contexts
// (a paired run factor), the conversation order, the turn limit, the attacker and the judges.
// Shared by the server actions, the form, the CLI and the tests. Run.sage stores StoredSageRunSettings.
import { z } from "zod";

/** The variant column of a SAGE episode (the agent's prompt is SAGE's, not a ToolEmu variant). */
export const SAGE_UNIT_VARIANT = "SAGE";
export const MAX_SAGE_EPISODES_PER_RUN = 50_000;
export const MAX_SAGE_JUDGES = 5;

/**
 * The published runner plays `--max-turns` turns (4 in every command of its README) whatever the
 * scenario's own attacker.max_turns says; 28 of the 112 seed scenarios say 5.
 */
export const PUBLISHED_MAX_TURNS = 4;
export const SAGE_TURN_POLICIES = ["published", "scenario"] as const;
export type SageTurnPolicy = (typeof SAGE_TURN_POLICIES)[number];

export const SAGE_CONTEXT_VALUES = ["TRUST", "WARNING"] as const;
export const SAGE_ORDER_VALUES = ["CHRONOLOGICAL", "REFERENCE"] as const;
export const SAGE_JUDGE_MODE_VALUES = ["TERNARY", "BINARY"] as const;

const keys = z.array(z.string().trim().min(1).max(200)).min(1, { message: "Pick at least one." }).max(100);

export const sageScenarioSelectionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("dimensions"), keys }),
  z.object({ kind: z.literal("subcategories"), keys }),
  // A seeded sample of n scenarios from each subcategory (all subcategories, or those of the given dimensions).
  z.object({
    kind: z.literal("sample"),
    perSubcategory: z.coerce.number().int().min(1, { message: "At least 1 per subcategory." }).max(1000),
    seed: z.coerce.number().int().min(0).max(2 ** 31 - 1),
    dimensions: z.array(z.string().trim().min(1).max(200)).max(10).default([]),
  }),
  // Exact scenarios by instance_id (re-runs, the CLI, tests).
  z.object({ kind: z.literal("ids"), ids: z.array(z.string().trim().min(1).max(300)).min(1, { message: "Name at least one scenario." }).max(MAX_SAGE_EPISODES_PER_RUN) }),
]);
export type SageScenarioSelection = z.output<typeof sageScenarioSelectionSchema>;

export const sageRunInputSchema = z
  .object({
    // Omitted: "SAGE: <n> scenarios × <contexts> (<agents>)".
    name: z.string().trim().max(200).optional(),
    notes: z.string().max(10_000).default(""),
    scenarios: sageScenarioSelectionSchema,
    agents: z.array(z.string().min(1)).min(1, { message: "Pick at least one agent endpoint." }).max(20),
    contexts: z.array(z.enum(SAGE_CONTEXT_VALUES)).min(1, { message: "Pick at least one authority context." }).max(2).default(["TRUST", "WARNING"]),
    order: z.enum(SAGE_ORDER_VALUES).default("CHRONOLOGICAL"),
    turns: z.enum(SAGE_TURN_POLICIES).default("published"),
    attackerEndpointId: z.string().min(1, { message: "Pick an attacker endpoint." }),
    judgeEndpointIds: z.array(z.string().min(1)).max(MAX_SAGE_JUDGES, { message: `At most ${MAX_SAGE_JUDGES} judges.` }).default([]),
    judgeMode: z.enum(SAGE_JUDGE_MODE_VALUES).default("TERNARY"),
    repeats: z.coerce.number().int().min(1).max(20).default(1),
    seed: z.coerce.number().int().min(0).max(2 ** 31 - 1).nullish(),
  })
  .superRefine((v, ctx) => {
    if (new Set(v.agents).size !== v.agents.length) ctx.addIssue({ code: "custom", path: ["agents"], message: "An agent is listed twice." });
    if (new Set(v.contexts).size !== v.contexts.length) ctx.addIssue({ code: "custom", path: ["contexts"], message: "A context is listed twice." });
    if (new Set(v.judgeEndpointIds).size !== v.judgeEndpointIds.length) ctx.addIssue({ code: "custom", path: ["judgeEndpointIds"], message: "A judge is listed twice." });
  });
export type SageRunInput = z.input<typeof sageRunInputSchema>;
export type SageRunSettings = z.output<typeof sageRunInputSchema>;

/** What Run.sage stores for a SAGE run: the settings as resolved when it was created. */
export interface StoredSageRunSettings {
  selection: SageScenarioSelection;
  /** How the selection reads, e.g. "2 dimensions: …". */
  description: string;
  scenarios: number;
  contexts: ("TRUST" | "WARNING")[];
  order: "CHRONOLOGICAL" | "REFERENCE";
  turns: SageTurnPolicy;
  /** The cap the episodes use: PUBLISHED_MAX_TURNS, or null for each scenario's own limit. */
  maxTurns: number | null;
  attackerEndpointId: string;
  judgeEndpointIds: string[];
  /** The judges' model ids when the run was created (SageJudgment.judgeModel). */
  judgeModels: string[];
  judgeMode: "TERNARY" | "BINARY";
}

/** The turn cap of a policy (null: the scenario's own limit). */
export const maxTurnsOf = (p: SageTurnPolicy): number | null => (p === "published" ? PUBLISHED_MAX_TURNS : null);

export const CONTEXT_LABELS = { TRUST: "Trust", WARNING: "Warning" } as const;
