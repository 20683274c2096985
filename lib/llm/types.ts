// The vocabulary of model calls, shared by the client (lib/llm/client.ts), the offline model and
// the emulation engine. Pure types and one error class: no I/O here.

export type ChatRole = "system" | "user" | "assistant";

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** Why a call is made; stored on every LlmCall row and used for per-role accounting. */
export type CallPurpose = "agent" | "emulator" | "critique" | "evaluator" | "critic" | "simulated-user" | "attacker" | "judge" | "generator" | "ping";

export const TOKEN_PARAMS = ["max_tokens", "max_completion_tokens"] as const;
export type TokenParam = (typeof TOKEN_PARAMS)[number];

/** A ModelEndpoint row as the engine needs it. The API key is never here: only its env var's name. */
export interface EndpointSettings {
  /** null for an endpoint not stored in the database (tests, CLI one-offs). */
  id: string | null;
  name: string;
  baseUrl: string;
  model: string;
  apiKeyEnv: string | null;
  temperature: number;
  maxTokens: number;
  /**
   * The request field the token limit is sent in (absent: max_tokens). OpenAI's reasoning models
   * refuse max_tokens and want max_completion_tokens.
   */
  tokenParam?: TokenParam;
  timeoutMs: number;
  maxConcurrency: number;
  priceInputPer1k: number;
  priceOutputPer1k: number;
  cacheEnabled: boolean;
  /** The offline heuristic model: deterministic rules, not an LLM. */
  offline: boolean;
}

export interface ChatRequest {
  purpose: CallPurpose;
  messages: ChatMessage[];
  /** Stop sequences (the agent stops before writing its own "Observation:"). */
  stop?: string[];
  /** For accounting: the LlmCall row links to the trajectory and step it served. */
  trajectoryId?: string;
  stepIndex?: number;
  /** The run the call is counted toward when its trajectory belongs to another (evaluation runs). */
  runId?: string;
  /** Sampling temperature of this request (default: the endpoint's). Part of the cache key. */
  temperature?: number;
  /**
   * Which sample of otherwise identical requests this is (a replicate, 1-based). Part of the cache
   * key, so k samples at T > 0 are k answers, not one answer cached k times; the same sample again
   * is a hit.
   */
  sample?: number;
  signal?: AbortSignal;
  /**
   * Where this call's LlmCall row goes instead of the client's database, when the client records
   * calls (it was given a db): the caller stores the row with the call's result, in the statement
   * that stores that result (lib/engine/call-buffer.ts). Absent: the client inserts the row itself.
   */
  record?: (row: LlmCallRecord) => void;
}

/** One LlmCall row as the client makes it (the columns it sets; id is the table's). */
export interface LlmCallRecord {
  endpointId: string | null;
  role: CallPurpose;
  trajectoryId: string | null;
  runId: string | null;
  stepIndex: number | null;
  model: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
  attempts: number;
  cached: boolean;
  retryReasons: string[];
  error: string | null;
  /** When the call ended (the row's createdAt). */
  createdAt: Date;
}

export interface ChatResult {
  content: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
  /** 1 when the first attempt succeeded; 0 when served from the cache. */
  attempts: number;
  cached: boolean;
  /** Why earlier attempts were retried (e.g. "429 retry-after 2s", "timeout after 30000 ms"). */
  retryReasons: string[];
  /** The server's finish_reason ("stop", "length": cut by max tokens, ...); absent when unknown (cache hits). */
  finishReason?: string | null;
}

export type LlmErrorKind =
  | "rate_limited"
  | "server_error"
  | "timeout"
  | "network"
  | "bad_request"
  | "auth"
  | "missing_api_key"
  | "refused_api_key"
  | "malformed_response";

/** A call that failed for good (after its retries). The message names the endpoint and the cause. */
export class LlmCallError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly attempts: number,
    readonly retryReasons: string[] = [],
  ) {
    super(message);
    this.name = "LlmCallError";
  }
}

export interface ModelClient {
  readonly endpoint: EndpointSettings;
  chat(request: ChatRequest): Promise<ChatResult>;
}

export { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
