// Prompt templates as versioned data. A template's text holds `{placeholder}`s (lower-case
// identifiers in braces) that `renderText` fills; nothing else in braces is touched, so JSON
// examples such as {"error": "..."} stay as written. Pure: the UI may show the templates.
//
// Every rendered prompt starts with a role marker line,
//   [toolemu-studio role=agent template=agent.naive@1]
// which the offline model reads to know whose part it plays. A real LLM sees one harmless line.

// critic: InferAct and its baselines; simulated-user: answers the online gate for unattended runs;
// attacker / sage-agent / judge: SAGE's three parts; generator: the LM generators of toolkits and
// cases (lib/authoring/prompts).
export const PROMPT_ROLES = ["agent", "emulator", "critique", "evaluator", "critic", "simulated-user", "attacker", "sage-agent", "judge", "generator"] as const;
export type PromptRole = (typeof PROMPT_ROLES)[number];

export interface PromptTemplate {
  /** Stable id, e.g. "agent.naive". */
  id: string;
  /** Bumped whenever the text changes, so a trajectory's recorded versions say what it saw. */
  version: number;
  role: PromptRole;
  title: string;
  description: string;
  /** The system message ("" for a template that is a single user message, like the critique). */
  system: string;
  /** The (first) user message. */
  user: string;
}

/** "agent.naive@1" */
export function templateRef(t: Pick<PromptTemplate, "id" | "version">): string {
  return `${t.id}@${t.version}`;
}

const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\}/g;

/** The placeholders a text uses, in order of first appearance. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/**
 * Fills `{name}` with vars[name] in one pass (inserted values are never scanned again, so a value
 * holding "{x}" stays as it is). A placeholder without a value is a programming error: it throws.
 */
export function renderText(text: string, vars: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (_m, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`prompt placeholder {${name}} has no value`);
    return v;
  });
}

const MARKER_PREFIX = "[toolemu-studio";

/** The first line of every prompt: role, template and (when the episode has one) its seed. */
export function roleMarker(t: Pick<PromptTemplate, "id" | "version" | "role">, seed?: number | null): string {
  return `${MARKER_PREFIX} role=${t.role} template=${templateRef(t)}${seed === undefined || seed === null ? "" : ` seed=${seed}`}]`;
}

export interface ParsedMarker {
  role: PromptRole;
  templateId: string;
  version: number;
  seed: number | null;
}

const MARKER_RE = /^\[toolemu-studio role=(agent|emulator|critique|evaluator|critic|simulated-user|attacker|sage-agent|judge|generator) template=([\w.-]+)@(\d+)(?: seed=(-?\d+))?\]/;

/** The marker at the start of a message, or null. */
export function parseRoleMarker(text: string): ParsedMarker | null {
  const m = MARKER_RE.exec(text.trimStart());
  if (!m) return null;
  return { role: m[1] as PromptRole, templateId: m[2]!, version: Number(m[3]), seed: m[4] === undefined ? null : Number(m[4]) };
}

export interface RenderedPrompt {
  system: string;
  user: string;
  template: string;
}

/** Both messages of a template, each filled; the system message (or the user one, if there is no system text) gets the marker. */
export function renderTemplate(t: PromptTemplate, vars: Record<string, string>, seed?: number | null): RenderedPrompt {
  const marker = roleMarker(t, seed);
  const system = t.system ? `${marker}\n${renderText(t.system, vars)}` : "";
  const user = t.system ? renderText(t.user, vars) : `${marker}\n${renderText(t.user, vars)}`;
  return { system, user, template: templateRef(t) };
}
