// The agent-visible view of a SAGE scenario: what the agent under test may be told. Built from
// an allow-list, so a field the source adds later stays hidden unless added here. Hidden: the
// judge specification and every judge_* field, environment_state keys starting with "hidden_"
// (hidden mock outputs, hidden chains…) and the previous_*_attempts keys the family files mark
// "primarily hidden", the tool manifest's constraints and each tool's role,
// type, safety, risk level and risk event, the attacker (mode, strategy, objective, first message,
// turn limit), the theme and domain, and provenance. The first attacker message reaches the agent
// as the user's turn 0, not as part of this view.
import type { SageTool } from "./tools";

export type SageAuthorityContext = "TRUST" | "WARNING";

/** The stored scenario fields this view reads (a SageScenario row satisfies it). */
export interface ScenarioForAgent {
  roleContext: string;
  taskContext: string;
  crisisContext: string | null;
  consequence: string | null;
  authorityTrust: string;
  authorityWarning: string;
  environmentState: unknown;
  visibleWorkflow: unknown;
  tools: unknown;
}

export interface AgentVisibleTool {
  name: string;
  description: string;
}

export interface AgentVisibleScenario {
  role: string;
  task: string;
  crisis?: string;
  consequence?: string;
  /** The run's authority text (Trust or Warning), when one is given. */
  authority?: string;
  environment: Record<string, unknown>;
  workflow?: { step_id: unknown; step_name: unknown; instruction: unknown }[];
  tools: AgentVisibleTool[];
}

/** Scenario fields never given to the agent (SageScenario columns). */
export const HIDDEN_SCENARIO_FIELDS = [
  "theme",
  "domain",
  "judgeSpec",
  "judgeExtra",
  "toolConstraints",
  "attackerMode",
  "attackerStrategy",
  "attackerObjective",
  "attackerFirstMessage",
  "turnLimit",
  "sourceFile",
  "sourcePointer",
  "raw",
] as const;

/** Tool fields never given to the agent. */
export const HIDDEN_TOOL_FIELDS = ["role", "type", "safe", "riskLevel", "riskEvent"] as const satisfies readonly (keyof SageTool)[];

/** environment_state keys with this prefix are hidden. */
export const HIDDEN_STATE_PREFIX = "hidden_";
/** And these: the families' visibility guidance lists previous_*_attempts as primarily hidden state. */
export const HIDDEN_STATE_PATTERN = /^previous_[a-z_]*attempts$/;

/** Every hidden key, for documentation and checks: columns, tool fields, the state keys. */
export const HIDDEN_KEYS: readonly string[] = [
  ...HIDDEN_SCENARIO_FIELDS,
  ...HIDDEN_TOOL_FIELDS.map((f) => `tools[].${f}`),
  `environmentState.${HIDDEN_STATE_PREFIX}*`,
  "environmentState.previous_*_attempts",
];

export function isHiddenStateKey(key: string): boolean {
  return key.startsWith(HIDDEN_STATE_PREFIX) || HIDDEN_STATE_PATTERN.test(key);
}

function visibleState(state: unknown): Record<string, unknown> {
  if (!state || typeof state !== "object" || Array.isArray(state)) return {};
  return Object.fromEntries(Object.entries(state as Record<string, unknown>).filter(([k]) => !isHiddenStateKey(k)));
}

export function agentVisibleTools(tools: unknown): AgentVisibleTool[] {
  if (!Array.isArray(tools)) return [];
  return (tools as Partial<SageTool>[]).map((t) => ({ name: String(t.name ?? ""), description: String(t.capability ?? "") }));
}

export function agentVisibleScenario(s: ScenarioForAgent, authority?: SageAuthorityContext): AgentVisibleScenario {
  const out: AgentVisibleScenario = { role: s.roleContext, task: s.taskContext, environment: visibleState(s.environmentState), tools: agentVisibleTools(s.tools) };
  if (s.crisisContext) out.crisis = s.crisisContext;
  if (s.consequence) out.consequence = s.consequence;
  if (authority) out.authority = authority === "TRUST" ? s.authorityTrust : s.authorityWarning;
  if (Array.isArray(s.visibleWorkflow)) {
    out.workflow = (s.visibleWorkflow as Record<string, unknown>[]).map((w) => ({ step_id: w.step_id, step_name: w.step_name, instruction: w.instruction }));
  }
  return out;
}
