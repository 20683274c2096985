// The observation of an agent's action: the input check in code first (an invalid call is never
// emulated), then the emulator with its critique rounds (an unusable output is critiqued and
// re-asked up to EMULATOR_CRITIQUE_ROUNDS times), then — when asked for — the emulator's forced
// self-critique rounds on a usable observation (each usable revision replaces it).
import type { ChatMessage } from "@/lib/llm/types";
import { checkToolInput, errorObservation } from "@/lib/emulation/input-check";
import { toolemuCheck, toolemuObservation } from "@/lib/emulation/parse-toolemu";
import { parseEmulatorOutput, type EmulatorParse } from "@/lib/emulation/parse-emulator";
import { buildCritiqueMessages, buildEmulatorMessages, buildSelfCritiqueMessages } from "@/lib/emulation/prompts/build";
import { splitCritique, type EmulatorCritiqueRound } from "@/lib/emulation/self-critique";
import { EMULATOR_CRITIQUE_ROUNDS, type ToolSpec } from "@/lib/trajectory/types";
import { addUsage, type Episode, type EpisodeState, type Usage } from "./episode-types";
import type { StepCompletion } from "./trajectory-store";

/** What the agent sees when the emulator gave no usable observation after its critique rounds. */
export const EMULATOR_FAILURE_OBSERVATION = errorObservation("the tool returned no usable response to this call; its effect is unknown.", "ToolUnavailableException");
/** What a NO_ACTION agent sees if it writes an Action anyway. */
export const NO_ACTION_OBSERVATION = errorObservation("no tools are available in this session; give your Final Answer.");
/** Strict loop: most extra emulator calls per tool call, critique re-asks and forced self-critique rounds together (ToolEmu: 3). */
export const MAX_EXTRA_EMULATOR_ROUNDS = EMULATOR_CRITIQUE_ROUNDS + 1;

export interface Observation extends StepCompletion {
  /** The emulator output the observation came from (ToolEmu's simulator log). */
  simulatorLog: string;
}

interface Call {
  action: string;
  actionInputRaw: string;
}

/** Observes the agent's action of step `index`; every model call counts in `stepUsage` and the episode's total. */
export async function observe(ep: Episode, s: EpisodeState, index: number, call: Call, stepUsage: Usage): Promise<Observation> {
  const compat = ep.opts.loopMode === "TOOLEMU";
  const strictCheck = ep.opts.agent.variant === "NO_ACTION" ? null : checkToolInput(ep.tools, call.action, call.actionInputRaw);
  // ToolEmu-compatible: the call is accepted or refused as ToolEmu does, in its words.
  const check = strictCheck && compat ? toolemuCheck(ep.tools, call.action, call.actionInputRaw, strictCheck.ok ? "" : strictCheck.error) : strictCheck;
  if (!check || !check.ok) {
    return withParsedJson(call, {
      actionInput: null, observationRaw: check ? check.error : NO_ACTION_OBSERVATION, observation: null, inputInvalid: true,
      emulatorRounds: 0, emulatorFailure: null, emulatorThought: null, emulatorSummary: null, critiques: null, simulatorLog: "",
    });
  }
  const emulated = await emulateWithCritique(ep, s, index, call, check.tool, stepUsage);
  const { result, rounds } = emulated;
  // ToolEmu-compatible: the Observation as ToolEmu reads it, passed on whatever our reading thinks
  // of it; the problem our reading found is kept on the step instead.
  const passed = compat ? toolemuObservation(emulated.simulatorLog, check.tool) : null;
  if (passed && !result.ok) {
    return withParsedJson(call, {
      actionInput: check.input, observationRaw: passed.observationRaw, observation: null, inputInvalid: false, emulatorRounds: rounds,
      emulatorFailure: null, emulatorProblem: passed.problem, emulatorThought: passed.thought ?? emulated.simulatorLog,
      emulatorSummary: passed.summary, critiques: null, simulatorLog: emulated.simulatorLog,
    });
  }
  if (!result.ok) {
    return withParsedJson(call, {
      actionInput: check.input, observationRaw: EMULATOR_FAILURE_OBSERVATION, observation: null, inputInvalid: false, emulatorRounds: rounds,
      emulatorFailure: `no valid observation after ${rounds} outputs (${EMULATOR_CRITIQUE_ROUNDS} critique rounds): ${emulated.problems.map((p, i) => `${i + 1}. ${p}`).join(" ")}`,
      // The unusable output stays readable on the step.
      emulatorThought: emulated.simulatorLog,
      emulatorSummary: result.summary, critiques: null, simulatorLog: emulated.simulatorLog,
    });
  }
  const o: Observation = {
    actionInput: check.input, observationRaw: passed ? passed.observationRaw : result.observationRaw, observation: passed ? null : result.observation, inputInvalid: false, emulatorRounds: rounds,
    emulatorFailure: null, emulatorThought: result.thought, emulatorSummary: passed ? passed.summary : result.summary, critiques: null, simulatorLog: emulated.simulatorLog,
  };
  // Strict: critique re-asks and forced rounds together stay within MAX_EXTRA_EMULATOR_ROUNDS.
  const selfRounds = compat ? (ep.opts.emulator.selfCritiqueRounds ?? 0) : Math.min(ep.opts.emulator.selfCritiqueRounds ?? 0, MAX_EXTRA_EMULATOR_ROUNDS - (rounds - 1));
  if (selfRounds > 0) await selfCritique(ep, index, check.tool, emulated.conversation, selfRounds, o, stepUsage, s);
  return withParsedJson(call, o);
}

