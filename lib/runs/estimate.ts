// The estimate shown before a run is confirmed: LLM calls, tokens and cost. An estimate, not a
// promise — what it assumes is listed with it (ASSUMPTIONS) and shown in the form:
//
//   - tool steps per episode = the mean step count of the trajectories already in the database
//     (imported or emulated; DEFAULT_STEPS when there are none), at most MAX_AGENT_STEPS; the
//     NO_ACTION baseline takes no tool step;
//   - calls per episode: one agent call per step plus the final answer; one emulator call per
//     step plus EMULATOR_RETRY_SHARE critique re-asks (strict loop rules only: the
//     ToolEmu-compatible loop passes an unusable output on instead of re-asking), plus the forced self-critique rounds per
//     step (each one reads the emulator prompt, its earlier answers and a short critique request);
//     two evaluator calls (safety, helpfulness) when an evaluator is chosen;
//   - tokens per call: when an endpoint already has ≥ MIN_OBSERVED successful calls for a role,
//     their mean input and output tokens; otherwise a size model — the prompt template, the
//     case's instruction and its toolkits' specs (characters ÷ 4), and a scratchpad that grows by
//     SCRATCHPAD_TOKENS_PER_STEP each step — with fixed output sizes;
//   - cost = tokens × the endpoint's price per 1k input/output tokens; cache hits, retries and
//     failed attempts are not counted (an upper bound on cache hits, a lower bound on retries).
import { MAX_AGENT_STEPS } from "@/lib/trajectory/types";

export const DEFAULT_STEPS = 4;
export const MIN_OBSERVED = 20;
export const EMULATOR_RETRY_SHARE = 0.1;
export const SCRATCHPAD_TOKENS_PER_STEP = 250;
const TEMPLATE_TOKENS = { agent: 700, emulator: 900, evaluator: 1200 } as const;
const OUTPUT_TOKENS = { agent: 120, emulator: 250, evaluator: 350 } as const;
const ADVERSARIAL_EXTRA_TOKENS = 300;
const EVALUATOR_TOKENS_PER_STEP = 300;
const SELF_CRITIQUE_REQUEST_TOKENS = 200;

export const ASSUMPTIONS = [
  "Tool steps per episode: the mean of the trajectories already stored (4 when there are none); NO_ACTION takes none.",
  "Per episode: one agent call per step + 1, one emulator call per step, 2 evaluator calls.",
  "Tokens per call: the endpoint's own mean when it has made ≥ 20 such calls, else prompt + specs + a scratchpad growing 250 tokens a step.",
  "Cost from the endpoints' prices; cache hits and retries are not counted.",
];
const RETRY_ASSUMPTION = {
  STRICT: "Strict loop rules: 10% more emulator calls for critique re-asks of unusable outputs.",
  TOOLEMU: "ToolEmu-compatible loop rules: unusable emulator outputs are passed on (flagged), never re-asked.",
} as const;
const selfCritiqueAssumption = (n: number) => `Emulator self-critique: ${n} extra emulator call${n === 1 ? "" : "s"} per tool step, each reading the emulator prompt and its earlier answers.`;

export type EstimateRole = "agent" | "emulator" | "evaluator";

export interface EstimateEndpoint {
  id: string;
  name: string;
  priceInputPer1k: number;
  priceOutputPer1k: number;
  /** Mean tokens per successful call by role, from this endpoint's history (when there is enough). */
  observed?: Partial<Record<EstimateRole, { input: number; output: number }>>;
}

export interface EstimateCase {
  id: string;
  /** Tokens of the instruction (chars ÷ 4). */
  instructionTokens: number;
  /** Tokens of the case's toolkit specs as the prompts render them (chars ÷ 4). */
  specTokens: number;
}

export interface EstimateInput {
  cases: EstimateCase[];
  agents: { endpoint: EstimateEndpoint; variant: string }[];
  emulator: EstimateEndpoint;
  evaluator: EstimateEndpoint | null;
  modes: string[];
  repeats: number;
  /** Forced emulator self-critique rounds per tool step (default 0). */
  selfCritiqueRounds?: number;
  /** The run's loop rules (default STRICT): only strict re-asks unusable emulator outputs. */
  loopMode?: "TOOLEMU" | "STRICT";
  /** Mean tool steps per episode seen so far (null: none seen). */
  meanSteps: number | null;
}

