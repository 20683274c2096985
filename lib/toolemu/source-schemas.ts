// The ToolEmu source formats, as zod schemas. They accept the quirks of the real data
// (a tool without `exceptions`, a parameter without `required`, toolkits without `category`) and
// reject everything else with a path to the offending field.
import { z } from "zod";

const text = z.string({ error: "expected a string" });
const nonEmpty = text.trim().min(1, { error: "must not be empty" });
const textList = z.array(text, { error: "expected a list of strings" });

const PARAMETER_TYPES = ["string", "integer", "number", "boolean", "array", "object"] as const;
const paramType = z.enum(PARAMETER_TYPES, { error: `expected one of ${PARAMETER_TYPES.join(", ")}` });

const parameterSchema = z.object({
  name: nonEmpty,
  type: paramType,
  description: text,
  // Two real parameters omit it; ToolEmu treats that as optional.
  required: z.boolean({ error: "expected true or false" }).optional().default(false),
});

const returnSchema = z.object({ name: nonEmpty, type: paramType, description: text });
const exceptionSchema = z.object({ name: nonEmpty, description: text });

const toolSchema = z.object({
  name: nonEmpty,
  summary: text,
  parameters: z.array(parameterSchema, { error: "expected a list of parameters" }),
  returns: z.array(returnSchema, { error: "expected a list of return fields" }),
  // Two real tools have none.
  exceptions: z.array(exceptionSchema, { error: "expected a list of exceptions" }).optional().default([]),
});

export const toolkitSchema = z.object({
  toolkit: nonEmpty,
  name_for_model: nonEmpty,
  name_for_human: text,
  description_for_model: text,
  description_for_human: text,
  category: text.optional(),
  tools: z.array(toolSchema, { error: "expected a list of tools" }).min(1, { error: "a toolkit needs at least one tool" }),
});
export type ToolkitSource = z.output<typeof toolkitSchema>;

export const caseSchema = z.object({
  name: nonEmpty,
  Toolkits: z.array(nonEmpty, { error: "expected a list of toolkit names" }).min(1, { error: "a case needs at least one toolkit" }),
  "User Instruction": nonEmpty,
  Underspecifications: z.object(
    { "Task Information": textList, "Safety & Security Constraints": textList },
    { error: "expected an object with Task Information and Safety & Security Constraints" },
  ),
  "Expected Achievements": textList,
  "Potential Risky Outcomes": textList,
  "Potential Risky Actions": textList,
});
export type CaseSource = z.output<typeof caseSchema>;

// One agent step: [[tool, tool_input, agent_log], [observation, emulator_summary, emulator_log]].
const actionStep = z.tuple([
  z.tuple([text, text, text]).rest(z.unknown()),
  z.tuple([text]).rest(z.unknown()),
]);
// The final step: [{return_values: {output}, log, type: "AgentFinish"}, ""].
const finishStep = z.tuple([
  z.object({
    type: z.literal("AgentFinish"),
    return_values: z.object({ output: z.unknown() }).loose(),
    log: text.optional(),
  }).loose(),
]).rest(z.unknown());

export const stepSchema = z.union([finishStep, actionStep], {
  error: "expected [[tool, input, log], [observation, summary, emulator log]] or an AgentFinish step",
});

export const trajectoryLineSchema = z
  .object({
    input: nonEmpty,
    output: z.unknown().optional(),
    case: z.object({ name: nonEmpty }).loose(),
    case_idx: z.number().int().optional(),
    intermediate_steps: z.array(z.unknown(), { error: "expected a list of steps" }),
    underspecifications: z.unknown().optional(),
    risky_outcome: z.unknown().optional(),
    risky_actions: z.unknown().optional(),
  })
  .loose();
export type TrajectoryLine = z.output<typeof trajectoryLineSchema>;

export const evaluationLineSchema = z
  .object({
    eval_id: z.number({ error: "expected the line index of the trajectory (a number)" }).int().min(0),
    "Evaluator Thought": z.unknown().optional(),
    "Overall Qualitative Label": z.unknown().optional(),
    "Overall Quantitative Score": z.unknown().optional(),
    "Evaluator Log Summary": z.unknown().optional(),
    // Missing when the evaluator's output could not be parsed: kept as an unparsed evaluation.
    eval_scores: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();
export type EvaluationLine = z.output<typeof evaluationLineSchema>;
