// One emulated episode end to end (ToolEmu pipeline): the agent (ReAct) against the LM-emulated
// tools of a test case, then the evaluators. Every step is its own insert as soon as the agent has
// written it, completed with the observation right after, so a crash mid-episode leaves the steps
// so far; any thrown error marks the trajectory INTERRUPTED with its reason.
//
//   agent call (stops at a line starting "Observation:") → parseAgentOutput
//     final answer → FINISHED (stop reason final_answer)
//     unparsable   → a step with agentLog + parseError; INCOMPLETE (parse_error)
//     action       → checkToolInput (in code, before any emulator)
//        invalid → the check's error is the observation, inputInvalid = true, no emulator call
//        valid   → emulator call → parseEmulatorOutput; an unusable output is critiqued and
//                  re-asked up to EMULATOR_CRITIQUE_ROUNDS times; still unusable → the step's
//                  emulatorFailure says why and the agent sees EMULATOR_FAILURE_OBSERVATION;
//                  a usable one, with selfCritiqueRounds > 0 (default 0 = off), is critiqued by
//                  the emulator itself that many times and replaced by each usable revision
//                  (every round kept on Step.emulatorCritiques)
//   MAX_AGENT_STEPS steps without a final answer → INCOMPLETE (max_steps)
//   a model call failing for good → INTERRUPTED (llm_error); the signal aborted → INTERRUPTED
//   (cancelled); anything else thrown → INTERRUPTED (crashed)
//
// NO_ACTION agents: any Action they write is refused in code like an invalid input (the agent
// sees NO_ACTION_OBSERVATION) and never emulated.
//
// Token and cost totals on the trajectory are the agent's and the emulator's calls (the final
// answer's included); each evaluation carries its own. `raw` is the trajectory as a line of
// ToolEmu's JSONL, so the exporter writes emulated episodes like imported ones; it holds the tool
// calls and the AgentFinish (FINISHED only) — a parse-error step has no place in that format and
// lives on its Step row only.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { LlmCallError, type ChatResult, type LlmErrorKind, type ModelClient } from "@/lib/llm/types";
import { evaluateTrajectory, type EvaluationOutcome } from "@/lib/evaluation/evaluate";
import type { EvaluatorKind } from "@/lib/evaluation/prompts/build";
import type { RecordedCall } from "@/lib/prompts/render";
import { APP_VERSION } from "@/lib/version";
import { loadCaseSpec } from "@/lib/trajectory/case-spec";
import { checkToolInput, errorObservation } from "@/lib/emulation/input-check";
import { parseAgentOutput } from "@/lib/emulation/parse-agent";
import { parseEmulatorOutput } from "@/lib/emulation/parse-emulator";
import { agentTurnMessages, buildAgentMessages, buildCritiqueMessages, buildEmulatorMessages, buildSelfCritiqueMessages } from "@/lib/emulation/prompts/build";
import { MAX_SELF_CRITIQUE_ROUNDS, splitCritique, type EmulatorCritiqueRound } from "@/lib/emulation/self-critique";
import { AGENT_TEMPLATES } from "@/lib/emulation/prompts/agent";
import { EMULATOR_CRITIQUE, EMULATOR_SELF_CRITIQUE, EMULATOR_TEMPLATES } from "@/lib/emulation/prompts/emulator";
import { EVALUATOR_TEMPLATES } from "@/lib/evaluation/prompts/evaluator";
import { templateRef } from "@/lib/prompts/template";
import { EMULATOR_CRITIQUE_ROUNDS, MAX_AGENT_STEPS, type AgentVariant, type CaseSpec, type EmulatorModeValue } from "@/lib/trajectory/types";

/** What the agent sees when the emulator gave no usable observation after its critique rounds. */
export const EMULATOR_FAILURE_OBSERVATION = errorObservation("the tool returned no usable response to this call; its effect is unknown.", "ToolUnavailableException");
/**
 * Where the agent's turn is cut: a line that starts "Observation:" (ToolEmu's stop). A bare
 * "Observation:" would also cut an output that merely begins with the word.
 */
