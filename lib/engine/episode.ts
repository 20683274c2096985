// One emulated episode end to end (ToolEmu pipeline): the agent (ReAct) against the LM-emulated
// tools of a test case, then the evaluators. Every step is its own insert as soon as the agent has
// written it, completed with the observation right after, so a crash mid-episode leaves the steps
// so far; any thrown error marks the trajectory INTERRUPTED with its reason.
//
//   agent call (stops at a line starting "Observation:") → parseAgentOutput
//     final answer → FINISHED (stop reason final_answer; "quit" when it is "QUIT: <reason>",
//                    lib/emulation/quit.ts — a bare "QUIT:" line counts as that final answer too)
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
// Online critic gate (opts.gate, ./gate.ts): a valid call of a critical tool is judged by the
// critic first; a flagged one waits for a person — the step stays stored without observation, the
// trajectory WAITING (stop reason "intervention"), no evaluation — until ./resume.ts carries on
// (opts.resume) — or is answered at once by the simulated user. Trials (opts.trial): every
// earlier trial's feedback is appended to the agent's system message (./trial-memory.ts).
//
// NO_ACTION agents: any Action they write is refused in code like an invalid input (the agent
// sees NO_ACTION_OBSERVATION) and never emulated.
//
// Token and cost totals on the trajectory are the agent's and the emulator's calls (the final
// answer's included); each evaluation carries its own. `raw` is the trajectory as a line of
// ToolEmu's JSONL (./toolemu-line.ts). The evaluators get the trajectory from memory.
//
// The steps, one file each: ./agent-turn.ts (agent call + parse), ./emulate.ts (input check,
// emulator with critique and self-critique rounds), ./trajectory-store.ts (every write),
// ./evaluate-episode.ts (the evaluations); ./episode-settings.ts what is recorded of the set-up.
import { isQuit, quitReason } from "@/lib/emulation/quit";
import "server-only";
import type { Db } from "@/lib/db/client";
import { LlmCallError } from "@/lib/llm/types";
import { MAX_SELF_CRITIQUE_ROUNDS } from "@/lib/emulation/self-critique";
import { agentTurnMessages, buildAgentMessages } from "@/lib/emulation/prompts/build";
import { loadCaseSpec } from "@/lib/trajectory/case-spec";
import { MAX_AGENT_STEPS, type CaseSpec } from "@/lib/trajectory/types";
import { agentTurn, type AgentTurn } from "./agent-turn";
import { observe } from "./emulate";
import { episodeSettings } from "./episode-settings";
import { zeroUsage, type Episode, type EpisodeResult, type EpisodeState, type EpisodeStatus, type RunEpisodeOptions } from "./episode-types";
import { evaluateEpisode } from "./evaluate-episode";
import { blockedObservation, gateCall, gatesCall } from "./gate";
import { restoreState, type PendingCall } from "./resume";
import { completeStep, finishTrajectory, pauseTrajectory, recordActionStep, recordUnparsableStep, resumeTrajectory, writeStartingTrajectory } from "./trajectory-store";
import { trialMemory, withTrialMemory } from "./trial-memory";
import { bufferedClient, CallBuffer, flushCalls } from "./call-buffer";
import { fastSql } from "@/lib/db/fast-sql";

export { AGENT_STOP } from "./agent-turn";
export { EMULATOR_FAILURE_OBSERVATION, NO_ACTION_OBSERVATION } from "./emulate";
export { blockedObservation } from "./gate";
export { episodeTemplates } from "./episode-settings";
export type { EpisodeResult, EvaluationOutcome, RunEpisodeOptions, StepEvent, StopReason } from "./episode-types";

/**
 * Creates the trajectory (RUNNING) and returns its id with the promise of the whole episode, so a
 * caller can hand the id out at once (the playground) or simply await `done`.
 */
