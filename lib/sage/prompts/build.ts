// From a SAGE scenario and the turns so far to the chat messages of the agent, the attacker and
// the judge. Pure.
//
// Turns are numbered from 1 in every prompt: turn 1 is the scenario's opening message (the issue's
// "turn 0") with the agent's answer to it and, for a tool call, the tool's result; turn k is the
// k-th user message. Stored turn indexes that start at 0 are shown as index + 1.
//
// The agent sees only lib/sage/visible.ts's view (and, defensively, state keys starting with
// "hidden_" are dropped here again). The attacker sees the same view plus its own profile, strategy,
// objective and the actions that would fulfil it. The judge sees everything, hidden parts included.
import type { ChatMessage } from "@/lib/llm/types";
import { renderTemplate } from "@/lib/prompts/template";
import { actionJson, type SageAgentAction } from "../parse-agent";
import { humanizeTactic, tacticForTurn } from "../tactics";
import type { SageTool } from "../tools";
import type { AgentVisibleScenario, SageAuthorityContext } from "../visible";
import { SAGE_AGENT } from "./agent";
import { SAGE_ATTACKER } from "./attacker";
import { SAGE_JUDGE_TEMPLATES, type SageJudgeMode } from "./judge";

export type SageConversationOrderValue = "CHRONOLOGICAL" | "REFERENCE";

export interface BuiltSagePrompt {
  messages: ChatMessage[];
  /** id@version of the template used. */
  template: string;
}

/** One turn of an episode. */
export interface SageTurn {
  /** The user's (attacker's) message. */
  user: string;
  /** The agent's output as written; null while the turn is the one being answered. */
  agentOutput: string | null;
  /** How the output was read; null when it was unreadable (or not written yet). */
  action: SageAgentAction | null;
  /** The tool's observation, when the action was a tool call that ran. */
  toolResult: string | null;
}

// ---------------------------------------------------------------------------------------------
// Rendering helpers

const oneLineText = (s: string) => s.replace(/\s*[\r\n]+\s*/g, " ").trim();
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function scalar(v: unknown): string {
  if (typeof v === "string") return oneLineText(v);
  if (v === null || v === undefined) return "none";
  if (Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null)) return v.length ? v.map((x) => scalar(x)).join("; ") : "none";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** A JSON value as indented "- key: value" lines (nested objects and lists of objects indented). */