export const AGENT_STOP = ["\nObservation:"];
/** What a NO_ACTION agent sees if it writes an Action anyway. */
export const NO_ACTION_OBSERVATION = errorObservation("no tools are available in this session; give your Final Answer.");

export type StopReason = "final_answer" | "max_steps" | "parse_error" | "llm_error" | "cancelled" | "crashed";

export interface RunEpisodeOptions {
  caseId: string;
  agent: { client: ModelClient; variant: AgentVariant };
  /** selfCritiqueRounds: forced self-critique rounds per valid observation, 0 (default, off) to MAX_SELF_CRITIQUE_ROUNDS. */
  emulator: { client: ModelClient; mode: EmulatorModeValue; selfCritiqueRounds?: number };
  /** null / absent: no evaluation. */
  evaluator?: { client: ModelClient; kinds?: readonly EvaluatorKind[] } | null;
  /** Recorded in the settings and written into the prompts' role marker (the offline model varies with it). */
  seed?: number | null;
  /** The run this episode belongs to (Trajectory.runId). */
  runId?: string | null;
  /**
   * Play into this existing trajectory row (EMULATED, RUNNING, no steps yet — e.g. created by a
   * run's claim transaction) instead of creating one; its models, endpoints, settings and content
   * hash are set here.
   */
  trajectoryId?: string | null;
  /** Default MAX_AGENT_STEPS (15). */
  maxSteps?: number;
  signal?: AbortSignal;
  /** Called once the trajectory row exists. */
  onStart?: (trajectoryId: string) => void | Promise<void>;
  /** Called after each step is stored complete. */
  onStep?: (event: StepEvent) => void | Promise<void>;
}

export interface StepEvent {
  trajectoryId: string;
  index: number;
  action: string | null;
  inputInvalid: boolean;
  parseError: string | null;
  emulatorFailure: string | null;
  emulatorRounds: number;
  observationRaw: string | null;
}

export interface EpisodeResult {
  trajectoryId: string;
  status: "FINISHED" | "INCOMPLETE" | "INTERRUPTED";
  stopReason: StopReason;
  stopDetail: string | null;
  /** llm_error: the failed call's LlmErrorKind (rate_limited, timeout, network, ...); else null. */
  errorKind: LlmErrorKind | null;
  stepCount: number;
  finalAnswer: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** One per evaluation kind asked for; empty without an evaluator or when interrupted. */
  evaluations: EvaluationOutcome[];
}

interface Usage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
}

const zero = (): Usage => ({ inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 });
function add(u: Usage, r: ChatResult): void {
  u.inputTokens += r.inputTokens;
  u.outputTokens += r.outputTokens;
  u.costUsd += r.costUsd;
  u.latencyMs += r.latencyMs;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl.replace(/^[a-z]+:\/\//i, "").split("/")[0] ?? baseUrl;
  }
}

function endpointSettings(client: ModelClient) {
  const e = client.endpoint;
  return { endpoint: e.name, endpointId: e.id, model: e.model, host: hostOf(e.baseUrl), temperature: e.temperature, maxTokens: e.maxTokens, offline: e.offline };
}

/** The templates an episode uses, as id@version. */
export function episodeTemplates(variant: AgentVariant, mode: EmulatorModeValue, evaluatorKinds: readonly EvaluatorKind[], selfCritiqueRounds = 0): string[] {
  const refs = [templateRef(AGENT_TEMPLATES[variant])];
  if (variant !== "NO_ACTION") refs.push(templateRef(EMULATOR_TEMPLATES[mode]), templateRef(EMULATOR_CRITIQUE));
  if (variant !== "NO_ACTION" && selfCritiqueRounds > 0) refs.push(templateRef(EMULATOR_SELF_CRITIQUE));
  for (const k of evaluatorKinds) refs.push(templateRef(EVALUATOR_TEMPLATES[k]));
  return refs;
}

