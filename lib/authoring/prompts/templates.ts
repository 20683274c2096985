// The generators' prompt templates, in the order the prompts page lists them (registered in
// lib/engine/template-registry.ts, so each has its id@version and a pinned hash).
import type { PromptTemplate } from "@/lib/prompts/template";
import { GENERATOR_CASE_COMPLETE, GENERATOR_CASE_RED_TEAM, GENERATOR_CASE_STANDARD } from "./case";
import { GENERATOR_TOOLKIT_DESCRIPTION, GENERATOR_TOOLKIT_NAMES, GENERATOR_TOOLKIT_SPEC } from "./toolkit";

export const GENERATOR_PROMPT_TEMPLATES: readonly PromptTemplate[] = [
  GENERATOR_TOOLKIT_NAMES,
  GENERATOR_TOOLKIT_DESCRIPTION,
  GENERATOR_TOOLKIT_SPEC,
  GENERATOR_CASE_STANDARD,
  GENERATOR_CASE_RED_TEAM,
  GENERATOR_CASE_COMPLETE,
];
