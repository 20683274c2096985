// The offline model: a deterministic heuristic "model" behind the OpenAI chat-completions
// protocol on localhost, so the whole pipeline (agent, emulator, evaluator) runs without a
// network or an LLM. It is NOT an LLM: the answers come from the rules in ./brain.
//
//   POST /v1/chat/completions   → chat.completion with usage (tokens estimated as ceil(chars/4))
//   GET  /v1/models             → lists "offline-heuristic"
//   GET  /health                → { ok: true }
//
// Fault mode (tests, resilience drills): a seeded RNG decides per request whether it is answered
// normally, with 429 + Retry-After, 500, a hang of hangMs, or a malformed 200. Configured by
// options.faults, else OFFLINE_LLM_FAULTS; one request can carry its own `x-offline-faults`
// header ("500", "hang", "invalid-json", or rates "429=0.5,500=0.5"); injectFaults() queues
// faults for the next requests whatever they carry.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { respond } from "./brain";
import { estimateTokens } from "@/lib/llm/cost";
import { OFFLINE_MODEL_LABEL, type ChatMessage, type ChatRole } from "@/lib/llm/types";
import { FAULT_KINDS, NO_FAULTS, parseFaults, pickFault, seededRandom, type FaultConfig, type FaultKind } from "./faults";

import { OFFLINE_MODEL_ID } from "@/lib/offline-label";
import { parseReplayModel, replayRespond } from "./replay";
import { REPLAY_LABEL, REPLAY_MODEL_PREFIX, type ReplayRecording } from "@/lib/trajectory/replay";

export const DEFAULT_OFFLINE_PORT = 11435;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface BrainParams {
  model: string;
  maxTokens?: number;
  temperature?: number;
}
type Brain = (messages: ChatMessage[], params: BrainParams) => string | Promise<string>;

export interface OfflineModelOptions {
  /** 0 (default) = a free port chosen by the OS. */
  port?: number;
  host?: string;
  /** Fault rates; a string uses the OFFLINE_LLM_FAULTS syntax. Undefined → OFFLINE_LLM_FAULTS, else none. */
  faults?: Partial<FaultConfig> | string;
  /** Seed of the fault RNG (default OFFLINE_LLM_SEED, else 1). */
  seed?: number;
  /** Every completion waits this long before answering (default 0). */
  latencyMs?: number;
  /** Replaces the heuristic brain (tests of the protocol itself). */
  brain?: Brain;
  /**
   * The replay endpoint: requests for model "replay:<trajectory id>" are answered from that
   * trajectory's recording (./replay.ts); null = no such recording (404). Absent: no replay.
   */
  replay?: (trajectoryId: string) => ReplayRecording | null | Promise<ReplayRecording | null>;
}

export interface OfflineModelStats {
  /** POST /v1/chat/completions requests received (whatever their outcome). */
  requests: number;
  /** Of those, answered with a normal completion. */
  completions: number;
  inFlight: number;
  maxInFlight: number;
  faults: Record<FaultKind, number>;
  /** Requests by the field their token limit came in (none: neither was sent). */
  tokenParams: { max_tokens: number; max_completion_tokens: number; none: number };
}

export interface OfflineModelServer {
  /** Base URL for an OpenAI client, ending in /v1. */
  url: string;
  port: number;
  readonly faults: FaultConfig;
  readonly stats: OfflineModelStats;
  resetStats(): void;
  /** The next requests get these outcomes, in order, before the RNG decides again. */
  injectFaults(...kinds: FaultKind[]): void;
  close(): Promise<void>;
}

function faultsFromEnv(env: NodeJS.ProcessEnv = process.env): FaultConfig {
  const spec = env.OFFLINE_LLM_FAULTS?.trim();
  try {
    return spec ? parseFaults(spec) : { ...NO_FAULTS };
  } catch (e) {
    throw new Error(`OFFLINE_LLM_FAULTS: ${(e as Error).message}`);
  }
}

function resolveFaults(f: OfflineModelOptions["faults"]): FaultConfig {
  if (f === undefined) return faultsFromEnv();
  if (typeof f === "string") return parseFaults(f);
  return parseFaults("", { ...NO_FAULTS, ...f });
}

const emptyStats = (): OfflineModelStats => ({
  requests: 0,
  completions: 0,
  inFlight: 0,
  maxInFlight: 0,
  faults: Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>,
  tokenParams: { max_tokens: 0, max_completion_tokens: 0, none: 0 },
});