// ---------------------------------------------------------------------------------------------
// ToolEmu's JSONL line

interface RawStep {
  action: string;
  actionInputRaw: string;
  agentLog: string;
  observationRaw: string;
  summary: string;
  simulatorLog: string;
}

function toolemuList(items: readonly string[], bullet: string): string {
  return items.length ? ` \n${items.map((i) => `${bullet}${i}`).join("\n")}` : " None";
}

/** The trajectory as one line of ToolEmu's trajectory JSONL (the shape the importer reads). */
export function toolemuLine(spec: CaseSpec, caseRaw: unknown, mode: EmulatorModeValue, steps: readonly RawStep[], final: { answer: string; log: string } | null): Record<string, unknown> {
  const line: Record<string, unknown> = { input: spec.userInstruction };
  if (mode === "ADVERSARIAL") {
    // The adversarial emulator's extra inputs, as text in ToolEmu's layout (the importer reads
    // their presence as "adversarial").
    line.underspecifications = `\n- Task Information Underspecifications:${toolemuList(spec.underspecTaskInfo, "    * ")}\n- Safety & Security Constraint Underspecifications:${toolemuList(spec.underspecSafety, "    * ")}`;
    line.risky_outcome = `\n${spec.potentialRiskyOutcomes.map((o) => `* ${o}`).join("\n")}`;
    line.risky_actions = `\n${spec.potentialRiskyActions.map((a) => `* ${a}`).join("\n")}`;
  }
  if (final) line.output = final.answer;
  const intermediate: unknown[] = steps.map((s) => [
    [s.action, s.actionInputRaw, s.agentLog],
    [s.observationRaw, s.summary, s.simulatorLog],
  ]);
  if (final) intermediate.push([{ return_values: { output: final.answer }, log: final.log, type: "AgentFinish" }, ""]);
  line.intermediate_steps = intermediate;
  line.case = caseRaw;
  const idx = /^official_(\d+)$/.exec(spec.name);
  if (idx) line.case_idx = Number(idx[1]);
  return line;
}

// ---------------------------------------------------------------------------------------------

/**
 * Creates the trajectory (RUNNING) and returns its id with the promise of the whole episode, so a
 * caller can hand the id out at once (the playground) or simply await `done`.
 */
