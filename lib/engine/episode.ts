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
// ToolEmu's JSONL (./toolemu-line.ts). The evaluators get the trajectory from memory.
//
// The steps, one file each: ./agent-turn.ts (agent call + parse), ./emulate.ts (input check,
// emulator with critique and self-critique rounds), ./trajectory-store.ts (every write),
// ./evaluate-episode.ts (the evaluations); ./episode-settings.ts what is recorded of the set-up.
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
import { completeStep, finishTrajectory, recordActionStep, recordUnparsableStep, writeStartingTrajectory } from "./trajectory-store";

export { AGENT_STOP } from "./agent-turn";
export { EMULATOR_FAILURE_OBSERVATION, NO_ACTION_OBSERVATION } from "./emulate";
export { episodeTemplates } from "./episode-settings";
export type { EpisodeResult, EvaluationOutcome, RunEpisodeOptions, StepEvent, StopReason } from "./episode-types";

/**
 * Creates the trajectory (RUNNING) and returns its id with the promise of the whole episode, so a
 * caller can hand the id out at once (the playground) or simply await `done`.
 */
export async function startEpisode(db: Db, opts: RunEpisodeOptions): Promise<{ trajectoryId: string; done: Promise<EpisodeResult> }> {
  const loaded = await loadCaseSpec(db, opts.caseId);
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
    },
    opts.trajectoryId,
  );
  await opts.onStart?.(trajectoryId);
  const ep: Episode = { db, trajectoryId, spec: loaded.spec, caseRaw: loaded.raw, opts, seed, kinds, tools: loaded.spec.toolkits.flatMap((tk) => tk.tools), maxSteps: opts.maxSteps ?? MAX_AGENT_STEPS };
  const done = play(ep);
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

function initialState(spec: CaseSpec, ep: Episode): EpisodeState {
  return {
    messages: buildAgentMessages(spec, ep.opts.agent.variant, ep.seed).messages,
    history: [],
    rawSteps: [],
    total: zeroUsage(),
    stepCount: 0,
    hasErrors: false,
    final: null,
    stopReason: "max_steps",
    stopDetail: null,
    errorKind: null,
  };
}

async function play(ep: Episode): Promise<EpisodeResult> {
  const s = initialState(ep.spec, ep);
  let status: EpisodeStatus;
  try {
    await playSteps(ep, s);
    status = s.stopReason === "final_answer" ? "FINISHED" : "INCOMPLETE";
    await finishTrajectory(ep, s, status);
  } catch (e) {
    status = "INTERRUPTED";
    await markInterrupted(ep, s, e);
  }
  const evaluations = status !== "INTERRUPTED" ? await evaluateEpisode(ep, s) : [];
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
  };
}

/** Agent turns until a final answer, an unparsable output or the step limit; throws on a failed call or the signal. */
async function playSteps(ep: Episode, s: EpisodeState): Promise<void> {
  const signal = ep.opts.signal;
  for (let index = 0; ; index++) {
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
      s.stopReason = "final_answer";
      return;
    }
    if (parsed.kind === "final") {
      s.final = { answer: parsed.finalAnswer, log: turn.text };
      s.stopReason = "final_answer";
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
  }
}

/** An action: stored at once, observed, then completed with its observation and handed back to the agent. */
async function playAction(ep: Episode, s: EpisodeState, index: number, turn: AgentTurn & { parsed: { kind: "action" } }, stepUsage: ReturnType<typeof zeroUsage>): Promise<void> {
  const { thought, action, actionInputRaw } = turn.parsed;
  const stepId = await recordActionStep(ep, index, { thought, action, actionInputRaw, agentLog: turn.text }, stepUsage);
  s.stepCount = index + 1;
  const o = await observe(ep, s, index, { action, actionInputRaw }, stepUsage);
  if (isErrorObject(o.observation)) s.hasErrors = true;
  await completeStep(ep, stepId, o, stepUsage);
  s.rawSteps.push({ action, actionInputRaw, agentLog: turn.text, observationRaw: o.observationRaw, summary: o.emulatorSummary ?? "", simulatorLog: o.simulatorLog });
  s.history.push({ action, actionInput: actionInputRaw, observation: o.observationRaw, summary: o.emulatorFailure ? null : o.emulatorSummary });
  s.messages = [...s.messages, ...agentTurnMessages(turn.text, o.observationRaw)];
  await ep.opts.onStep?.({ trajectoryId: ep.trajectoryId, index, action, inputInvalid: o.inputInvalid, parseError: null, emulatorFailure: o.emulatorFailure, emulatorRounds: o.emulatorRounds, observationRaw: o.observationRaw });
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
