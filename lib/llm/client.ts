// The one way the app calls a model: the official `openai` SDK's chat.completions.create against
// the endpoint's base URL (OpenAI, Azure's v1 API, vLLM, Ollama, LM Studio, OpenRouter, the
// offline model — anything speaking the protocol), wrapped in what a long evaluation run needs:
//   - our own retries (the SDK's are off): exponential backoff with full jitter, the server's
//     Retry-After on 429/5xx, timeouts and network errors retried, 400/401/403/404 not;
//   - a per-endpoint concurrency limit (./limiter.ts, behind an interface);
//   - token and cost accounting from `usage`, one LlmCall row per call when a database is given;
//   - the response cache (./cache.ts) when the endpoint has it on.
// The API key is read from the environment variable the endpoint names, at call time; it never
// leaves this module (not in errors, rows or results).
import "server-only";
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { Db } from "@/lib/db/client";
import { cacheKey, readCache, writeCache } from "./cache";
import { apiKeyEnvProblem } from "./endpoint-schemas";
import { callCostUsd, estimateTokens } from "./cost";
import { processLimiter, type ConcurrencyLimiter } from "./limiter";
import { DEFAULT_BACKOFF, formatDelay, parseRetryAfter, retryDelay, type BackoffPolicy } from "./retry";
import { LlmCallError, type ChatRequest, type ChatResult, type EndpointSettings, type LlmCallRecord, type LlmErrorKind, type ModelClient } from "./types";

const DEFAULT_MAX_ATTEMPTS = 5;
/** Sent as the key to endpoints that need none (the SDK insists on one; never a real key from the environment). */
const NO_KEY = "no-key-needed";

export interface ModelClientOptions {
  /** Where LlmCall rows and cache entries go; without it nothing is recorded and nothing cached. */
  db?: Pick<Db, "llmCall" | "llmCacheEntry"> | null;
  /** Attempts per call, the first included (default 5). */
  maxAttempts?: number;
  backoff?: Partial<BackoffPolicy>;
  /** Waits between attempts (tests pass one that records and returns at once). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform [0, 1) for the jitter. */
  random?: () => number;
  /** Default: one in-process semaphore per endpoint, shared by every client of this process. */
  limiter?: ConcurrencyLimiter;
  /** Where API keys are read (default process.env). */
  env?: Record<string, string | undefined>;
  /** Extra request headers (e.g. OpenRouter's HTTP-Referer / X-Title; the offline model's x-offline-faults). */
  headers?: Record<string, string>;
}

/** What one failed attempt means for the call. */
interface Failure {
  kind: LlmErrorKind;
  retryable: boolean;
  /** Short, for retryReasons: "429 retry-after 2s", "timeout after 200 ms". */
  reason: string;
  /** For the final error message. */
  detail: string;
  retryAfterMs: number | null;
}

class MalformedResponse extends Error {}