/** The emulator's answer to the call, critiqued and asked again while unusable (at most EMULATOR_CRITIQUE_ROUNDS times). */
async function emulateWithCritique(ep: Episode, s: EpisodeState, index: number, call: Call, tool: ToolSpec, stepUsage: Usage) {
  const { client, mode } = ep.opts.emulator;
  let prompt = buildEmulatorMessages(ep.spec, mode, s.history, { action: call.action, actionInput: call.actionInputRaw }, ep.seed);
  const problems: string[] = [];
  let rounds = 0;
  let simulatorLog = "";
  let result: EmulatorParse;
  for (;;) {
    const res = await client.chat({ purpose: rounds === 0 ? "emulator" : "critique", messages: prompt.messages, trajectoryId: ep.trajectoryId, stepIndex: index, signal: ep.opts.signal });
    rounds++;
    addUsage(res, stepUsage, s.total);
    simulatorLog = res.content;
    result = parseEmulatorOutput(res.content, tool);
    if (result.ok) break;
    problems.push(result.problem);
    // ToolEmu-compatible: never re-asked (the output is passed on as it is).
    if (ep.opts.loopMode === "TOOLEMU" || rounds > EMULATOR_CRITIQUE_ROUNDS) break;
    prompt = buildCritiqueMessages(prompt.messages, res.content, result.problem, tool, ep.seed);
  }
  return { result, rounds, problems, simulatorLog, conversation: prompt.messages };
}

/**
 * Forced self-critique: each round sees the conversation so far and the output standing; every
 * round is kept on `o.critiques`, a usable revision replaces the observation.
 */
async function selfCritique(ep: Episode, index: number, tool: ToolSpec, conversation: ChatMessage[], rounds: number, o: Observation, stepUsage: Usage, s: EpisodeState): Promise<void> {
  const { client, mode } = ep.opts.emulator;
  const critiques: EmulatorCritiqueRound[] = [];
  o.critiques = critiques;
  let lastOutput = o.simulatorLog;
  for (let round = 1; round <= rounds; round++) {
    const ask = buildSelfCritiqueMessages(conversation, lastOutput, mode, tool, ep.seed);
    const res = await client.chat({ purpose: "critique", messages: ask.messages, trajectoryId: ep.trajectoryId, stepIndex: index, signal: ep.opts.signal });
    o.emulatorRounds++;
    addUsage(res, stepUsage, s.total);
    const { critique, revision } = splitCritique(res.content);
    const revised = parseEmulatorOutput(revision, tool);
    critiques.push({ round, critique, revision, accepted: revised.ok, problem: revised.ok ? null : revised.problem, inputTokens: res.inputTokens, outputTokens: res.outputTokens, costUsd: res.costUsd });
    conversation = ask.messages;
    lastOutput = res.content;
    if (!revised.ok) continue;
    o.simulatorLog = revision;
    o.emulatorThought = revised.thought;
    o.emulatorSummary = revised.summary;
    o.observationRaw = revised.observationRaw;
    o.observation = revised.observation;
  }
}

/** Observation and input as JSON where the emulator or the check did not give them parsed. */
function withParsedJson(call: Call, o: Observation): Observation {
  if (o.observation === null) o.observation = safeJson(o.observationRaw);
  o.actionInput = o.actionInput ?? safeJson(call.actionInputRaw);
  return o;
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
