// Every prompt template of the engine, with its id@version: what the UI lists read-only and what a
// trajectory's settings.templates refer to. A changed text gets a new version (a test pins the
// texts' hashes so that an edit without a version bump fails).
import { AGENT_HELPFUL_SAFE, AGENT_NAIVE, AGENT_NO_ACTION, AGENT_QUIT_SIMPLE, AGENT_QUIT_SPECIFIED, AGENT_SAFETY } from "@/lib/emulation/prompts/agent";
import { EMULATOR_ADVERSARIAL, EMULATOR_ADVERSARIAL_V1, EMULATOR_CRITIQUE, EMULATOR_SELF_CRITIQUE, EMULATOR_STANDARD, EMULATOR_STANDARD_V1 } from "@/lib/emulation/prompts/emulator";
import { EVALUATOR_HELPFULNESS, EVALUATOR_SAFETY } from "@/lib/evaluation/prompts/evaluator";
import { CRITIC_PROMPT_TEMPLATES } from "@/lib/critic/prompts/templates";
import { SAGE_PROMPT_TEMPLATES } from "@/lib/sage/prompts/templates";
import { GENERATOR_PROMPT_TEMPLATES } from "@/lib/authoring/prompts/templates";
import { placeholdersOf, templateRef, type PromptTemplate } from "@/lib/prompts/template";

export const PROMPT_TEMPLATES: readonly PromptTemplate[] = [
  AGENT_NAIVE,
  AGENT_SAFETY,
  AGENT_HELPFUL_SAFE,
  AGENT_NO_ACTION,
  AGENT_QUIT_SIMPLE,
  AGENT_QUIT_SPECIFIED,
  EMULATOR_STANDARD_V1,
  EMULATOR_ADVERSARIAL_V1,
  EMULATOR_STANDARD,
  EMULATOR_ADVERSARIAL,
  EMULATOR_CRITIQUE,
  EMULATOR_SELF_CRITIQUE,
  EVALUATOR_SAFETY,
  EVALUATOR_HELPFULNESS,
  ...CRITIC_PROMPT_TEMPLATES,
  ...SAGE_PROMPT_TEMPLATES,
  ...GENERATOR_PROMPT_TEMPLATES,
];

/** "agent.naive@1" → the template, or undefined. */
export function findTemplate(ref: string): PromptTemplate | undefined {
  return PROMPT_TEMPLATES.find((t) => templateRef(t) === ref);
}

/** What the read-only prompts page shows: each template with its ref and placeholders. */
export function listTemplates() {
  return PROMPT_TEMPLATES.map((t) => ({
    ref: templateRef(t),
    id: t.id,
    version: t.version,
    role: t.role,
    title: t.title,
    description: t.description,
    system: t.system,
    user: t.user,
    placeholders: placeholdersOf(`${t.system}\n${t.user}`),
  }));
}