export function createModelClient(endpoint: EndpointSettings, options: ModelClientOptions = {}): ModelClient {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS));
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...options.backoff };
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const limiter = options.limiter ?? processLimiter();
  const env = options.env ?? process.env;
  const db = options.db ?? null;
  const limitKey = endpoint.id ?? `${endpoint.baseUrl}|${endpoint.model}`;
  const label = `Endpoint "${endpoint.name}" (${endpoint.model} at ${endpoint.baseUrl})`;
  let sdk: { key: string; client: OpenAI } | null = null;

  function openai(apiKey: string): OpenAI {
    if (sdk?.key !== apiKey) {
      sdk = {
        key: apiKey,
        client: new OpenAI({
          apiKey,
          baseURL: endpoint.baseUrl,
          maxRetries: 0,
          timeout: endpoint.timeoutMs,
          // Explicit, so nothing from OPENAI_* variables goes to a server it was not meant for.
          organization: null,
          project: null,
          adminAPIKey: null,
          webhookSecret: null,
          defaultHeaders: options.headers,
        }),
      };
    }
    return sdk.client;
  }

  async function record(row: {
    purpose: ChatRequest["purpose"];
    request: ChatRequest;
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
    latencyMs: number;
    attempts: number;
    cached: boolean;
    retryReasons: string[];
    error: string | null;
  }) {
    if (!db) return;
    const data: LlmCallRecord = {
      endpointId: endpoint.id,
      role: row.purpose,
      trajectoryId: row.request.trajectoryId ?? null,
      runId: row.request.runId ?? null,
      stepIndex: row.request.stepIndex ?? null,
      model: endpoint.model,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      costUsd: row.costUsd,
      latencyMs: Math.round(row.latencyMs),
      attempts: row.attempts,
      cached: row.cached,
      retryReasons: row.retryReasons,
      error: row.error,
      createdAt: new Date(),
    };
    // The caller stores the row with the call's result (one statement for both).
    if (row.request.record) return row.request.record(data);
    await db.llmCall.create({ data });
  }

  async function fail(request: ChatRequest, t0: number, f: Failure, attempts: number, retryReasons: string[]): Promise<never> {
    const message =
      `${label}: ${f.detail}` +
      (attempts > 1 ? ` (gave up after ${attempts} attempts; earlier: ${retryReasons.join("; ")})` : attempts === 1 ? " (1 attempt)" : "");
    const error = new LlmCallError(f.kind, message, attempts, retryReasons);
    try {
      await record({ purpose: request.purpose, request, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: performance.now() - t0, attempts, cached: false, retryReasons, error: `${f.kind}: ${message}` });
    } catch (e) {
      console.error("[llm] could not record a failed call:", e);
    }
    throw error;
  }

  return {
    endpoint,
    async chat(request: ChatRequest): Promise<ChatResult> {
      const t0 = performance.now();
      const retryReasons: string[] = [];

      let apiKey = NO_KEY;
      if (endpoint.apiKeyEnv) {
        // Rows saved before the name rule (or written around the form) are refused here too:
        // the value is never read, let alone sent.
        const refused = apiKeyEnvProblem(endpoint.apiKeyEnv);
        if (refused) {
          return fail(request, t0, {
            kind: "refused_api_key",
            retryable: false,
            reason: "refused api key variable",
            detail: `the API key variable ${endpoint.apiKeyEnv} is not allowed, so no key was sent. ${refused} Edit the endpoint under Admin → Endpoints.`,
            retryAfterMs: null,
          }, 0, retryReasons);
        }
        const value = env[endpoint.apiKeyEnv];
        if (!value) {
          return fail(request, t0, {
            kind: "missing_api_key",
            retryable: false,
            reason: "missing api key",
            detail: `the environment variable ${endpoint.apiKeyEnv} (its API key) is not set on the server. Set it where the app and the worker run, then try again.`,
            retryAfterMs: null,
          }, 0, retryReasons);
        }
        apiKey = value;
      }

      const useCache = endpoint.cacheEnabled && !!db;
      const temperature = request.temperature ?? endpoint.temperature;
      const key = useCache
        ? cacheKey({ model: endpoint.model, messages: request.messages, temperature, maxTokens: endpoint.maxTokens, stop: request.stop, sample: request.sample })
        : "";
      if (useCache) {
        const hit = await readCache(db!, key);
        if (hit) {
          const result: ChatResult = { ...hit, costUsd: 0, latencyMs: performance.now() - t0, attempts: 0, cached: true, retryReasons: [] };
          await record({ purpose: request.purpose, request, ...result, error: null });
          return result;
        }
      }

      const client = openai(apiKey);
      for (let attempt = 1; ; attempt++) {
        let failure: Failure;
        try {
          const { content, inputTokens, outputTokens, finishReason } = await limiter.run(limitKey, endpoint.maxConcurrency, () => once(client, request), request.signal);
          const costUsd = callCostUsd(endpoint, inputTokens, outputTokens);
          const result: ChatResult = { content, inputTokens, outputTokens, costUsd, latencyMs: performance.now() - t0, attempts: attempt, cached: false, retryReasons, finishReason };
          if (useCache) await writeCache(db!, key, endpoint.model, { content, inputTokens, outputTokens });
          await record({ purpose: request.purpose, request, ...result, error: null });
          return result;
        } catch (e) {
          if (request.signal?.aborted) throw request.signal.reason ?? e;
          failure = classify(e, endpoint);
        }
        if (!failure.retryable || attempt >= maxAttempts) return fail(request, t0, failure, attempt, retryReasons);
        retryReasons.push(failure.reason);
        await sleep(retryDelay(attempt, failure.retryAfterMs, policy, random), request.signal);
      }
    },
  };

  /** One HTTP request, limited to timeoutMs. */
  async function once(client: OpenAI, request: ChatRequest): Promise<{ content: string; inputTokens: number; outputTokens: number; finishReason: string | null }> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(new TimeoutError(endpoint.timeoutMs)), endpoint.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timer.signal]) : timer.signal;
    try {
      const completion = await client.chat.completions.create(
        {
          model: endpoint.model,
          messages: request.messages,
          temperature: request.temperature ?? endpoint.temperature,
          ...(endpoint.tokenParam === "max_completion_tokens" ? { max_completion_tokens: endpoint.maxTokens } : { max_tokens: endpoint.maxTokens }),
          ...(request.stop?.length ? { stop: request.stop } : {}),
        },
        { signal, timeout: endpoint.timeoutMs, maxRetries: 0 },
      );
      const c = completion as unknown as { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[]; usage?: { prompt_tokens?: number; completion_tokens?: number } };
      if (!c || !Array.isArray(c.choices) || c.choices.length === 0) throw new MalformedResponse("no choices");
      const content = c.choices[0]?.message?.content;
      if (typeof content !== "string") throw new MalformedResponse("no message content");
      // Servers without `usage` (some proxies) are counted by estimate rather than as free.
      const inputTokens = num(c.usage?.prompt_tokens) ?? request.messages.reduce((n, m) => n + estimateTokens(m.content), 0);
      const outputTokens = num(c.usage?.completion_tokens) ?? estimateTokens(content);
      const finish = c.choices[0]?.finish_reason;
      return { content, inputTokens, outputTokens, finishReason: typeof finish === "string" ? finish : null };
    } catch (e) {
      if (timer.signal.aborted && !request.signal?.aborted) throw new TimeoutError(endpoint.timeoutMs);
      throw e;
    } finally {
      clearTimeout(timeout);
    }
  }
}