export interface RunEstimate {
  episodes: number;
  stepsPerEpisode: number;
  /**
   * critic: a critic replay run's calls (lib/runs/critic/estimate.ts); attacker, judge: a SAGE run's
   * (lib/runs/sage/estimate.ts, upper bounds); absent for the other kinds.
   */
  calls: { agent: number; emulator: number; evaluator: number; critic?: number; attacker?: number; judge?: number; total: number };
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Endpoints without a price (cost counted as 0). */
  unpriced: string[];
  assumptions: string[];
}

export function estimateRun(input: EstimateInput): RunEstimate {
  const steps = Math.min(MAX_AGENT_STEPS, Math.max(0, input.meanSteps ?? DEFAULT_STEPS));
  const calls = { agent: 0, emulator: 0, evaluator: 0, total: 0 };
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  const used = new Map<string, EstimateEndpoint>();
  const loopMode = input.loopMode ?? "STRICT";
  const retryShare = loopMode === "STRICT" ? EMULATOR_RETRY_SHARE : 0;

  const charge = (ep: EstimateEndpoint, role: EstimateRole, n: number, modelIn: number, modelOut: number) => {
    if (n <= 0) return;
    used.set(ep.id, ep);
    const obs = ep.observed?.[role];
    const inTok = (obs ? obs.input : modelIn / n) * n;
    const outTok = (obs ? obs.output : modelOut / n) * n;
    calls[role] += n;
    inputTokens += inTok;
    outputTokens += outTok;
    costUsd += (inTok / 1000) * ep.priceInputPer1k + (outTok / 1000) * ep.priceOutputPer1k;
  };

  for (const c of input.cases) {
    const base = c.instructionTokens + c.specTokens;
    for (const mode of input.modes) {
      const adversarial = mode === "ADVERSARIAL" ? ADVERSARIAL_EXTRA_TOKENS : 0;
      for (const a of input.agents) {
        const s = a.variant === "NO_ACTION" ? 0 : steps;
        // Sum over agent calls k = 0..s of (template + base + k × scratchpad).
        const agentCalls = s + 1;
        const agentIn = agentCalls * (TEMPLATE_TOKENS.agent + base) + SCRATCHPAD_TOKENS_PER_STEP * ((s * (s + 1)) / 2);
        const emuCalls = s * (1 + retryShare);
        let emuIn = emuCalls * (TEMPLATE_TOKENS.emulator + base + adversarial) + SCRATCHPAD_TOKENS_PER_STEP * ((s * (s - 1)) / 2) * (1 + retryShare);
        // Self-critique round k of a step re-reads that step's emulator prompt plus k answers and k requests.
        const rounds = input.selfCritiqueRounds ?? 0;
        const critiqueCalls = s * rounds;
        for (let k = 1; k <= rounds; k++) {
          emuIn += s * (TEMPLATE_TOKENS.emulator + base + adversarial + k * (OUTPUT_TOKENS.emulator + SELF_CRITIQUE_REQUEST_TOKENS)) + SCRATCHPAD_TOKENS_PER_STEP * ((s * (s - 1)) / 2);
        }
        const emuCallsAll = emuCalls + critiqueCalls;
        for (let r = 0; r < input.repeats; r++) {
          charge(a.endpoint, "agent", agentCalls, agentIn, agentCalls * OUTPUT_TOKENS.agent);
          charge(input.emulator, "emulator", emuCallsAll, emuIn, emuCallsAll * OUTPUT_TOKENS.emulator);
          if (input.evaluator) {
            const evIn = 2 * (TEMPLATE_TOKENS.evaluator + c.instructionTokens + s * EVALUATOR_TOKENS_PER_STEP);
            charge(input.evaluator, "evaluator", 2, evIn, 2 * OUTPUT_TOKENS.evaluator);
          }
        }
      }
    }
  }
  calls.total = calls.agent + calls.emulator + calls.evaluator;
  const round = (x: number) => Math.round(x);
  return {
    episodes: input.cases.length * input.modes.length * input.agents.length * input.repeats,
    stepsPerEpisode: Math.round(steps * 10) / 10,
    calls: { agent: round(calls.agent), emulator: round(calls.emulator), evaluator: round(calls.evaluator), total: round(calls.total) },
    inputTokens: round(inputTokens),
    outputTokens: round(outputTokens),
    costUsd: Math.round(costUsd * 10_000) / 10_000,
    unpriced: [...used.values()].filter((e) => e.priceInputPer1k === 0 && e.priceOutputPer1k === 0).map((e) => e.name),
    assumptions: [...ASSUMPTIONS, RETRY_ASSUMPTION[loopMode], ...(input.selfCritiqueRounds ? [selfCritiqueAssumption(input.selfCritiqueRounds)] : [])],
  };
}
