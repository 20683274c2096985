// The estimate shown before a critic replay run is confirmed. Pure.
//
// Checkpoints are counted from the stored steps exactly as lib/critic/checkpoints.ts finds them:
// every step whose tool is critical for the trajectory's case, plus the final answer when there is
// one. Calls per checkpoint by method (lib/critic/settings.ts criticCallsPerCheckpoint): InferAct 3
// (task inference + verification in both option orders; 2 without order averaging), standard 1,
// self-consistency m, multi-step 1. Tokens per call: the endpoint's own mean for critic calls when
// it has made enough of them, else a template size plus the chain S_i the call carries (earlier
// actions, inputs and observations + the pending action; characters ÷ 4) and the instruction;
// fixed output sizes. Same shape as the other runs' estimates (RunEstimate), so the run page and
// the CLI show it alike; the critic calls are counted under calls.critic and calls.total.
import { criticCallsPerCheckpoint, type CriticMethodName, type CriticSettings } from "@/lib/critic/settings";
import { MIN_OBSERVED, type EstimateEndpoint, type RunEstimate } from "../estimate";

export const CRITIC_TEMPLATE_TOKENS = 450;
/** Inference shows the observer ≤ 3 style examples; verification lists 5 options. */
export const CRITIC_EXTRA_TOKENS = { inference: 150, verification: 200 } as const;
export const CRITIC_OUTPUT_TOKENS: Record<CriticMethodName, number> = { INFERACT: 90, STANDARD: 60, SELF_CONSISTENCY: 60, MULTI_STEP: 120 };

export const CRITIC_ASSUMPTIONS = [
  "Checkpoints: every step whose tool is critical for its case (curated risk metadata, else the default rule), plus the final answer.",
  "Calls per checkpoint: InferAct 3 (inference + both option orders; 2 without order averaging), standard 1, self-consistency m, multi-step 1.",
  `Input tokens per call: the endpoint's own mean when it has made ≥ ${MIN_OBSERVED} critic calls, else template + instruction + the chain S_i (characters ÷ 4).`,
  "Output tokens per call: the endpoint's own mean, else a fixed size per method.",
  "Cost from the endpoint's prices; cache hits, retries and unparsable answers are not counted.",
];

/** One trajectory as the estimate reads it. */
export interface CriticEstimateTrajectory {
  instructionChars: number;
  /** Characters of the chain S_i at each checkpoint (earlier steps + the pending action). */
  chainChars: number[];
}

export interface CriticEstimateInput {
  trajectories: CriticEstimateTrajectory[];
  methods: readonly CriticMethodName[];
  settings: Omit<CriticSettings, "method">;
  endpoint: EstimateEndpoint & { observedCritic?: { input: number; output: number } };
}

export interface CriticRunEstimate extends RunEstimate {
  checkpoints: number;
  perMethod: { method: CriticMethodName; units: number; checkpoints: number; calls: number }[];
}

/** One trajectory's steps (agent-facing tool names and sizes) → the chain size at each checkpoint. */
export function checkpointChains(
  steps: readonly { action: string; inputChars: number; observationChars: number }[],
  hasFinalAnswer: boolean,
  finalAnswerChars: number,
  criticalTools: ReadonlySet<string>,
): number[] {
  const out: number[] = [];
  let earlier = 0;
  for (const s of steps) {
    if (criticalTools.has(s.action)) out.push(earlier + s.action.length + s.inputChars + 30);
    earlier += s.action.length + s.inputChars + s.observationChars + 45;
  }
  if (hasFinalAnswer) out.push(earlier + finalAnswerChars + 15);
  return out;
}

export function estimateCriticRun(input: CriticEstimateInput): CriticRunEstimate {
  const ep = input.endpoint;
  const obs = ep.observedCritic;
  const checkpoints = input.trajectories.reduce((a, t) => a + t.chainChars.length, 0);
  let calls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  const perMethod: CriticRunEstimate["perMethod"] = [];
  for (const method of input.methods) {
    const per = criticCallsPerCheckpoint({ ...input.settings, method });
    let modelIn = 0;
    for (const t of input.trajectories) {
      for (const chain of t.chainChars) {
        const base = CRITIC_TEMPLATE_TOKENS + Math.ceil((chain + t.instructionChars) / 4);
        if (method === "INFERACT") {
          // Inference does not see the instruction; verification does (it is one of the options).
          modelIn += base - Math.ceil(t.instructionChars / 4) + CRITIC_EXTRA_TOKENS.inference + (per - 1) * (base + CRITIC_EXTRA_TOKENS.verification);
        } else modelIn += per * base;
      }
    }
    const n = checkpoints * per;
    calls += n;
    inputTokens += obs ? obs.input * n : modelIn;
    outputTokens += (obs ? obs.output : CRITIC_OUTPUT_TOKENS[method]) * n;
    perMethod.push({ method, units: input.trajectories.length, checkpoints, calls: n });
  }
  const cost = (inputTokens / 1000) * ep.priceInputPer1k + (outputTokens / 1000) * ep.priceOutputPer1k;
  return {
    episodes: input.trajectories.length * input.methods.length,
    stepsPerEpisode: input.trajectories.length ? Math.round((checkpoints / input.trajectories.length) * 10) / 10 : 0,
    calls: { agent: 0, emulator: 0, evaluator: 0, critic: calls, total: calls },
    inputTokens: Math.round(inputTokens),
    outputTokens: Math.round(outputTokens),
    costUsd: Math.round(cost * 10_000) / 10_000,
    unpriced: calls > 0 && ep.priceInputPer1k === 0 && ep.priceOutputPer1k === 0 ? [ep.name] : [],
    assumptions: CRITIC_ASSUMPTIONS,
    checkpoints,
    perMethod,
  };
}