class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : null;
}

/** Maps whatever one attempt threw to what it means for the call. Exported for tests. */
function classify(e: unknown, endpoint: Pick<EndpointSettings, "timeoutMs" | "apiKeyEnv">, now: number = Date.now()): Failure {
  const timeout = (): Failure => ({
    kind: "timeout",
    retryable: true,
    reason: `timeout after ${endpoint.timeoutMs} ms`,
    detail: `no answer within the timeout of ${endpoint.timeoutMs} ms`,
    retryAfterMs: null,
  });
  if (e instanceof TimeoutError || e instanceof APIConnectionTimeoutError) return timeout();
  if (e instanceof MalformedResponse) {
    return { kind: "malformed_response", retryable: true, reason: `malformed response: ${e.message}`, detail: `malformed response (${e.message})`, retryAfterMs: null };
  }
  if (e instanceof SyntaxError) {
    return { kind: "malformed_response", retryable: true, reason: "malformed response: invalid JSON", detail: `malformed response (invalid JSON: ${e.message})`, retryAfterMs: null };
  }
  if (e instanceof APIUserAbortError || e instanceof APIConnectionError) {
    // fetch wraps the socket error: APIConnectionError → TypeError("fetch failed") → Error{code}.
    const cause = (e as { cause?: { code?: string; message?: string; cause?: { code?: string; message?: string } } }).cause;
    const code = cause?.cause?.code ?? cause?.code ?? cause?.cause?.message ?? cause?.message ?? e.message;
    return { kind: "network", retryable: true, reason: `network: ${code}`, detail: `could not reach the server (${code})`, retryAfterMs: null };
  }
  if (e instanceof APIError && typeof e.status === "number") {
    const status = e.status;
    const serverSays = e.message.replace(/^\d+\s*/, "").slice(0, 300);
    const retryAfterMs = parseRetryAfter(e.headers?.get("retry-after"), now, e.headers?.get("retry-after-ms"));
    const after = retryAfterMs !== null ? ` retry-after ${formatDelay(retryAfterMs)}` : "";
    if (status === 429) {
      return { kind: "rate_limited", retryable: true, reason: `429${after || " rate limited"}`, detail: `rate limited (HTTP 429: ${serverSays})`, retryAfterMs };
    }
    if (status === 408) return { ...timeout(), reason: "408 request timeout", detail: "the server timed out (HTTP 408)", retryAfterMs };
    if (status >= 500 || status === 409) {
      return { kind: "server_error", retryable: true, reason: `${status} server error${after}`, detail: `server error (HTTP ${status}: ${serverSays})`, retryAfterMs };
    }
    if (status === 401 || status === 403) {
      const hint = endpoint.apiKeyEnv ? ` — check the key in ${endpoint.apiKeyEnv}` : " — this endpoint sends no key; name the environment variable that holds one";
      return { kind: "auth", retryable: false, reason: `${status} auth`, detail: `refused the credentials (HTTP ${status}: ${serverSays})${hint}`, retryAfterMs: null };
    }
    const hint = status === 404 ? " — check the base URL (usually ends in /v1) and the model id" : "";
    return { kind: "bad_request", retryable: false, reason: `${status} bad request`, detail: `rejected the request (HTTP ${status}: ${serverSays})${hint}`, retryAfterMs: null };
  }
  const msg = e instanceof Error ? e.message : String(e);
  return { kind: "network", retryable: false, reason: `error: ${msg}`, detail: `failed: ${msg}`, retryAfterMs: null };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