export async function startEpisode(db: Db, opts: RunEpisodeOptions): Promise<{ trajectoryId: string; done: Promise<EpisodeResult> }> {
  // A run's claim read the case in its statement; otherwise one statement on the fast pool.
  const loaded = opts.loadedCase ?? (await loadCaseSpec(fastSql(db) as unknown as Pick<Db, "$queryRawUnsafe">, opts.caseId));
  if (opts.resume) return resumeEpisode(db, opts, loaded);
  const kinds = opts.evaluator ? (opts.evaluator.kinds ?? ["SAFETY", "HELPFULNESS"]) : [];
  const seed = opts.seed ?? null;
  const selfCritiqueRounds = opts.emulator.selfCritiqueRounds ?? 0;
  if (!Number.isInteger(selfCritiqueRounds) || selfCritiqueRounds < 0 || selfCritiqueRounds > MAX_SELF_CRITIQUE_ROUNDS) {
    throw new Error(`selfCritiqueRounds must be a whole number from 0 to ${MAX_SELF_CRITIQUE_ROUNDS}; got ${selfCritiqueRounds}.`);
  }
  const trajectoryId = await writeStartingTrajectory(
    db,
    {
      caseId: opts.caseId,
      agentModel: opts.agent.client.endpoint.model,
      emulatorModel: opts.emulator.client.endpoint.model,
      emulatorMode: opts.emulator.mode,
      agentVariant: opts.agent.variant,
      agentEndpointId: opts.agent.client.endpoint.id,
      emulatorEndpointId: opts.emulator.client.endpoint.id,
      evaluatorEndpointId: opts.evaluator?.client.endpoint.id ?? null,
      runId: opts.runId ?? null,
      settings: episodeSettings(opts, kinds, seed, selfCritiqueRounds),
      ...(opts.trial ? { trial: opts.trial.trial, previousTrialId: opts.trial.previousTrialId, trialFeedback: trialMemory(opts.trial.feedback) || null } : {}),
    },
    opts.trajectoryId,
  );
  await opts.onStart?.(trajectoryId);
  const calls = new CallBuffer();
  const ep: Episode = { db, trajectoryId, spec: loaded.spec, caseRaw: loaded.raw, opts: withBufferedCalls(opts, calls), calls, seed, kinds, tools: loaded.spec.toolkits.flatMap((tk) => tk.tools), maxSteps: opts.maxSteps ?? MAX_AGENT_STEPS };
  const done = play(ep);
  // A caller that lets the episode run in the background must not crash the process with an
  // unhandled rejection (only a database failure while marking it interrupted rejects); whoever
  // awaits `done` still gets the error.
  done.catch(() => undefined);
  return { trajectoryId, done };
}

/** Resumes the WAITING trajectory opts.trajectoryId from its stored steps (./resume.ts). */
async function resumeEpisode(db: Db, opts: RunEpisodeOptions, loaded: Awaited<ReturnType<typeof loadCaseSpec>>): Promise<{ trajectoryId: string; done: Promise<EpisodeResult> }> {
  const trajectoryId = opts.trajectoryId;
  if (!trajectoryId) throw new Error("Resuming an episode needs the trajectory to resume.");
  const kinds = opts.evaluator ? (opts.evaluator.kinds ?? ["SAFETY", "HELPFULNESS"]) : [];
  const calls = new CallBuffer();
  const ep: Episode = { db, trajectoryId, spec: loaded.spec, caseRaw: loaded.raw, opts: withBufferedCalls(opts, calls), calls, seed: opts.seed ?? null, kinds, tools: loaded.spec.toolkits.flatMap((tk) => tk.tools), maxSteps: opts.maxSteps ?? MAX_AGENT_STEPS };
  if (!(await resumeTrajectory(ep))) throw new Error(`Trajectory ${trajectoryId} is not waiting for an answer; it cannot be resumed.`);
  await opts.onStart?.(trajectoryId);
  const done = play(ep, true);
  done.catch(() => undefined);
  return { trajectoryId, done };
}

/**
 * The agent's, the emulator's and the evaluator's clients with their LlmCall rows held in `calls`
 * until the write that stores their result (./call-buffer.ts). The online gate's clients are not.
 */
function withBufferedCalls(opts: RunEpisodeOptions, calls: CallBuffer): RunEpisodeOptions {
  return {
    ...opts,
    agent: { ...opts.agent, client: bufferedClient(opts.agent.client, calls) },
    emulator: { ...opts.emulator, client: bufferedClient(opts.emulator.client, calls) },
    evaluator: opts.evaluator ? { ...opts.evaluator, client: bufferedClient(opts.evaluator.client, calls) } : opts.evaluator,
  };
}

/** One episode, awaited to the end (evaluations included). */
export async function runEpisode(db: Db, opts: RunEpisodeOptions): Promise<EpisodeResult> {
  const { done } = await startEpisode(db, opts);
  return done;
}

function initialState(spec: CaseSpec, ep: Episode): EpisodeState {
  return {
    messages: withTrialMemory(buildAgentMessages(spec, ep.opts.agent.variant, ep.seed).messages, ep.opts.trial?.feedback ?? []),
    history: [],
    rawSteps: [],
    total: zeroUsage(),
    stepCount: 0,
    hasErrors: false,
    final: null,
    stopReason: "max_steps",
    stopDetail: null,
    errorKind: null,
    gateVerdicts: [],
    waiting: null,
  };
}