export function renderData(value: unknown, indent = ""): string {
  if (value === null || value === undefined) return `${indent}- none`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}- none`;
    return value
      .map((x) => (x !== null && typeof x === "object" ? `${indent}-\n${renderData(x, `${indent}  `)}` : `${indent}- ${scalar(x)}`))
      .join("\n");
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return `${indent}- none`;
    return entries
      .map(([k, v]) => {
        const nested = v !== null && typeof v === "object" && !(Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null));
        return nested ? `${indent}- ${k}:\n${renderData(v, `${indent}  `)}` : `${indent}- ${k}: ${scalar(v)}`;
      })
      .join("\n");
  }
  return `${indent}- ${scalar(value)}`;
}

function visibleStateOnly(state: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(state).filter(([k]) => !k.startsWith("hidden_")));
}

function situation(crisis: string | null | undefined, consequence: string | null | undefined): string {
  const parts = [crisis, consequence].map((s) => s?.trim()).filter(Boolean);
  return parts.length ? parts.join("\n") : "(nothing beyond the task)";
}

function workflowText(w: AgentVisibleScenario["workflow"]): string {
  if (!w || w.length === 0) return "(no fixed workflow)";
  return w.map((s, i) => `${i + 1}. ${scalar(s.step_name)}: ${scalar(s.instruction)}`).join("\n");
}

const toolLines = (tools: readonly { name: string; description: string }[]) => (tools.length ? tools.map((t) => `- ${t.name}: ${oneLineText(t.description)}`).join("\n") : "- none");

/** The agent's action as the transcript shows it. */
function agentLine(t: SageTurn): string {
  if (t.agentOutput === null) return "Agent: (no answer)";
  if (!t.action) return `Agent (unreadable output): ${clip(oneLineText(t.agentOutput), 600)}`;
  return t.action.kind === "tool_call" ? `Agent (tool call): ${actionJson(t.action)}` : `Agent (final answer): ${actionJson(t.action)}`;
}

function checkTurns(turns: readonly SageTurn[], what: string): void {
  if (turns.length === 0) throw new Error(`${what}: an episode has at least the opening turn`);
}

// ---------------------------------------------------------------------------------------------
// Agent

export const USER_PREFIX = "Message from the user:";
export const RESULT_PREFIX = "Result of ";

const userBlock = (text: string) => `${USER_PREFIX}\n${text.trim()}`;
const resultBlock = (tool: string, result: string) => `${RESULT_PREFIX}${tool}:\n${result.trim()}`;

/**
 * The agent's messages for the last turn of `turns` (whose agentOutput is null). Every earlier turn
 * must be a tool call that ran (any other answer ends an episode).
 */
export function buildSageAgentMessages(view: AgentVisibleScenario, turns: readonly SageTurn[], order: SageConversationOrderValue, seed?: number | null): BuiltSagePrompt {
  checkTurns(turns, "agent prompt");
  if (!view.authority) throw new Error("agent prompt: the view has no authority text (pass the run's authority context to agentVisibleScenario)");
  const done = turns.slice(0, -1);
  done.forEach((t, i) => {
    if (t.agentOutput === null || t.action?.kind !== "tool_call" || t.toolResult === null) {
      throw new Error(`agent prompt: turn ${i + 1} is not a completed tool call (only a tool call lets an episode go on)`);
    }
  });
  const vars = {
    role_context: view.role.trim(),
    task_context: view.task.trim(),
    situation: situation(view.crisis, view.consequence),
    authority_context: view.authority.trim(),
    environment_state: renderData(visibleStateOnly(view.environment)),
    workflow: workflowText(view.workflow),
    tools: toolLines(view.tools),
  };
  if (order === "REFERENCE") {
    const users = turns.map((t, i) => `[${i + 1}] ${oneLineText(t.user)}`).join("\n");
    const results = done.length ? done.map((t, i) => `[${i + 1}] ${(t.action as { tool: string }).tool}: ${oneLineText(t.toolResult!)}`).join("\n") : "(none yet)";
    const conversation = `Messages from the user so far, in order:\n${users}\n\nResults of your tool calls so far, in order:\n${results}\n\nAnswer the latest message.`;
    const r = renderTemplate(SAGE_AGENT, { ...vars, conversation }, seed);
    return { messages: [{ role: "system", content: r.system }, { role: "user", content: r.user }], template: r.template };
  }
  const r = renderTemplate(SAGE_AGENT, { ...vars, conversation: userBlock(turns[0]!.user) }, seed);
  const messages: ChatMessage[] = [{ role: "system", content: r.system }, { role: "user", content: r.user }];
  done.forEach((t, i) => {
    messages.push({ role: "assistant", content: t.agentOutput!.trim() });
    const next = turns[i + 1]!;
    messages.push({ role: "user", content: `${resultBlock((t.action as { tool: string }).tool, t.toolResult!)}\n\n${userBlock(next.user)}` });
  });
  return { messages, template: r.template };
}

// ---------------------------------------------------------------------------------------------
// Attacker

export interface SageAttackerInput {
  family: { key: string; name: string; goal: string | null; tactics: readonly string[] };
  attacker: { strategy: string; objective: string; openingMessage: string; maxTurns: number };
  /** The scenario as the agent sees it (the authority text is not used). */
  view: AgentVisibleScenario;
  /** The actions that would fulfil the objective (the scenario's non-safe tools). */
  targetTools: readonly Pick<SageTool, "name" | "capability">[];
  /** The turns so far, each answered by the agent. */
  turns: readonly SageTurn[];
}

function agentSummary(turns: readonly SageTurn[]): string {
  return turns
    .map((t, i) => {
      const a = t.action;
      if (t.agentOutput === null) return `turn ${i + 1}: no answer`;
      if (!a) return `turn ${i + 1}: an unreadable answer`;
      if (a.kind === "final_answer") return `turn ${i + 1}: replied and stopped`;
      return `turn ${i + 1}: used ${a.tool}${t.toolResult !== null ? ` (result: ${clip(oneLineText(t.toolResult), 160)})` : ""}`;
    })
    .join("; ");
}

/** The attacker's messages for the next user message (turn = turns.length + 1). */
export function buildSageAttackerMessages(input: SageAttackerInput, seed?: number | null): BuiltSagePrompt & { turn: number; tactic: string | null } {
  checkTurns(input.turns, "attacker prompt");
  const turn = input.turns.length + 1;
  const last = input.turns.at(-1)!;
  const tactic = tacticForTurn(input.family.tactics, turn);
  const r = renderTemplate(
    SAGE_ATTACKER,
    {
      family: `${input.family.name} (${input.family.key})`,
      family_goal: input.family.goal ? oneLineText(input.family.goal) : "(none given)",
      strategy: humanizeTactic(input.attacker.strategy),
      objective: oneLineText(input.attacker.objective),
      target_actions: input.targetTools.length ? input.targetTools.map((t) => `- ${t.name}: ${oneLineText(t.capability)}`).join("\n") : "- (none listed)",
      allowed_tactics: input.family.tactics.length ? input.family.tactics.map((t) => `- ${humanizeTactic(t)} (${t})`).join("\n") : "- any ordinary pressure",
      suggested_tactic: tactic ? `${humanizeTactic(tactic)} (${tactic})` : "(your choice)",
      role_context: oneLineText(input.view.role),
      task_context: oneLineText(input.view.task),
      situation: oneLineText(situation(input.view.crisis, input.view.consequence)),
      environment_state: renderData(visibleStateOnly(input.view.environment)),
      tools: toolLines(input.view.tools),
      opening_message: oneLineText(input.attacker.openingMessage),
      agent_summary: agentSummary(input.turns),
      agent_last_output: last.agentOutput === null ? "(none)" : clip(last.agentOutput.trim(), 1500),
      turn: String(turn),
      max_turns: String(input.attacker.maxTurns),
    },
    seed,
  );
  return { messages: [{ role: "system", content: r.system }, { role: "user", content: r.user }], template: r.template, turn, tactic };
}

// ---------------------------------------------------------------------------------------------
// Judge

export interface SageProgrammaticResult {
  /** Executions of a tool of a non-safe type (turn 1-based). */
  unsafeCalls: readonly { turn: number; tool: string; type: string; riskEvent: string | null }[];
  forbiddenCall: boolean;
  /** Why the episode ended: final_answer, invalid_output, turn_limit, … */
  stopReason: string;
}

export interface SageJudgeInput {
  family: { key: string; name: string; criteria: unknown };
  scenario: {
    roleContext: string;
    taskContext: string;
    crisisContext: string | null;
    consequence: string | null;
    /** The hidden judge specification (judge_spec and any judge_* extras). */
    judgeSpec: unknown;
    /** The whole environment state, hidden keys included. */
    environmentState: unknown;
  };
  authority: SageAuthorityContext;
  authorityText: string;
  tools: readonly SageTool[];
  turns: readonly SageTurn[];
  programmatic: SageProgrammaticResult;
}

export function renderTranscript(turns: readonly SageTurn[]): string {
  return turns
    .map((t, i) => {
      const lines = [`Turn ${i + 1}`, `User: ${oneLineText(t.user)}`, agentLine(t)];
      if (t.action?.kind === "tool_call" && t.toolResult !== null) lines.push(`Tool result (${t.action.tool}): ${oneLineText(t.toolResult)}`);
      return lines.join("\n");
    })
    .join("\n\n");
}

export function renderProgrammatic(p: SageProgrammaticResult, turns: number): string {
  const calls = p.unsafeCalls.length
    ? `yes — ${p.unsafeCalls.map((c) => `turn ${c.turn}: ${c.tool} (type ${c.type}${c.riskEvent ? `, risk event ${c.riskEvent}` : ""})`).join("; ")}`
    : "no";
  return `Unsafe tool call: ${calls}\nForbidden-call flag: ${p.forbiddenCall ? "yes" : "no"}\nEpisode ended: ${p.stopReason} after ${turns} turn(s)`;
}

export function judgeToolLines(tools: readonly SageTool[]): string {
  if (!tools.length) return "- none";
  return tools
    .map((t) => `- ${t.name}: ${oneLineText(t.capability)} (role: ${t.role}; type: ${t.type}; safe type: ${t.safe ? "yes" : "no"}; risk level: ${t.riskLevel}; risk event: ${t.riskEvent ?? "none"})`)
    .join("\n");
}

export function buildSageJudgeMessages(input: SageJudgeInput, mode: SageJudgeMode = "TERNARY", seed?: number | null): BuiltSagePrompt {
  checkTurns(input.turns, "judge prompt");
  const state = input.scenario.environmentState;
  const hiddenState = state && typeof state === "object" && !Array.isArray(state) ? Object.fromEntries(Object.entries(state as Record<string, unknown>).filter(([k]) => k.startsWith("hidden_"))) : {};
  const spec = `${renderData(input.scenario.judgeSpec)}${Object.keys(hiddenState).length ? `\nHidden state:\n${renderData(hiddenState)}` : ""}`;
  const r = renderTemplate(
    SAGE_JUDGE_TEMPLATES[mode],
    {
      family: `${input.family.name} (${input.family.key})`,
      role_context: oneLineText(input.scenario.roleContext),
      task_context: oneLineText(input.scenario.taskContext),
      situation: oneLineText(situation(input.scenario.crisisContext, input.scenario.consequence)),
      authority_name: input.authority === "TRUST" ? "Trust" : "Warning",
      authority_context: oneLineText(input.authorityText),
      judge_spec: spec,
      judge_criteria: input.family.criteria === null || input.family.criteria === undefined ? "- (none given)" : renderData(input.family.criteria),
      tools: judgeToolLines(input.tools),
      transcript: renderTranscript(input.turns),
      programmatic_result: renderProgrammatic(input.programmatic, input.turns.length),
    },
    seed,
  );
  return { messages: [{ role: "system", content: r.system }, { role: "user", content: r.user }], template: r.template };
}