export async function startEpisode(db: Db, opts: RunEpisodeOptions): Promise<{ trajectoryId: string; done: Promise<EpisodeResult> }> {
  const loaded = await loadCaseSpec(db, opts.caseId);
  const { variant } = opts.agent;
  const { mode } = opts.emulator;
  const kinds = opts.evaluator ? (opts.evaluator.kinds ?? ["SAFETY", "HELPFULNESS"]) : [];
  const seed = opts.seed ?? null;
  const selfCritiqueRounds = opts.emulator.selfCritiqueRounds ?? 0;
  if (!Number.isInteger(selfCritiqueRounds) || selfCritiqueRounds < 0 || selfCritiqueRounds > MAX_SELF_CRITIQUE_ROUNDS) {
    throw new Error(`selfCritiqueRounds must be a whole number from 0 to ${MAX_SELF_CRITIQUE_ROUNDS}; got ${selfCritiqueRounds}.`);
  }
  const settings = {
    agent: { ...endpointSettings(opts.agent.client), variant },
    emulator: { ...endpointSettings(opts.emulator.client), mode },
    evaluator: opts.evaluator ? { ...endpointSettings(opts.evaluator.client), kinds } : null,
    templates: episodeTemplates(variant, mode, kinds, selfCritiqueRounds),
    seed,
    maxSteps: opts.maxSteps ?? MAX_AGENT_STEPS,
    critiqueRounds: EMULATOR_CRITIQUE_ROUNDS,
    selfCritiqueRounds,
    codeVersion: APP_VERSION,
  };
  const columns = {
    caseId: opts.caseId,
    origin: "EMULATED" as const,
    status: "RUNNING" as const,
    agentModel: opts.agent.client.endpoint.model,
    emulatorModel: opts.emulator.client.endpoint.model,
    emulatorMode: mode,
    agentVariant: variant,
    stepCount: 0,
    raw: {},
    settings,
    agentEndpointId: opts.agent.client.endpoint.id,
    emulatorEndpointId: opts.emulator.client.endpoint.id,
    evaluatorEndpointId: opts.evaluator?.client.endpoint.id ?? null,
    startedAt: new Date(),
  };
  let trajectoryId: string;
  if (opts.trajectoryId) {
    const existing = await db.trajectory.findUnique({ where: { id: opts.trajectoryId }, select: { origin: true, status: true, runId: true, _count: { select: { steps: true } } } });
    if (!existing) throw new Error(`Trajectory ${opts.trajectoryId} does not exist.`);
    if (existing.origin !== "EMULATED" || existing.status !== "RUNNING" || existing._count.steps > 0) {
      throw new Error(`Trajectory ${opts.trajectoryId} cannot be played into: it must be an emulated, RUNNING trajectory without steps.`);
    }
    trajectoryId = opts.trajectoryId;
    await db.trajectory.update({ where: { id: trajectoryId }, data: { ...columns, contentHash: `emulated:${trajectoryId}`, runId: opts.runId ?? existing.runId } });
  } else {
    const created = await db.trajectory.create({
      data: { ...columns, contentHash: `emulated:pending:${crypto.randomUUID()}`, runId: opts.runId ?? null },
      select: { id: true },
    });
    trajectoryId = created.id;
    await db.trajectory.update({ where: { id: trajectoryId }, data: { contentHash: `emulated:${trajectoryId}` } });
  }
  await opts.onStart?.(trajectoryId);
  const done = play(db, trajectoryId, loaded.spec, loaded.raw, opts, seed, kinds);
  // A caller that lets the episode run in the background must not crash the process with an
  // unhandled rejection (only a database failure while marking it interrupted rejects); whoever
  // awaits `done` still gets the error.
  done.catch(() => undefined);
  return { trajectoryId, done };
}

/** One episode, awaited to the end (evaluations included). */
export async function runEpisode(db: Db, opts: RunEpisodeOptions): Promise<EpisodeResult> {
  const { done } = await startEpisode(db, opts);
  return done;
}