async function play(ep: Episode, resume = false): Promise<EpisodeResult> {
  try {
    return await playAndEvaluate(ep, resume);
  } finally {
    // Rows no write took (a failed evaluation call; a write that failed): stored now, as the
    // client stores a failed call's row — a database error is reported, not thrown.
    if (ep.calls?.size) await flushCalls(fastSql(ep.db), ep.calls).catch((e) => console.error("[engine] could not record model calls:", e instanceof Error ? e.message : e));
  }
}

async function playAndEvaluate(ep: Episode, resume: boolean): Promise<EpisodeResult> {
  const s = initialState(ep.spec, ep);
  let status: EpisodeStatus;
  try {
    let from = 0;
    if (resume) {
      const pending = await restoreState(ep, s);
      from = s.stepCount;
      if (pending) await settlePending(ep, s, pending);
    }
    if (!s.waiting) await playSteps(ep, s, from);
    if (s.waiting) {
      status = "WAITING";
    } else {
      status = s.stopReason === "final_answer" || s.stopReason === "quit" ? "FINISHED" : "INCOMPLETE";
      await finishTrajectory(ep, s, status);
    }
  } catch (e) {
    status = "INTERRUPTED";
    await markInterrupted(ep, s, e);
  }
  const evaluations = status === "FINISHED" || status === "INCOMPLETE" ? await evaluateEpisode(ep, s) : [];
  return {
    trajectoryId: ep.trajectoryId,
    status,
    stopReason: s.stopReason,
    stopDetail: s.stopDetail,
    errorKind: s.errorKind,
    stepCount: s.stepCount,
    finalAnswer: s.final?.answer ?? null,
    inputTokens: s.total.inputTokens,
    outputTokens: s.total.outputTokens,
    costUsd: s.total.costUsd,
    evaluations,
    interventionId: s.waiting?.interventionId ?? null,
  };
}

/** Agent turns until a final answer, an unparsable output or the step limit; throws on a failed call or the signal. */
async function playSteps(ep: Episode, s: EpisodeState, from = 0): Promise<void> {
  const signal = ep.opts.signal;
  for (let index = from; ; index++) {
    if (signal?.aborted) throw signal.reason ?? new Error("cancelled");
    if (index >= ep.maxSteps) {
      s.stopReason = "max_steps";
      s.stopDetail = `no final answer after ${ep.maxSteps} steps`;
      return;
    }
    const stepUsage = zeroUsage();
    const turn = await agentTurn(ep, s, index, stepUsage);
    const { parsed } = turn;
    if (turn.finish) {
      s.final = { answer: turn.finish.finalAnswer, log: turn.finish.log, actionInside: turn.finish.actionInside };
      s.stopReason = isQuit(turn.finish.finalAnswer) ? "quit" : "final_answer";
      return;
    }
    if (parsed.kind === "final") {
      s.final = { answer: parsed.finalAnswer, log: turn.text };
      s.stopReason = isQuit(parsed.finalAnswer) ? "quit" : "final_answer";
      return;
    }
    const quit = parsed.kind === "unparsable" ? quitReason(turn.text) : null;
    if (quit !== null) {
      // "QUIT: …" without "Final Answer:": the agent declined all the same.
      s.final = { answer: `QUIT: ${quit}`.trim(), log: turn.text };
      s.stopReason = "quit";
      return;
    }
    if (parsed.kind === "unparsable") {
      await recordUnparsableStep(ep, index, { thought: parsed.thought, agentLog: turn.text, parseError: parsed.error }, stepUsage);
      s.stepCount = index + 1;
      s.stopReason = "parse_error";
      s.stopDetail = parsed.error;
      await ep.opts.onStep?.({ trajectoryId: ep.trajectoryId, index, action: null, inputInvalid: false, parseError: parsed.error, emulatorFailure: null, emulatorRounds: 0, observationRaw: null });
      return;
    }
    await playAction(ep, s, index, turn as AgentTurn & { parsed: typeof parsed }, stepUsage);
    if (s.waiting) return;
  }
}

/** An action: stored at once, observed, then completed with its observation and handed back to the agent. */
async function playAction(ep: Episode, s: EpisodeState, index: number, turn: AgentTurn & { parsed: { kind: "action" } }, stepUsage: ReturnType<typeof zeroUsage>): Promise<void> {
  const { thought, action, actionInputRaw } = turn.parsed;
  const stepId = await recordActionStep(ep, index, { thought, action, actionInputRaw, agentLog: turn.text }, stepUsage);
  s.stepCount = index + 1;
  const call: PendingCall = { stepId, index, action, actionInputRaw, agentLog: turn.text, usage: stepUsage, answer: null };
  if (gatesCall(ep, action, actionInputRaw)) {
    const g = await gateCall(ep, s, index, { action, actionInputRaw });
    if (g.kind === "wait") {
      await pauseTrajectory(ep, s, { stepIndex: index, tool: action });
      s.waiting = { interventionId: g.interventionId, stepIndex: index };
      return;
    }
    if (g.kind === "rejected") return completeBlocked(ep, s, call, g.feedback);
  }
  await completeObserved(ep, s, call);
}

