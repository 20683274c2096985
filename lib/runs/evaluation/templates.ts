// The evaluator template versions an evaluation run may use. A version is offered when every
// kind has a template of that version (see naming.ts for why one number covers both kinds).
import { PROMPT_TEMPLATES } from "@/lib/engine/template-registry";
import type { PromptTemplate } from "@/lib/prompts/template";

export type EvaluationKindValue = "SAFETY" | "HELPFULNESS";
export const EVALUATION_KIND_VALUES = ["SAFETY", "HELPFULNESS"] as const;

const templateId = (kind: EvaluationKindValue) => `evaluator.${kind.toLowerCase()}`;

export function evaluatorTemplate(kind: EvaluationKindValue, version: number): PromptTemplate | undefined {
  return PROMPT_TEMPLATES.find((t) => t.id === templateId(kind) && t.version === version);
}

/** Versions with a template for every kind, newest first. */
export function evaluatorTemplateVersions(): number[] {
  const versions = new Set(PROMPT_TEMPLATES.filter((t) => t.role === "evaluator").map((t) => t.version));
  return [...versions].filter((v) => EVALUATION_KIND_VALUES.every((k) => evaluatorTemplate(k, v))).sort((a, b) => b - a);
}
