// What an episode records of how it was played (Trajectory.settings): each role's endpoint and
// sampling, the templates by id@version, the seed, the limits and the code version.
import type { ModelClient } from "@/lib/llm/types";
import type { EvaluatorKind } from "@/lib/evaluation/prompts/build";
import { EVALUATOR_TEMPLATES } from "@/lib/evaluation/prompts/evaluator";
import { AGENT_TEMPLATES } from "@/lib/emulation/prompts/agent";
import { EMULATOR_CRITIQUE, EMULATOR_SELF_CRITIQUE, EMULATOR_TEMPLATES } from "@/lib/emulation/prompts/emulator";
import { templateRef } from "@/lib/prompts/template";
import { EMULATOR_CRITIQUE_ROUNDS, MAX_AGENT_STEPS, type AgentVariant, type EmulatorModeValue } from "@/lib/trajectory/types";
import { APP_VERSION } from "@/lib/version";
import type { RunEpisodeOptions } from "./episode-types";

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

export function episodeSettings(opts: RunEpisodeOptions, kinds: readonly EvaluatorKind[], seed: number | null, selfCritiqueRounds: number) {
  const { variant } = opts.agent;
  const { mode } = opts.emulator;
  return {
    agent: { ...endpointSettings(opts.agent.client), variant },
    emulator: { ...endpointSettings(opts.emulator.client), mode },
    evaluator: opts.evaluator ? { ...endpointSettings(opts.evaluator.client), kinds } : null,
    templates: episodeTemplates(variant, mode, kinds, selfCritiqueRounds),
    seed,
    maxSteps: opts.maxSteps ?? MAX_AGENT_STEPS,
    critiqueRounds: EMULATOR_CRITIQUE_ROUNDS,
    selfCritiqueRounds,
    loopMode: opts.loopMode ?? "STRICT",
    ...(opts.replayOf ? { replayOf: opts.replayOf } : {}),
    // The online critic gate (./gate.ts): a trajectory says it was gated, by whom, how.
    ...(opts.gate
      ? {
          gate: {
            critic: endpointSettings(opts.gate.client),
            settings: opts.gate.settings,
            answerer: opts.gate.answerer,
            simulatedUser: opts.gate.answerer === "simulated" && opts.gate.simulatedUser ? endpointSettings(opts.gate.simulatedUser) : null,
            criticalTools: [...opts.gate.context.criticalTools].sort(),
          },
        }
      : {}),
    ...(opts.trial ? { trial: opts.trial.trial, previousTrialId: opts.trial.previousTrialId } : {}),
    codeVersion: APP_VERSION,
  };
}
