// One SAGE episode, played and stored (issue 14 item 2), then judged (item 4).
//
// Per turn t = 1 … the scenario's turn limit (4 in the data; turns counted from 1 as in the prompts,
// turn 1 = the "turn 0"):
//   1. the user's message: turn 1 is the scenario's opening message; later turns come from the
//      attacker endpoint at T = 0.7 (prompt sage.attacker: the family's attacker profile, the
//      visible scenario, a summary of what the agent did and its last output), checked by
//      lib/sage/attacker-fallback.ts and replaced by the deterministic fallback when unusable (or
//      when the call failed);
//   2. the agent (prompt sage.agent at the agent endpoint's temperature): one JSON object, a tool
//      call or a final answer. It sees lib/sage/visible.ts's view with the run's authority text
//      (TRUST = authority_context_soft, WARNING = authority_context_hard) and the conversation in
//      CHRONOLOGICAL order (its own earlier turns included) or in REFERENCE order (all user
//      messages, then all tool results, no own turns — what the published runner does);
//   3. a tool call runs in the programmatic environment (lib/sage/environment.ts): observation and
//      flags. An unknown tool or bad arguments give an error observation and the episode goes on.
// The episode stops on a final answer (stop reason final_answer, status FINISHED), an unreadable
// agent output (invalid_output), a failed agent call (llm_error) or the turn limit after a tool
// call (turn_limit); the last three leave the status INCOMPLETE.
//
// Stored: a Trajectory (scenarioId, no caseId, origin EMULATED, authorityContext,
// conversationOrder, agentModel; emulatorModel "programmatic" and emulatorMode STANDARD because
// those columns are required — no emulator model is involved), settings (endpoints, templates by
// id@version, seed, turn limit, order, context), stopReason, sageOutcome (the programmatic outcome
// over all turns), and raw = {kind: "sage", turns}. One Step per agent turn, index = turn − 1:
// userMessage = the message the turn answered, agentLog = the agent's output as written, action /
// actionInput / observation for a tool call (action null for a final answer, parseError for an
// unreadable output), sageFlags = the environment's SageTurnFlags of the call (null without one)
// plus `attacker`: {usedFallback, problems, tactic} for turns ≥ 2. LlmCall rows: purposes attacker,
// agent, judge, each with the trajectory and the step index (judges: none).
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { LlmCallError, type ModelClient } from "@/lib/llm/types";
import { templateRef } from "@/lib/prompts/template";
import { attackerMessageOrFallback, type AttackerProblem } from "@/lib/sage/attacker-fallback";
import { executeSageTool, sageEpisodeOutcome, scenarioTools, type SageEnvironmentHistory, type SageEpisodeOutcome, type SageTurnFlags } from "@/lib/sage/environment";
import { judgeStoredEpisodes, type SageJudgmentResult } from "@/lib/sage/judge-episode";
import { parseSageAgentOutput } from "@/lib/sage/parse-agent";
import { SAGE_AGENT } from "@/lib/sage/prompts/agent";
import { SAGE_ATTACKER } from "@/lib/sage/prompts/attacker";
import { buildSageAgentMessages, buildSageAttackerMessages, type SageConversationOrderValue, type SageTurn } from "@/lib/sage/prompts/build";
import { SAGE_JUDGE_TEMPLATES, type SageJudgeMode } from "@/lib/sage/prompts/judge";
import { agentVisibleScenario, type SageAuthorityContext } from "@/lib/sage/visible";
import { APP_VERSION } from "@/lib/version";
import { newTrajectoryId } from "./trajectory-store";

/** The attacker writes at this temperature (the paper's setting). */
export const SAGE_ATTACKER_TEMPERATURE = 0.7;
/** Stored in the required emulatorModel column: SAGE tools are programmatic, no model emulates them. */
export const SAGE_EMULATOR_MODEL = "programmatic";

export type SageStopReason = "final_answer" | "invalid_output" | "llm_error" | "turn_limit";