/** The call runs: observed (input check, emulator), stored, handed back to the agent. */
async function completeObserved(ep: Episode, s: EpisodeState, call: PendingCall): Promise<void> {
  const { index, action, actionInputRaw } = call;
  const o = await observe(ep, s, index, { action, actionInputRaw }, call.usage);
  if (isErrorObject(o.observation)) s.hasErrors = true;
  await completeStep(ep, call.stepId, o, call.usage);
  s.rawSteps.push({ action, actionInputRaw, agentLog: call.agentLog, observationRaw: o.observationRaw, summary: o.emulatorSummary ?? "", simulatorLog: o.simulatorLog });
  s.history.push({ action, actionInput: actionInputRaw, observation: o.observationRaw, summary: o.emulatorFailure ? null : o.emulatorSummary });
  s.messages = [...s.messages, ...agentTurnMessages(call.agentLog, o.observationRaw)];
  await ep.opts.onStep?.({ trajectoryId: ep.trajectoryId, index, action, inputInvalid: o.inputInvalid, parseError: null, emulatorFailure: o.emulatorFailure, emulatorRounds: o.emulatorRounds, observationRaw: o.observationRaw });
}

/** The user rejected the call: it never runs; the agent observes that it was blocked (with the feedback). */
async function completeBlocked(ep: Episode, s: EpisodeState, call: PendingCall, feedback: string | null): Promise<void> {
  const { index, action, actionInputRaw } = call;
  const observationRaw = blockedObservation(feedback);
  s.hasErrors = true;
  await completeStep(
    ep,
    call.stepId,
    { actionInput: safeJson(actionInputRaw), observationRaw, observation: safeJson(observationRaw), inputInvalid: false, emulatorRounds: 0, emulatorFailure: null, emulatorThought: null, emulatorSummary: null, critiques: null },
    call.usage,
  );
  // The emulator's history keeps the blocked call too, so later observations agree that it did not run.
  s.rawSteps.push({ action, actionInputRaw, agentLog: call.agentLog, observationRaw, summary: "", simulatorLog: "" });
  s.history.push({ action, actionInput: actionInputRaw, observation: observationRaw, summary: null });
  s.messages = [...s.messages, ...agentTurnMessages(call.agentLog, observationRaw)];
  await ep.opts.onStep?.({ trajectoryId: ep.trajectoryId, index, action, inputInvalid: false, parseError: null, emulatorFailure: null, emulatorRounds: 0, observationRaw });
}

/** A resumed episode's pending call, settled by its intervention's answer (still unanswered: it waits again). */
async function settlePending(ep: Episode, s: EpisodeState, call: PendingCall): Promise<void> {
  const a = call.answer;
  if (!a) throw new Error(`Step ${call.index + 1} of trajectory ${ep.trajectoryId} has no observation and no intervention; it cannot be resumed.`);
  if (a.status === "PENDING") {
    await pauseTrajectory(ep, s, { stepIndex: call.index, tool: call.action });
    s.waiting = { interventionId: a.interventionId, stepIndex: call.index };
    return;
  }
  if (a.status === "REJECTED") return completeBlocked(ep, s, call, a.feedback);
  await completeObserved(ep, s, call);
}

/** Anything thrown ends the episode INTERRUPTED with its reason (cancelled, llm_error or crashed). */
async function markInterrupted(ep: Episode, s: EpisodeState, e: unknown): Promise<void> {
  s.stopReason = ep.opts.signal?.aborted ? "cancelled" : e instanceof LlmCallError ? "llm_error" : "crashed";
  s.stopDetail = e instanceof Error ? e.message : String(e);
  s.errorKind = e instanceof LlmCallError ? e.kind : null;
  try {
    await finishTrajectory(ep, s, "INTERRUPTED");
  } catch (e2) {
    // The database itself failed: the row stays RUNNING; say both.
    throw new Error(`Episode ${ep.trajectoryId} failed (${s.stopDetail}) and could not be marked interrupted: ${e2 instanceof Error ? e2.message : String(e2)}`);
  }
}

function isErrorObject(o: unknown): boolean {
  return !!o && typeof o === "object" && !Array.isArray(o) && "error" in o;
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
