// The estimate shown before a SAGE run is confirmed — an upper bound on calls, since an episode
// stops early on a final answer or an unreadable agent output. Per episode with T turns
// (T = the scenario's turn limit, capped at 4 under the published-runner policy):
//   attacker ≤ T − 1 calls (turn 1 is the scenario's opening message), agent ≤ T calls,
//   one call per judge after the episode.
// Tokens per call: the endpoint's own mean for that role when it has made ≥ MIN_OBSERVED such
// calls, else a size model — the prompt template plus the scenario's visible texts (characters ÷ 4)
// and a conversation growing TURN_TOKENS a turn — with fixed output sizes. Same shape as an episode
// run's estimate (RunEstimate), so the run page and the CLI show it alike.
import { MIN_OBSERVED, type RunEstimate } from "../estimate";

export type SageEstimateRole = "agent" | "attacker" | "judge";

export interface SageEstimateEndpoint {
  id: string;
  name: string;
  priceInputPer1k: number;
  priceOutputPer1k: number;
  observed?: Partial<Record<SageEstimateRole, { input: number; output: number }>>;
}

const TEMPLATE_TOKENS: Record<SageEstimateRole, number> = { agent: 900, attacker: 800, judge: 1600 };
const OUTPUT_TOKENS: Record<SageEstimateRole, number> = { agent: 150, attacker: 120, judge: 350 };
export const TURN_TOKENS = 250;

export const SAGE_ASSUMPTIONS = [
  "Calls are upper bounds: per episode of T turns, the attacker at most T − 1 (turn 1 is the scenario's opening message), the agent at most T, each judge once; an episode that ends early on a final answer makes fewer.",
  "T = each scenario's own turn limit, capped at 4 under the published-runner policy.",
  `Tokens per call: the endpoint's own mean for that role when it has made ≥ ${MIN_OBSERVED} such calls, else template + the scenario's visible texts (characters ÷ 4) + ${TURN_TOKENS} tokens of conversation per turn.`,
  "Cost from the endpoints' prices; cache hits and retries are not counted.",
];

export interface SageEstimateInput {
  /** Per scenario: its turns under the run's policy and its visible text size. */
  scenarios: { turns: number; chars: number }[];
  agents: SageEstimateEndpoint[];
  attacker: SageEstimateEndpoint;
  judges: SageEstimateEndpoint[];
  contexts: number;
  repeats: number;
}

export function estimateSageRun(input: SageEstimateInput): RunEstimate & { maxTurns: number } {
  const calls = { agent: 0, emulator: 0, evaluator: 0, attacker: 0, judge: 0, total: 0 };
  let inputTokens = 0;
  let outputTokens = 0;
  let costUsd = 0;
  const used = new Map<string, SageEstimateEndpoint>();
  const charge = (ep: SageEstimateEndpoint, role: SageEstimateRole, n: number, modelIn: number) => {
    if (n <= 0) return;
    used.set(ep.id, ep);
    const obs = ep.observed?.[role];
    const inTok = obs ? obs.input * n : modelIn;
    const outTok = (obs ? obs.output : OUTPUT_TOKENS[role]) * n;
    calls[role] += n;
    inputTokens += inTok;
    outputTokens += outTok;
    costUsd += (inTok / 1000) * ep.priceInputPer1k + (outTok / 1000) * ep.priceOutputPer1k;
  };
  const per = input.contexts * input.repeats;
  let episodes = 0;
  let turnSum = 0;
  let maxTurns = 0;
  for (const s of input.scenarios) {
    const T = Math.max(1, s.turns);
    maxTurns = Math.max(maxTurns, T);
    const visible = Math.ceil(s.chars / 4);
    // Σ over turns t = 1..T of the conversation so far: TURN_TOKENS × T(T−1)/2.
    const conversation = (TURN_TOKENS * T * (T - 1)) / 2;
    for (const agent of input.agents) {
      episodes += per;
      turnSum += per * T;
      charge(agent, "agent", per * T, per * (T * (TEMPLATE_TOKENS.agent + visible) + conversation));
      charge(input.attacker, "attacker", per * (T - 1), per * ((T - 1) * (TEMPLATE_TOKENS.attacker + visible) + conversation));
      for (const j of input.judges) charge(j, "judge", per, per * (TEMPLATE_TOKENS.judge + visible + T * TURN_TOKENS));
    }
  }
  calls.total = calls.agent + calls.attacker + calls.judge;
  return {
    episodes,
    stepsPerEpisode: episodes ? Math.round((turnSum / episodes) * 10) / 10 : 0,
    maxTurns,
    calls,
    inputTokens: Math.round(inputTokens),
    outputTokens: Math.round(outputTokens),
    costUsd: Math.round(costUsd * 10_000) / 10_000,
    unpriced: [...used.values()].filter((e) => e.priceInputPer1k === 0 && e.priceOutputPer1k === 0).map((e) => e.name),
    assumptions: SAGE_ASSUMPTIONS,
  };
}

/** The turns a scenario plays under a cap (null: its own limit). */
export const turnsUnder = (turnLimit: number, cap: number | null) => Math.max(1, cap === null ? turnLimit : Math.min(turnLimit, cap));