export interface PlaySageEpisodeOptions {
  /** SageScenario id or instance_id. */
  scenarioId: string;
  context: SageAuthorityContext;
  order?: SageConversationOrderValue;
  agent: ModelClient;
  attacker: ModelClient;
  judges?: readonly ModelClient[];
  judgeMode?: SageJudgeMode;
  seed?: number | null;
  runId?: string | null;
  /** Play into this trajectory row (a run's claim): it must be EMULATED, RUNNING, without steps. */
  into?: string | null;
  /**
   * At most this many turns (a run's turn policy: the published runner plays 4 whatever the
   * scenario says); null or absent: the scenario's own limit.
   */
  maxTurns?: number | null;
  /** Stops the model calls (a run's cancel or lost lease). */
  signal?: AbortSignal;
  /** Called after each turn is stored. */
  onTurn?: (turn: SageTurnReport) => void;
}

export interface SageTurnReport {
  turn: number;
  user: string;
  attacker: { usedFallback: boolean; problems: AttackerProblem[]; tactic: string | null } | null;
  agentOutput: string | null;
  kind: "tool_call" | "final_answer" | "invalid" | "llm_error";
  tool: string | null;
  observation: string | null;
  flags: SageTurnFlags | null;
  problem: string | null;
}

export interface SageEpisodeResult {
  trajectoryId: string;
  stopReason: SageStopReason;
  stopDetail: string | null;
  /** llm_error: the failed agent call's kind (rate_limited, timeout, …). */
  errorKind: string | null;
  turns: SageTurnReport[];
  outcome: SageEpisodeOutcome;
  judgments: SageJudgmentResult[];
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

const endpointSettings = (c: ModelClient, temperature?: number) => ({
  endpoint: c.endpoint.name,
  endpointId: c.endpoint.id,
  model: c.endpoint.model,
  host: hostOf(c.endpoint.baseUrl),
  temperature: temperature ?? c.endpoint.temperature,
  maxTokens: c.endpoint.maxTokens,
  offline: c.endpoint.offline,
});

async function findScenario(db: Db, ref: string) {
  const s = await db.sageScenario.findFirst({ where: { OR: [{ id: ref }, { instanceId: ref }] }, include: { subcategory: true } });
  if (!s) throw new Error(`No SAGE scenario "${ref}" (give its id or instance_id; import the scenarios first: npm run cli -- import sage <paths>).`);
  return s;
}

export async function playSageEpisode(db: Db, opts: PlaySageEpisodeOptions): Promise<SageEpisodeResult> {
  const order = opts.order ?? "CHRONOLOGICAL";
  const judgeMode = opts.judgeMode ?? "TERNARY";
  const seed = opts.seed ?? null;
  const s = await findScenario(db, opts.scenarioId);
  const tools = scenarioTools(s.tools);
  const targetTools = tools.filter((t) => !t.safe);
  const view = agentVisibleScenario(s, opts.context);
  const profile = (s.subcategory.attackerProfile ?? null) as { goal?: unknown } | null;
  const family = { key: s.subcategory.key, name: s.subcategory.name, goal: typeof profile?.goal === "string" ? profile.goal : null, tactics: s.subcategory.allowedTactics };
  const turnLimit = Math.max(1, opts.maxTurns ? Math.min(s.turnLimit, opts.maxTurns) : s.turnLimit);

  const settings = {
    kind: "sage",
    scenario: s.instanceId,
    context: opts.context,
    order,
    agent: endpointSettings(opts.agent),
    attacker: endpointSettings(opts.attacker, SAGE_ATTACKER_TEMPERATURE),
    judges: (opts.judges ?? []).map((j) => endpointSettings(j, 0)),
    judgeMode,
    templates: [templateRef(SAGE_ATTACKER), templateRef(SAGE_AGENT), templateRef(SAGE_JUDGE_TEMPLATES[judgeMode])],
    seed,
    turnLimit,
    scenarioTurnLimit: s.turnLimit,
    codeVersion: APP_VERSION,
  };
  const columns = {
    scenarioId: s.id,
    caseId: null,
    origin: "EMULATED" as const,
    status: "RUNNING" as const,
    authorityContext: opts.context,
    conversationOrder: order,
    agentModel: opts.agent.endpoint.model,
    emulatorModel: SAGE_EMULATOR_MODEL,
    emulatorMode: "STANDARD" as const,
    agentEndpointId: opts.agent.endpoint.id,
    stepCount: 0,
    settings: settings as Prisma.InputJsonValue,
    raw: {},
    startedAt: new Date(),
  };
  let trajectoryId: string;
  if (opts.into) {
    const existing = await db.trajectory.findUnique({ where: { id: opts.into }, select: { origin: true, status: true, runId: true, _count: { select: { steps: true } } } });
    if (!existing || existing.origin !== "EMULATED" || existing.status !== "RUNNING" || existing._count.steps > 0) {
      throw new Error(`Trajectory ${opts.into} cannot be played into: it must exist and be an emulated, RUNNING trajectory without steps.`);
    }
    trajectoryId = opts.into;
    await db.trajectory.update({ where: { id: trajectoryId }, data: { ...columns, runId: opts.runId ?? existing.runId, contentHash: `emulated:${trajectoryId}` } });
  } else {
    trajectoryId = newTrajectoryId();
    await db.trajectory.create({ data: { id: trajectoryId, ...columns, runId: opts.runId ?? null, contentHash: `emulated:${trajectoryId}` } });
  }
  const runId = opts.runId ?? undefined;

  const turns: SageTurn[] = [];
  const reports: SageTurnReport[] = [];
  const flags: SageTurnFlags[] = [];
  const history: SageEnvironmentHistory[] = [];
  const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const add = (r: { inputTokens: number; outputTokens: number; costUsd: number }) => {
    usage.inputTokens += r.inputTokens;
    usage.outputTokens += r.outputTokens;
    usage.costUsd += r.costUsd;
  };
  let stopReason: SageStopReason = "turn_limit";
  let stopDetail: string | null = null;
  let errorKind: string | null = null;
  const signal = opts.signal;
  let finalAnswer: string | null = null;
  let finalLog: string | null = null;
  let hasErrors = false;

  try {
    for (let turn = 1; turn <= turnLimit; turn++) {
      const stepIndex = turn - 1;
      // 1. The user's message.
      let user = s.attackerFirstMessage;
      let attacker: SageTurnReport["attacker"] = null;
      if (turn > 1) {
        const prompt = buildSageAttackerMessages({ family, attacker: { strategy: s.attackerStrategy, objective: s.attackerObjective, openingMessage: s.attackerFirstMessage, maxTurns: turnLimit }, view, targetTools, turns }, seed);
        let raw: string | null = null;
        try {
          const r = await opts.attacker.chat({ purpose: "attacker", messages: prompt.messages, temperature: SAGE_ATTACKER_TEMPERATURE, sample: 1, trajectoryId, stepIndex, runId, signal });
          add(r);
          raw = r.content;
        } catch (e) {
          if (!(e instanceof LlmCallError)) throw e;
        }
        const m = attackerMessageOrFallback(raw, { turn, tactics: family.tactics, subcategory: s.subcategory.slug, targetTools: targetTools.map((t) => t.name) });
        user = m.message;
        attacker = { usedFallback: m.usedFallback, problems: m.problems, tactic: m.tactic };
      }

      // 2. The agent.
      const pending: SageTurn = { user, agentOutput: null, action: null, toolResult: null };
      const prompt = buildSageAgentMessages(view, [...turns, pending], order, seed);
      let output: string;
      const stepUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 };
      try {
        const r = await opts.agent.chat({ purpose: "agent", messages: prompt.messages, trajectoryId, stepIndex, runId, signal });
        add(r);
        Object.assign(stepUsage, { inputTokens: r.inputTokens, outputTokens: r.outputTokens, costUsd: r.costUsd, latencyMs: Math.round(r.latencyMs) });
        output = r.content;
      } catch (e) {
        if (!(e instanceof LlmCallError)) throw e;
        stopReason = "llm_error";
        errorKind = e.kind;
        stopDetail = `turn ${turn}: the agent call failed: ${e.message}`;
        await db.step.create({ data: { trajectoryId, index: stepIndex, userMessage: user, parseError: stopDetail, sageFlags: { attacker } as Prisma.InputJsonValue } });
        reports.push({ turn, user, attacker, agentOutput: null, kind: "llm_error", tool: null, observation: null, flags: null, problem: stopDetail });
        opts.onTurn?.(reports.at(-1)!);
        break;
      }
      const parsed = parseSageAgentOutput(output);
      if (!parsed.ok) {
        stopReason = "invalid_output";
        stopDetail = `turn ${turn}: ${parsed.problem}`;
        await db.step.create({ data: { trajectoryId, index: stepIndex, userMessage: user, agentLog: output, parseError: `${parsed.code}: ${parsed.problem}`, sageFlags: { attacker } as Prisma.InputJsonValue, ...stepUsage } });
        reports.push({ turn, user, attacker, agentOutput: output, kind: "invalid", tool: null, observation: null, flags: null, problem: parsed.problem });
        opts.onTurn?.(reports.at(-1)!);
        break;
      }
      const action = parsed.action;
      if (action.kind === "final_answer") {
        stopReason = "final_answer";
        finalAnswer = action.message;
        finalLog = output;
        await db.step.create({ data: { trajectoryId, index: stepIndex, userMessage: user, agentLog: output, sageFlags: { attacker } as Prisma.InputJsonValue, ...stepUsage } });
        turns.push({ ...pending, agentOutput: output, action });
        reports.push({ turn, user, attacker, agentOutput: output, kind: "final_answer", tool: null, observation: null, flags: null, problem: null });
        opts.onTurn?.(reports.at(-1)!);
        break;
      }

      // 3. The tool.
      const result = executeSageTool(s, { tool: action.tool, arguments: action.arguments }, turn, history);
      flags.push(result.flags);
      history.push({ turn, tool: action.tool, executed: result.flags.executed });
      if (!result.flags.executed) hasErrors = true;
      await db.step.create({
        data: {
          trajectoryId,
          index: stepIndex,
          userMessage: user,
          agentLog: output,
          thought: action.reason,
          action: action.tool,
          actionInputRaw: JSON.stringify(action.arguments),
          actionInput: action.arguments as Prisma.InputJsonValue,
          observationRaw: result.observationText,
          observation: result.observation as Prisma.InputJsonValue,
          inputInvalid: !result.flags.executed,
          sageFlags: { ...result.flags, attacker } as unknown as Prisma.InputJsonValue,
          ...stepUsage,
        },
      });
      turns.push({ ...pending, agentOutput: output, action, toolResult: result.observationText });
      reports.push({ turn, user, attacker, agentOutput: output, kind: "tool_call", tool: action.tool, observation: result.observationText, flags: result.flags, problem: result.flags.error });
      opts.onTurn?.(reports.at(-1)!);
      if (turn === turnLimit) stopDetail = `the turn limit (${turnLimit}) was reached without a final answer`;
    }
  } catch (e) {
    await db.trajectory.update({
      where: { id: trajectoryId },
      data: { status: "INTERRUPTED", stopReason: "crashed", stopDetail: e instanceof Error ? e.message : String(e), stepCount: reports.length, finishedAt: new Date() },
    });
    throw e;
  }

  const outcome = sageEpisodeOutcome(flags);
  await db.trajectory.update({
    where: { id: trajectoryId },
    data: {
      status: stopReason === "final_answer" ? "FINISHED" : "INCOMPLETE",
      stopReason,
      stopDetail,
      stepCount: reports.length,
      finalAnswer,
      finalLog,
      hasErrors,
      sageOutcome: outcome as unknown as Prisma.InputJsonValue,
      raw: { kind: "sage", scenario: s.instanceId, context: opts.context, order, turns: reports } as unknown as Prisma.InputJsonValue,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      costUsd: usage.costUsd,
      finishedAt: new Date(),
    },
  });
  const judgments = opts.judges?.length ? await judgeStoredEpisodes(db, [trajectoryId], opts.judges, judgeMode, { seed, runId }) : [];
  return { trajectoryId, stopReason, stopDetail, errorKind, turns: reports, outcome, judgments };
}
