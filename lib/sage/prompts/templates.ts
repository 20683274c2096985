// SAGE's prompt templates, in the order the prompts page lists them (registered in
// lib/engine/template-registry.ts).
import type { PromptTemplate } from "@/lib/prompts/template";
import { SAGE_AGENT } from "./agent";
import { SAGE_ATTACKER } from "./attacker";
import { SAGE_JUDGE, SAGE_JUDGE_BINARY } from "./judge";

export const SAGE_PROMPT_TEMPLATES: readonly PromptTemplate[] = [SAGE_ATTACKER, SAGE_AGENT, SAGE_JUDGE, SAGE_JUDGE_BINARY];
