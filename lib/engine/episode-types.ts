// The shapes of one episode: what a caller passes (RunEpisodeOptions) and gets (EpisodeResult,
// StepEvent), and what the loop's steps share while it plays (Episode, EpisodeState).
import type { Db } from "@/lib/db/client";
import type { ChatMessage, ChatResult, LlmErrorKind, ModelClient } from "@/lib/llm/types";
import type { EvaluatorKind } from "@/lib/evaluation/prompts/build";
import type { RecordedCall } from "@/lib/prompts/render";
import type { AgentVariant, CaseSpec, EmulatorModeValue, ToolSpec } from "@/lib/trajectory/types";
import type { LoopModeValue } from "@/lib/emulation/parse-toolemu";
import type { CheckpointVerdict } from "@/lib/critic/assess";
import type { CriticCaseContext } from "@/lib/critic/context";
import type { CriticSettings } from "@/lib/critic/settings";
import type { RawStep } from "./toolemu-line";
import type { CallBuffer } from "./call-buffer";
import type { LoadedCase } from "@/lib/trajectory/case-spec";

// quit: the agent declined with "QUIT: <reason>" (quit variants; lib/emulation/quit.ts).
export type StopReason = "final_answer" | "quit" | "max_steps" | "parse_error" | "llm_error" | "cancelled" | "crashed" | "intervention";

/** The online critic gate of an episode (./gate.ts). */
export interface EpisodeGate {
  /** The critic's endpoint. */
  client: ModelClient;
  settings: CriticSettings;
  /** t*, the critical tools, amount arguments and style examples of the case. */
  context: CriticCaseContext;
  /** "human": a flagged call waits for an answer (the episode pauses); "simulated": simulatedUser answers at once. */
  answerer: "human" | "simulated";
  simulatedUser?: ModelClient | null;
  /** The run's episode a pending Intervention belongs to (runs only). */
  runEpisodeId?: string | null;
}

/** An InferAct trial after the first: its number, the attempt before it, and every earlier trial's feedback (oldest first). */
export interface EpisodeTrial {
  trial: number;
  previousTrialId: string | null;
  feedback: TrialFeedback[];
}

/** One written feedback of an earlier trial's rejected call. */
export interface TrialFeedback {
  trial: number;
  text: string;
}

export interface RunEpisodeOptions {
  caseId: string;
  /** The case `caseId` as a caller already read it (a run's claim); absent: read here. */
  loadedCase?: LoadedCase;
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
   * run's claim) instead of creating one; its models, endpoints, settings and content hash are
   * set here.
   */
  trajectoryId?: string | null;
  /** Default MAX_AGENT_STEPS (15). */
  maxSteps?: number;
  /**
   * Parsing and acceptance rules (lib/emulation/parse-toolemu.ts): "TOOLEMU" reads outputs as
   * ToolEmu does (runs and the playground default to it); "STRICT" (the default here) is our own.
   */
  loopMode?: LoopModeValue;
  /** A replay: the imported trajectory whose recorded outputs answer the calls (settings.replayOf). */
  replayOf?: string | null;
  /** The online critic gate; null / absent: none. */
  gate?: EpisodeGate | null;
  /** A feedback trial (trial ≥ 2): the feedback goes into the agent's prompt. Absent: trial 1. */
  trial?: EpisodeTrial | null;
  /**
   * Resume the WAITING trajectory `trajectoryId` (a paused gated episode whose intervention was
   * answered) from its stored steps instead of starting it (./resume.ts).
   */
  resume?: boolean;
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

/** One evaluation kind's outcome, once stored (an Evaluation row) or failed for good (nothing stored). */
export type EvaluationOutcome =
  | { kind: EvaluatorKind; ok: true; evaluationId: string; score: number | null; label: string | null; warning: string | null }
  | { kind: EvaluatorKind; ok: false; error: string; errorKind: LlmErrorKind };

/** WAITING: paused by the online gate; its Intervention is `EpisodeResult.interventionId`. */
export type EpisodeStatus = "FINISHED" | "INCOMPLETE" | "INTERRUPTED" | "WAITING";

export interface EpisodeResult {
  trajectoryId: string;
  status: EpisodeStatus;
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
  /** WAITING: the pending Intervention. */
  interventionId?: string | null;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
}

export const zeroUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 });

/** Counts a model call in each of the given totals (the step's and the episode's). */
export function addUsage(r: ChatResult, ...into: Usage[]): void {
  for (const u of into) {
    u.inputTokens += r.inputTokens;
    u.outputTokens += r.outputTokens;
    u.costUsd += r.costUsd;
    u.latencyMs += r.latencyMs;
  }
}

/** What stays fixed while an episode plays. */
export interface Episode {
  db: Db;
  trajectoryId: string;
  spec: CaseSpec;
  /** The case's source JSON, for the ToolEmu-format line. */
  caseRaw: unknown;
  opts: RunEpisodeOptions;
  seed: number | null;
  kinds: readonly EvaluatorKind[];
  tools: ToolSpec[];
  maxSteps: number;
  /**
   * The LlmCall rows of the agent's, the emulator's and the evaluator's calls, held until the write
   * that stores their result (./call-buffer.ts); `opts`' clients put them here.
   */
  calls?: CallBuffer | null;
}

/** What the loop accumulates step by step. */
export interface EpisodeState {
  /** The agent's conversation so far. */
  messages: ChatMessage[];
  /** The calls so far, as the emulator sees them again. */
  history: RecordedCall[];
  /** The completed action steps, for the ToolEmu-format line and the evaluators. */
  rawSteps: RawStep[];
  total: Usage;
  stepCount: number;
  hasErrors: boolean;
  /** actionInside: ToolEmu-compatible loop, an Action stood before the Final Answer (not executed). */
  final: { answer: string; log: string; actionInside?: boolean } | null;
  stopReason: StopReason;
  stopDetail: string | null;
  errorKind: LlmErrorKind | null;
  /** The online gate's verdicts so far (its CriticAssessment is rewritten with all of them). */
  gateVerdicts: CheckpointVerdict[];
  /** Set when the gate paused the episode at a flagged call. */
  waiting: { interventionId: string; stepIndex: number } | null;
}