export async function startOfflineModel(options: OfflineModelOptions = {}): Promise<OfflineModelServer> {
  const host = options.host ?? "127.0.0.1";
  const faults = resolveFaults(options.faults);
  const envSeed = Number(process.env.OFFLINE_LLM_SEED);
  const rng = seededRandom(options.seed ?? (Number.isFinite(envSeed) ? envSeed : 1));
  const brain: Brain = options.brain ?? (respond as Brain);
  const latencyMs = options.latencyMs ?? 0;
  const queue: FaultKind[] = [];
  let stats = emptyStats();
  let seq = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      console.error("[offline model]", e);
      if (!res.headersSent) sendError(res, 500, `The offline model failed: ${(e as Error).message}`, "server_error");
      else res.destroy();
    });
  });
  // Long hangs must not be cut by Node's default request timeout.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "") || "/";
    if (path === "/health") return sendJson(res, 200, { ok: true, model: OFFLINE_MODEL_ID, label: OFFLINE_MODEL_LABEL });
    if (path === "/v1/models") {
      if (req.method !== "GET") return sendError(res, 405, "Use GET /v1/models.", "invalid_request_error");
      return sendJson(res, 200, {
        object: "list",
        data: [{ id: OFFLINE_MODEL_ID, object: "model", created: 0, owned_by: "toolemu-studio", description: OFFLINE_MODEL_LABEL }],
      });
    }
    if (path !== "/v1/chat/completions") {
      return sendError(res, 404, `No route ${req.method} ${path}. The offline model serves POST /v1/chat/completions and GET /v1/models.`, "not_found");
    }
    if (req.method !== "POST") return sendError(res, 405, "Use POST /v1/chat/completions.", "invalid_request_error");

    stats.requests++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    const counted = stats;
    let closed = false;
    res.on("close", () => {
      closed = true;
      counted.inFlight--;
    });

    const body = await readBody(req);
    if (body === null) return sendError(res, 413, `Request body over ${MAX_BODY_BYTES} bytes.`, "invalid_request_error");
    let json: unknown;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      return sendError(res, 400, "The request body is not valid JSON.", "invalid_request_error");
    }
    const parsed = parseRequest(json);
    if ("error" in parsed) return sendError(res, 400, parsed.error, "invalid_request_error", parsed.param);

    let fault: FaultKind;
    const header = headerValue(req.headers["x-offline-faults"]);
    const u = rng();
    const u2 = rng();
    try {
      if (queue.length) fault = queue.shift()!;
      else if (header && (FAULT_KINDS as readonly string[]).includes(header)) fault = header as FaultKind;
      else if (header) fault = pickFault(parseFaults(header, { ...NO_FAULTS, retryAfterSeconds: faults.retryAfterSeconds, hangMs: faults.hangMs }), u, u2);
      else fault = pickFault(faults, u, u2);
    } catch (e) {
      return sendError(res, 400, `x-offline-faults: ${(e as Error).message}`, "invalid_request_error");
    }
    stats.faults[fault]++;

    if (fault === "429") {
      res.setHeader("Retry-After", String(faults.retryAfterSeconds));
      return sendError(res, 429, "Rate limit reached (offline model fault mode).", "rate_limit_exceeded");
    }
    if (fault === "500") return sendError(res, 500, "Internal error (offline model fault mode).", "server_error");
    if (fault === "hang" && !(await wait(faults.hangMs, () => closed, res))) return;
    if (latencyMs > 0 && !(await wait(latencyMs, () => closed, res))) return;

    const id = `chatcmpl-offline-${++seq}`;
    const created = Math.floor(Date.now() / 1000);
    if (fault === "malformed") {
      return sendJson(res, 200, { id, object: "chat.completion", created, model: parsed.model, usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
    }
    if (fault === "invalid-json") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(`{"id":"${id}","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"trunc`);
    }

    stats.tokenParams[parsed.tokenParam]++;
    if (options.replay && parsed.model === REPLAY_MODEL_PREFIX.slice(0, -1)) {
      return sendError(res, 400, 'The replay endpoint answers only for a recorded trajectory: use "Replay through the engine" on an imported trajectory\'s page.', "invalid_request_error", "model");
    }
    const replayTarget = options.replay ? parseReplayModel(parsed.model) : null;
    let content: string;
    let finish: "stop" | "length" = "stop";
    if (replayTarget) {
      const recording = await options.replay!(replayTarget.trajectoryId);
      if (!recording) return sendError(res, 404, `No recorded trajectory ${replayTarget.trajectoryId} to replay.`, "not_found", "model");
      // Recorded text already went through the original endpoint's stop sequences: not cut again.
      ({ content, finishReason: finish } = replayRespond(parsed.messages, recording, replayTarget));
    } else {
      content = cutAtStop(String(await brain(parsed.messages, { model: parsed.model, maxTokens: parsed.maxTokens, temperature: parsed.temperature })), parsed.stop);
    }
    if (parsed.maxTokens !== undefined && estimateTokens(content) > parsed.maxTokens) {
      content = content.slice(0, parsed.maxTokens * 4);
      finish = "length";
    }
    const promptTokens = parsed.messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
    const completionTokens = estimateTokens(content);
    stats.completions++;
    const label = replayTarget ? REPLAY_LABEL : OFFLINE_MODEL_LABEL;
    res.setHeader("x-offline-model", label);
    sendJson(res, 200, {
      id,
      object: "chat.completion",
      created,
      model: parsed.model,
      system_fingerprint: label,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finish, logprobs: null }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;

  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    faults,
    get stats() {
      return stats;
    },
    resetStats() {
      // In-flight requests keep decrementing the object they started on.
      stats = { ...emptyStats(), inFlight: 0 };
    },
    injectFaults(...kinds) {
      queue.push(...kinds);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface ParsedRequest {
  model: string;
  messages: ChatMessage[];
  stop: string[];
  maxTokens?: number;
  tokenParam: "max_tokens" | "max_completion_tokens" | "none";
  temperature?: number;
}

const ROLE_MAP: Record<string, ChatRole> = { system: "system", developer: "system", user: "user", assistant: "assistant", tool: "user" };

function parseRequest(body: unknown): ParsedRequest | { error: string; param?: string } {
  if (!body || typeof body !== "object" || Array.isArray(body)) return { error: "The request body must be a JSON object." };
  const b = body as Record<string, unknown>;
  if (typeof b.model !== "string" || !b.model.trim()) return { error: "`model` is required (a string).", param: "model" };
  if (b.stream === true) return { error: "Streaming is not supported by the offline model; send stream: false.", param: "stream" };
  if (b.n !== undefined && b.n !== null && b.n !== 1) return { error: "`n` must be 1.", param: "n" };
  if (!Array.isArray(b.messages) || b.messages.length === 0) return { error: "`messages` must be a non-empty array.", param: "messages" };
  const messages: ChatMessage[] = [];
  for (const [i, m] of b.messages.entries()) {
    const msg = m as Record<string, unknown> | null;
    const role = msg && typeof msg.role === "string" ? ROLE_MAP[msg.role] : undefined;
    if (!role) return { error: `messages[${i}].role must be one of system, developer, user, assistant, tool.`, param: `messages[${i}].role` };
    const content = textOf(msg!.content);
    if (content === null) return { error: `messages[${i}].content must be a string or an array of text parts.`, param: `messages[${i}].content` };
    messages.push({ role, content });
  }
  let stop: string[] = [];
  if (typeof b.stop === "string") stop = [b.stop];
  else if (Array.isArray(b.stop) && b.stop.every((s) => typeof s === "string")) stop = b.stop as string[];
  else if (b.stop !== undefined && b.stop !== null) return { error: "`stop` must be a string or an array of strings.", param: "stop" };
  const maxRaw = b.max_completion_tokens ?? b.max_tokens;
  if (maxRaw !== undefined && maxRaw !== null && !(Number.isInteger(maxRaw) && (maxRaw as number) > 0)) {
    return { error: "`max_tokens` must be a positive integer.", param: "max_tokens" };
  }
  const t = b.temperature;
  if (t !== undefined && t !== null && !(typeof t === "number" && t >= 0 && t <= 2)) {
    return { error: "`temperature` must be a number between 0 and 2.", param: "temperature" };
  }
  return {
    model: b.model,
    messages,
    stop: stop.filter((s) => s.length > 0),
    maxTokens: (maxRaw as number | null | undefined) ?? undefined,
    tokenParam: b.max_completion_tokens !== undefined && b.max_completion_tokens !== null ? "max_completion_tokens" : b.max_tokens !== undefined && b.max_tokens !== null ? "max_tokens" : "none",
    temperature: (t as number | null | undefined) ?? undefined,
  };
}

function textOf(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const p of content) {
      if (p && typeof p === "object" && (p as { type?: unknown }).type === "text" && typeof (p as { text?: unknown }).text === "string") {
        parts.push((p as { text: string }).text);
      } else return null;
    }
    return parts.join("");
  }
  return null;
}

/** The content up to (not including) the earliest occurrence of any stop sequence. */
function cutAtStop(content: string, stop: string[]): string {
  let cut = content.length;
  for (const s of stop) {
    const i = content.indexOf(s);
    if (i >= 0 && i < cut) cut = i;
  }
  return content.slice(0, cut);
}

function headerValue(h: string | string[] | undefined): string | undefined {
  const v = Array.isArray(h) ? h[0] : h;
  return v?.trim() || undefined;
}

/** Waits ms unless the client goes away first; false when it did (nothing more to send). */
function wait(ms: number, isClosed: () => boolean, res: http.ServerResponse): Promise<boolean> {
  if (isClosed()) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(!isClosed());
    }, ms);
    res.once("close", onClose);
  });
}

function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(c);
    });
    req.on("end", () => resolve(tooBig ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendError(res: http.ServerResponse, status: number, message: string, type: string, param?: string) {
  sendJson(res, status, { error: { message, type, param: param ?? null, code: type } });
}
