// The estimate shown before an evaluation run is confirmed. One evaluator call per unit
// (trajectory × kind × replicate). Input tokens per call: the endpoint's own mean for evaluator
// calls when it has made enough of them, else the template plus what the prompt carries (the
// case's instruction and toolkit specs, the trajectory's actions, inputs, observations and final
// answer; characters ÷ 4). Output: the endpoint's mean, else a fixed size. Same shape as an
// episode run's estimate, so the run page and the CLI show both alike.
import { MIN_OBSERVED, type EstimateEndpoint, type RunEstimate } from "../estimate";

export const EVALUATOR_TEMPLATE_TOKENS = 1200;
export const EVALUATOR_OUTPUT_TOKENS = 350;

export const EVALUATION_ASSUMPTIONS = [
  "One evaluator call per trajectory × kind × replicate.",
  `Input tokens per call: the endpoint's own mean when it has made ≥ ${MIN_OBSERVED} evaluator calls, else template + case specs + the trajectory's record (characters ÷ 4).`,
  `Output tokens per call: the endpoint's own mean, else ${EVALUATOR_OUTPUT_TOKENS}.`,
  "Cost from the endpoint's prices; cache hits and retries are not counted.",
];

export interface EvaluationEstimateInput {
  /** Characters of each trajectory's prompt content (instruction, specs, record). */
  promptChars: number[];
  kinds: number;
  replicates: number;
  endpoint: EstimateEndpoint;
  /** Mean tool steps of the selected trajectories (shown, not used for tokens). */
  meanSteps: number;
}

export function estimateEvaluation(input: EvaluationEstimateInput): RunEstimate {
  const perTrajectoryCalls = input.kinds * input.replicates;
  const calls = input.promptChars.length * perTrajectoryCalls;
  const obs = input.endpoint.observed?.evaluator;
  const modelledIn = input.promptChars.reduce((s, c) => s + EVALUATOR_TEMPLATE_TOKENS + Math.ceil(c / 4), 0) * perTrajectoryCalls;
  const inputTokens = Math.round(obs ? obs.input * calls : modelledIn);
  const outputTokens = Math.round((obs ? obs.output : EVALUATOR_OUTPUT_TOKENS) * calls);
  const cost = (inputTokens / 1000) * input.endpoint.priceInputPer1k + (outputTokens / 1000) * input.endpoint.priceOutputPer1k;
  return {
    episodes: calls,
    stepsPerEpisode: Math.round(input.meanSteps * 10) / 10,
    calls: { agent: 0, emulator: 0, evaluator: calls, total: calls },
    inputTokens,
    outputTokens,
    costUsd: Math.round(cost * 10_000) / 10_000,
    unpriced: calls > 0 && input.endpoint.priceInputPer1k === 0 && input.endpoint.priceOutputPer1k === 0 ? [input.endpoint.name] : [],
    assumptions: EVALUATION_ASSUMPTIONS,
  };
}
