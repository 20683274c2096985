// The ForesightSafety-SAGE source formats as zod schemas: scenario-family definitions
// (data/families/<dimension>/<subcategory>.json) and task files (seeds.json, and the release's
// generation_selected_60*.json and benchmark.json, same shape). They accept what the real files
// hold (optional crisis/consequence, optional preferred tool names, extra fields kept in `raw`) and
// reject the rest with the path of the offending field.
import { z } from "zod";

const text = z.string({ error: "expected a string" });
const nonEmpty = text.trim().min(1, { error: "must not be empty" });
const textList = z.array(text, { error: "expected a list of strings" });
const idName = z.object({ id: nonEmpty, name: text }, { error: "expected an object with id and name" });
const record = z.record(z.string(), z.unknown(), { error: "expected an object" });

// ---- family definitions ----------------------------------------------------------------------

export const attackerProfileSchema = z.looseObject(
  {
    goal: text,
    allowed_pressure_tactics: z.array(nonEmpty, { error: "expected a list of tactic names" }).min(1, { error: "needs at least one tactic" }),
    forbidden_attacker_behaviors: textList.optional().default([]),
    strategy_templates: z.record(z.string(), textList, { error: "expected an object of tactic → example lines" }).optional().default({}),
  },
  { error: "expected the attacker profile object" },
);

export const familySchema = z.looseObject({
  family_id: nonEmpty,
  family_name: text,
  risk_dimension: idName,
  risk_subtype: idName,
  definition: nonEmpty,
  attacker_profile: attackerProfileSchema,
  judge_template: record,
});
export type FamilySource = z.output<typeof familySchema>;

// ---- scenarios -------------------------------------------------------------------------------

const toolRoleSchema = z.looseObject({
  role: nonEmpty,
  capability: nonEmpty,
  preferred_tool_name: z
    .string({ error: "expected a string" })
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "a tool name is letters, digits and underscores" })
    .optional(),
});

const workflowStepSchema = z.looseObject({ step_id: z.union([text, z.number()]), step_name: text, instruction: text });

export const scenarioSchema = z.looseObject({
  instance_id: nonEmpty,
  scenario_theme: text,
  domain: text,
  target_spec: z.looseObject(
    {
      role_context: nonEmpty,
      task_context: nonEmpty,
      crisis_context: text.optional(),
      operational_consequence: text.optional(),
      authority_context_soft: nonEmpty,
      authority_context_hard: nonEmpty,
    },
    { error: "expected the target_spec object" },
  ),
  environment_state: record,
  target_visible_workflow: z.array(workflowStepSchema, { error: "expected a list of workflow steps" }).optional(),
  judge_spec: z.looseObject(
    { boundary_basis: nonEmpty, expected_risk_points: textList, safe_alternatives: textList },
    { error: "expected the judge_spec object" },
  ),
  tool_manifest: z.object(
    {
      required_tool_roles: z.array(toolRoleSchema, { error: "expected a list of tool roles" }).min(1, { error: "a scenario needs at least one tool" }),
      constraints: record.optional().default({}),
    },
    { error: "expected the tool_manifest object" },
  ),
  attacker: z.looseObject(
    {
      mode: nonEmpty,
      strategy: nonEmpty,
      objective: nonEmpty,
      initial_message: nonEmpty,
      max_turns: z.number({ error: "expected a number" }).int({ error: "expected a whole number" }).min(1, { error: "must be at least 1" }).max(50, { error: "must be at most 50" }),
    },
    { error: "expected the attacker object" },
  ),
});
export type ScenarioSource = z.output<typeof scenarioSchema>;

/** The task file's envelope; instances are validated one by one (so each error has its own pointer). */
export const taskFileSchema = z.looseObject({
  family_id: nonEmpty,
  family_name: text.optional(),
  risk_dimension: idName,
  risk_subtype: idName,
  instances: z.array(z.unknown(), { error: "expected a list of instances" }),
});
export type TaskFileSource = z.output<typeof taskFileSchema>;

/** Which SAGE file a parsed JSON document is, from its shape. */
export function sageFileKind(value: unknown): "family" | "tasks" | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if ("instances" in v) return "tasks";
  if ("family_id" in v && ("attacker_profile" in v || "definition" in v || "judge_template" in v)) return "family";
  return null;
}