async function play(db: Db, trajectoryId: string, spec: CaseSpec, caseRaw: unknown, opts: RunEpisodeOptions, seed: number | null, kinds: readonly EvaluatorKind[]): Promise<EpisodeResult> {
  const { variant } = opts.agent;
  const { mode } = opts.emulator;
  const maxSteps = opts.maxSteps ?? MAX_AGENT_STEPS;
  const tools = spec.toolkits.flatMap((tk) => tk.tools);
  const signal = opts.signal;
  const total = zero();
  const history: RecordedCall[] = [];
  const rawSteps: RawStep[] = [];
  let messages = buildAgentMessages(spec, variant, seed).messages;
  let stepCount = 0;
  let hasErrors = false;
  let final: { answer: string; log: string } | null = null;
  let stopReason: StopReason = "max_steps";
  let stopDetail: string | null = null;
  let errorKind: LlmErrorKind | null = null;

  const finishRow = async (status: EpisodeResult["status"]) => {
    const line = toolemuLine(spec, caseRaw, mode, rawSteps, status === "FINISHED" ? final : null);
    await db.trajectory.update({
      where: { id: trajectoryId },
      data: {
        status,
        stopReason,
        stopDetail,
        stepCount,
        hasErrors,
        finalAnswer: final?.answer ?? null,
        finalLog: final?.log ?? null,
        inputTokens: total.inputTokens,
        outputTokens: total.outputTokens,
        costUsd: total.costUsd,
        finishedAt: new Date(),
        raw: line as Prisma.InputJsonValue,
      },
    });
  };

  let status: EpisodeResult["status"];
  try {
    for (let index = 0; ; index++) {
      if (signal?.aborted) throw signal.reason ?? new Error("cancelled");
      if (index >= maxSteps) {
        stopReason = "max_steps";
        stopDetail = `no final answer after ${maxSteps} steps`;
        break;
      }
      const stepUsage = zero();
      const agentRes = await opts.agent.client.chat({ purpose: "agent", messages, stop: AGENT_STOP, trajectoryId, stepIndex: index, signal });
      add(stepUsage, agentRes);
      add(total, agentRes);
      const agentText = agentRes.content;
      const parsed = parseAgentOutput(agentText);

      if (parsed.kind === "final") {
        final = { answer: parsed.finalAnswer, log: agentText };
        stopReason = "final_answer";
        break;
      }
      if (parsed.kind === "unparsable") {
        await db.step.create({
          data: { trajectoryId, index, thought: parsed.thought, agentLog: agentText, parseError: parsed.error, ...usageColumns(stepUsage) },
        });
        stepCount = index + 1;
        stopReason = "parse_error";
        stopDetail = parsed.error;
        await opts.onStep?.({ trajectoryId, index, action: null, inputInvalid: false, parseError: parsed.error, emulatorFailure: null, emulatorRounds: 0, observationRaw: null });
        break;
      }

      // An action: stored at once, completed when its observation is known.
      const step = await db.step.create({
        data: { trajectoryId, index, thought: parsed.thought, action: parsed.action, actionInputRaw: parsed.actionInputRaw, agentLog: agentText, ...usageColumns(stepUsage) },
        select: { id: true },
      });
      stepCount = index + 1;

      let observationRaw: string;
      let observation: unknown = null;
      let inputInvalid = false;
      let emulatorRounds = 0;
      let emulatorFailure: string | null = null;
      let emulatorThought: string | null = null;
      let emulatorSummary: string | null = null;
      let simulatorLog = "";
      let critiques: EmulatorCritiqueRound[] | null = null;
      let actionInput: unknown = null;

      const check = variant === "NO_ACTION" ? null : checkToolInput(tools, parsed.action, parsed.actionInputRaw);
      if (!check || !check.ok) {
        observationRaw = check ? check.error : NO_ACTION_OBSERVATION;
        inputInvalid = true;
      } else {
        actionInput = check.input;
        let prompt = buildEmulatorMessages(spec, mode, history, { action: parsed.action, actionInput: parsed.actionInputRaw }, seed);
        const problems: string[] = [];
        let result: ReturnType<typeof parseEmulatorOutput>;
        for (;;) {
          const res = await opts.emulator.client.chat({ purpose: emulatorRounds === 0 ? "emulator" : "critique", messages: prompt.messages, trajectoryId, stepIndex: index, signal });
          emulatorRounds++;
          add(stepUsage, res);
          add(total, res);
          simulatorLog = res.content;
          result = parseEmulatorOutput(res.content, check.tool);
          if (result.ok) break;
          problems.push(result.problem);
          if (emulatorRounds > EMULATOR_CRITIQUE_ROUNDS) break;
          prompt = buildCritiqueMessages(prompt.messages, res.content, result.problem, check.tool, seed);
        }
        emulatorThought = result.thought;
        emulatorSummary = result.summary;
        if (result.ok) {
          observationRaw = result.observationRaw;
          observation = result.observation;
          // Forced self-critique: each round sees the conversation so far and the output standing.
          const selfRounds = opts.emulator.selfCritiqueRounds ?? 0;
          if (selfRounds > 0) critiques = [];
          let conversation = prompt.messages;
          let lastOutput = simulatorLog;
          for (let round = 1; round <= selfRounds; round++) {
            const ask = buildSelfCritiqueMessages(conversation, lastOutput, mode, check.tool, seed);
            const res = await opts.emulator.client.chat({ purpose: "critique", messages: ask.messages, trajectoryId, stepIndex: index, signal });
            emulatorRounds++;
            add(stepUsage, res);
            add(total, res);
            const { critique, revision } = splitCritique(res.content);
            const revised = parseEmulatorOutput(revision, check.tool);
            critiques!.push({ round, critique, revision, accepted: revised.ok, problem: revised.ok ? null : revised.problem, inputTokens: res.inputTokens, outputTokens: res.outputTokens, costUsd: res.costUsd });
            conversation = ask.messages;
            lastOutput = res.content;
            if (!revised.ok) continue;
            simulatorLog = revision;
            emulatorThought = revised.thought;
            emulatorSummary = revised.summary;
            observationRaw = revised.observationRaw;
            observation = revised.observation;
          }
        } else {
          observationRaw = EMULATOR_FAILURE_OBSERVATION;
          emulatorFailure = `no valid observation after ${emulatorRounds} outputs (${EMULATOR_CRITIQUE_ROUNDS} critique rounds): ${problems.map((p, i) => `${i + 1}. ${p}`).join(" ")}`;
          // The unusable output stays readable on the step.
          emulatorThought = simulatorLog;
        }
      }
      if (observation === null) observation = safeJson(observationRaw);
      if (isErrorObject(observation)) hasErrors = true;

      await db.step.update({
        where: { id: step.id },
        data: {
          actionInput: (actionInput ?? safeJson(parsed.actionInputRaw) ?? undefined) as Prisma.InputJsonValue | undefined,
          observationRaw,
          observation: (observation ?? undefined) as Prisma.InputJsonValue | undefined,
          inputInvalid,
          emulatorRounds,
          emulatorFailure,
          emulatorThought,
          emulatorSummary,
          ...(critiques ? { emulatorCritiques: critiques as unknown as Prisma.InputJsonValue } : {}),
          ...usageColumns(stepUsage),
        },
      });
      rawSteps.push({ action: parsed.action, actionInputRaw: parsed.actionInputRaw, agentLog: agentText, observationRaw, summary: emulatorSummary ?? "", simulatorLog });
      history.push({ action: parsed.action, actionInput: parsed.actionInputRaw, observation: observationRaw, summary: emulatorFailure ? null : emulatorSummary });
      messages = [...messages, ...agentTurnMessages(agentText, observationRaw)];
      await opts.onStep?.({ trajectoryId, index, action: parsed.action, inputInvalid, parseError: null, emulatorFailure, emulatorRounds, observationRaw });
    }
    status = stopReason === "final_answer" ? "FINISHED" : "INCOMPLETE";
    await finishRow(status);
  } catch (e) {
    status = "INTERRUPTED";
    stopReason = signal?.aborted ? "cancelled" : e instanceof LlmCallError ? "llm_error" : "crashed";
    stopDetail = e instanceof Error ? e.message : String(e);
    errorKind = e instanceof LlmCallError ? e.kind : null;
    try {
      await finishRow(status);
    } catch (e2) {
      // The database itself failed: the row stays RUNNING; say both.
      throw new Error(`Episode ${trajectoryId} failed (${stopDetail}) and could not be marked interrupted: ${e2 instanceof Error ? e2.message : String(e2)}`);
    }
  }

  let evaluations: EvaluationOutcome[] = [];
  if (opts.evaluator && status !== "INTERRUPTED") {
    evaluations = await evaluateTrajectory(db, trajectoryId, opts.evaluator.client, kinds, { signal });
  }
  return {
    trajectoryId,
    status,
    stopReason,
    stopDetail,
    errorKind,
    stepCount,
    finalAnswer: final?.answer ?? null,
    inputTokens: total.inputTokens,
    outputTokens: total.outputTokens,
    costUsd: total.costUsd,
    evaluations,
  };
}

function usageColumns(u: Usage) {
  return { inputTokens: u.inputTokens, outputTokens: u.outputTokens, costUsd: u.costUsd, latencyMs: Math.round(u.latencyMs) };
}

function safeJson(text: string): unknown {
  const t = text.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return null;
  try {
    return JSON.parse(t);
  } catch {
    return null;
  }
}

function isErrorObject(o: unknown): boolean {
  return !!o && typeof o === "object" && !Array.isArray(o) && "error" in o;
}
