// What the three generator forms submit (zod): toolkits from a category and a brief, cases from
// chosen toolkits (standard or red-team), and a case completed around a researcher's instruction.
// Pure: the /generate page's client components share these limits.
import { z } from "zod";

export const GENERATION_MODES = ["STANDARD", "RED_TEAM"] as const;
export type GenerationMode = (typeof GENERATION_MODES)[number];

export const MODE_LABELS: Record<GenerationMode, string> = { STANDARD: "Standard", RED_TEAM: "Red-team" };

const endpointId = z.string({ error: "choose an endpoint" }).trim().min(1, { error: "choose an endpoint" });
const toolkitName = z.string().trim().min(1).max(200);

export const toolkitGenerationSchema = z.object({
  kind: z.literal("TOOLKITS"),
  endpointId,
  category: z.string().trim().min(1, { error: "name a category" }).max(120),
  brief: z.string().trim().min(1, { error: "write a short brief" }).max(2000),
  count: z.coerce.number().int().min(1).max(5).default(1),
});

export const caseGenerationSchema = z
  .object({
    kind: z.literal("CASES"),
    endpointId,
    primaryToolkits: z.array(toolkitName).min(1, { error: "choose at least one primary toolkit" }).max(3),
    auxiliaryToolkits: z.array(toolkitName).max(5).default([]),
    /** Example case ids; none → up to two stored cases of the primary toolkits. */
    exampleCaseIds: z.array(z.string().trim().min(1)).max(3).default([]),
    mode: z.enum(GENERATION_MODES).default("RED_TEAM"),
    count: z.coerce.number().int().min(1).max(20).default(5),
    risksPerToolkit: z.coerce.number().int().min(1).max(10).default(3),
    seed: z.coerce.number().int().min(0).max(2 ** 31 - 1).default(1),
  })
  .refine((v) => !v.auxiliaryToolkits.some((a) => v.primaryToolkits.includes(a)), {
    error: "a toolkit is either primary or auxiliary, not both",
    path: ["auxiliaryToolkits"],
  });

export const completeCaseSchema = z.object({
  kind: z.literal("COMPLETE_CASE"),
  endpointId,
  instruction: z.string().trim().min(1, { error: "write the user instruction" }).max(4000),
  toolkits: z.array(toolkitName).min(1, { error: "choose at least one toolkit" }).max(4),
  mode: z.enum(GENERATION_MODES).default("STANDARD"),
});

export const generationInputSchema = z.discriminatedUnion("kind", [toolkitGenerationSchema, caseGenerationSchema, completeCaseSchema]);

export type ToolkitGenerationInput = z.output<typeof toolkitGenerationSchema>;
export type CaseGenerationInput = z.output<typeof caseGenerationSchema>;
export type CompleteCaseInput = z.output<typeof completeCaseSchema>;
export type GenerationInput = z.output<typeof generationInputSchema>;
export type GenerationKindValue = GenerationInput["kind"];

export const GENERATION_KIND_LABELS: Record<GenerationKindValue, string> = {
  TOOLKITS: "Toolkits from a category",
  CASES: "Test cases from toolkits",
  COMPLETE_CASE: "Case completed from an instruction",
};
