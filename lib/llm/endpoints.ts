// Model endpoints in the database: the admin page's queries and mutations, the settings the
// engine calls with, the ping, and the offline model's row. Nothing here ever reads or returns an
// API key's value — only whether the variable the endpoint names is set.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { ModelEndpoint } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { createModelClient, type ModelClientOptions } from "./client";
import { apiKeyEnvProblem, DEFAULT_MAX_TOKENS, type EndpointInput } from "./endpoint-schemas";
import { OFFLINE_MODEL_ID } from "@/lib/offline-label";
import { LlmCallError, OFFLINE_MODEL_LABEL, type EndpointSettings } from "./types";

export const OFFLINE_ENDPOINT_NAME = "offline-heuristic";

/** What the admin page and the pickers may show: everything but secrets (there are none stored), plus usage. */
export interface EndpointView extends EndpointSettings {
  id: string;
  /**
   * Whether the named variable is set in this server's environment; null when the endpoint needs
   * no key, or names a variable that may not hold one (never probed, so the page cannot be used
   * to learn which server variables exist).
   */
  apiKeySet: boolean | null;
  /** Why the named variable is refused (an endpoint saved before the LLM_KEY_ rule), else null. */
  apiKeyProblem: string | null;
  /** OFFLINE_MODEL_LABEL for the offline model, else null. */
  badge: string | null;
  trajectories: number;
  calls: number;
  updatedAt: Date;
}

const countSelect = {
  _count: { select: { agentTrajectories: true, emulatorTrajectories: true, evaluatorTrajectories: true, calls: true } },
} as const;

type RowWithCounts = ModelEndpoint & {
  _count: { agentTrajectories: number; emulatorTrajectories: number; evaluatorTrajectories: number; calls: number };
};

function toView(row: RowWithCounts, env: Record<string, string | undefined>): EndpointView {
  const c = row._count;
  const problem = row.apiKeyEnv ? apiKeyEnvProblem(row.apiKeyEnv) : null;
  return {
    ...toEndpointSettings(row),
    id: row.id,
    apiKeySet: row.apiKeyEnv && !problem ? !!env[row.apiKeyEnv] : null,
    apiKeyProblem: problem,
    badge: row.offline ? OFFLINE_MODEL_LABEL : null,
    trajectories: c.agentTrajectories + c.emulatorTrajectories + c.evaluatorTrajectories,
    calls: c.calls,
    updatedAt: row.updatedAt,
  };
}

/** All endpoints, the offline model first, then by name. */
export async function listEndpoints(db: Db, env: Record<string, string | undefined> = process.env): Promise<EndpointView[]> {
  const rows = await db.modelEndpoint.findMany({ include: countSelect, orderBy: [{ offline: "desc" }, { name: "asc" }] });
  return rows.map((r) => toView(r, env));
}

export function toEndpointSettings(row: ModelEndpoint): EndpointSettings {
  return {
    id: row.id,
    name: row.name,
    baseUrl: row.baseUrl,
    model: row.model,
    apiKeyEnv: row.apiKeyEnv,
    temperature: row.temperature,
    maxTokens: row.maxTokens,
    tokenParam: row.tokenParam === "max_completion_tokens" ? "max_completion_tokens" : "max_tokens",
    timeoutMs: row.timeoutMs,
    maxConcurrency: row.maxConcurrency,
    priceInputPer1k: row.priceInputPer1k,
    priceOutputPer1k: row.priceOutputPer1k,
    cacheEnabled: row.cacheEnabled,
    offline: row.offline,
  };
}

/** The settings the engine calls an endpoint with; 404 AppError when there is no such endpoint. */
export async function getEndpointSettings(db: Db, id: string): Promise<EndpointSettings> {
  const row = await db.modelEndpoint.findUnique({ where: { id } });
  if (!row) throw new AppError("No such model endpoint (it may have been deleted).", 404);
  return toEndpointSettings(row);
}

const auditFields = (r: ModelEndpoint) => ({
  name: r.name,
  baseUrl: r.baseUrl,
  model: r.model,
  apiKeyEnv: r.apiKeyEnv,
  temperature: r.temperature,
  maxTokens: r.maxTokens,
  tokenParam: r.tokenParam,
  timeoutMs: r.timeoutMs,
  maxConcurrency: r.maxConcurrency,
  priceInputPer1k: r.priceInputPer1k,
  priceOutputPer1k: r.priceOutputPer1k,
  cacheEnabled: r.cacheEnabled,
  offline: r.offline,
});

async function assertNameFree(db: Pick<Db, "modelEndpoint">, name: string, exceptId?: string) {
  const other = await db.modelEndpoint.findUnique({ where: { name }, select: { id: true } });
  if (other && other.id !== exceptId) throw new AppError(`An endpoint named "${name}" already exists; pick another name.`, 409);
}

export async function createEndpoint(db: Db, actorId: string | null, input: EndpointInput): Promise<EndpointSettings> {
  return db.$transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const row = await tx.modelEndpoint.create({ data: { ...input, offline: false } });
    await recordAudit(tx, { actorId, action: "endpoint.create", entityType: "ModelEndpoint", entityId: row.id, after: auditFields(row) });
    return toEndpointSettings(row);
  });
}

export async function updateEndpoint(db: Db, actorId: string | null, id: string, input: EndpointInput): Promise<EndpointSettings> {
  return db.$transaction(async (tx) => {
    const before = await tx.modelEndpoint.findUnique({ where: { id } });
    if (!before) throw new AppError("No such model endpoint (it may have been deleted).", 404);
    await assertNameFree(tx, input.name, id);
    // `offline` is not editable: it marks the row npm start manages for the offline model.
    const after = await tx.modelEndpoint.update({ where: { id }, data: { ...input } });
    await recordAudit(tx, { actorId, action: "endpoint.update", entityType: "ModelEndpoint", entityId: id, before: auditFields(before), after: auditFields(after) });
    return toEndpointSettings(after);
  });
}

export async function setEndpointCache(db: Db, actorId: string | null, id: string, cacheEnabled: boolean): Promise<EndpointSettings> {
  return db.$transaction(async (tx) => {
    const before = await tx.modelEndpoint.findUnique({ where: { id } });
    if (!before) throw new AppError("No such model endpoint (it may have been deleted).", 404);
    const after = await tx.modelEndpoint.update({ where: { id }, data: { cacheEnabled } });
    await recordAudit(tx, { actorId, action: "endpoint.cache", entityType: "ModelEndpoint", entityId: id, before: { cacheEnabled: before.cacheEnabled }, after: { cacheEnabled } });
    return toEndpointSettings(after);
  });
}

/**
 * Deletes an endpoint no trajectory or run refers to. Its LlmCall rows stay (endpoint set to null), so
 * the cost history survives.
 */
export async function deleteEndpoint(db: Db, actorId: string | null, id: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.modelEndpoint.findUnique({ where: { id }, include: countSelect });
    if (!row) throw new AppError("No such model endpoint (it may have been deleted).", 404);
    const used = row._count.agentTrajectories + row._count.emulatorTrajectories + row._count.evaluatorTrajectories;
    if (used > 0) {
      throw new AppError(`"${row.name}" is used by ${used} trajector${used === 1 ? "y" : "ies"}, so it cannot be deleted; edit it instead.`, 409);
    }
    // Runs keep their endpoints (re-run as new, retries): refuse rather than hit their foreign keys.
    const runs = await tx.run.count({ where: { OR: [{ emulatorEndpointId: id }, { evaluatorEndpointId: id }, { episodes: { some: { agentEndpointId: id } } }] } });
    if (runs > 0) {
      throw new AppError(`"${row.name}" is used by ${runs} run${runs === 1 ? "" : "s"}, so it cannot be deleted; edit it instead.`, 409);
    }
    await tx.modelEndpoint.delete({ where: { id } });
    await recordAudit(tx, { actorId, action: "endpoint.delete", entityType: "ModelEndpoint", entityId: id, before: auditFields(row) });
  });
}

export type PingResult =
  | { ok: true; latencyMs: number; reply: string; inputTokens: number; outputTokens: number; costUsd: number; offline: boolean }
  | { ok: false; latencyMs: number; error: string; kind: string };

export const PING_MESSAGES = [
  { role: "system" as const, content: "You are a connectivity check. Answer in one short sentence." },
  { role: "user" as const, content: "Reply with the word pong." },
];

/**
 * One real request to the endpoint (no retries, no cache), recorded as an LlmCall with role
 * "ping". Failures come back as a result with the error message, not as an exception.
 */
export async function pingEndpoint(db: Db, id: string, options: Omit<ModelClientOptions, "db" | "maxAttempts"> = {}): Promise<PingResult> {
  const settings = await getEndpointSettings(db, id);
  const client = createModelClient({ ...settings, cacheEnabled: false }, { ...options, db, maxAttempts: 1 });
  const t0 = performance.now();
  try {
    const r = await client.chat({ purpose: "ping", messages: PING_MESSAGES });
    return {
      ok: true,
      latencyMs: Math.round(r.latencyMs),
      reply: r.content.length > 2000 ? `${r.content.slice(0, 2000)}…` : r.content,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      costUsd: r.costUsd,
      offline: settings.offline,
    };
  } catch (e) {
    const latencyMs = Math.round(performance.now() - t0);
    if (e instanceof LlmCallError) return { ok: false, latencyMs, error: e.message, kind: e.kind };
    throw e;
  }
}

/**
 * The offline model's row ("offline-heuristic", offline: true), created or pointed at `url`.
 * Settings an admin changed (concurrency, cache, timeout) are kept on later starts.
 */
export async function ensureOfflineEndpoint(db: Pick<Db, "modelEndpoint">, url: string): Promise<EndpointSettings> {
  // The model id is ours to keep right (the rules answer to it); other settings an admin may edit.
  return ensureLocalEndpoint(db, { name: OFFLINE_ENDPOINT_NAME, model: OFFLINE_MODEL_ID, url, maxTokens: 2048, pinModel: true });
}

/** The replay endpoint's row: served by the offline model's server, answering from recorded trajectories. */
export const REPLAY_ENDPOINT_NAME = "replay";

/**
 * The replay endpoint ("replay", offline: true), at the offline model's `url`. Its max tokens is
 * the default a new endpoint gets, so a replay also checks that default against real outputs.
 */
export async function ensureReplayEndpoint(db: Pick<Db, "modelEndpoint">, url: string): Promise<EndpointSettings> {
  return ensureLocalEndpoint(db, { name: REPLAY_ENDPOINT_NAME, model: REPLAY_ENDPOINT_NAME, url, maxTokens: DEFAULT_MAX_TOKENS, pinModel: false });
}

interface LocalEndpoint {
  name: string;
  model: string;
  url: string;
  maxTokens: number;
  /** Reset the model id on every start (else only the URL follows the server). */
  pinModel: boolean;
}

/**
 * One row for an endpoint served on this machine by our own server (offline: true, free, no key),
 * created once and then only pointed at the server's current URL, so admin edits survive a restart.
 */
async function ensureLocalEndpoint(db: Pick<Db, "modelEndpoint">, e: LocalEndpoint): Promise<EndpointSettings> {
  const row = await db.modelEndpoint.upsert({
    where: { name: e.name },
    create: {
      name: e.name,
      baseUrl: e.url,
      model: e.model,
      apiKeyEnv: null,
      temperature: 0,
      maxTokens: e.maxTokens,
      timeoutMs: 30_000,
      maxConcurrency: 16,
      priceInputPer1k: 0,
      priceOutputPer1k: 0,
      // Deterministic and local: a cache saves nothing and would keep old answers after the rules change.
      cacheEnabled: false,
      offline: true,
    },
    update: { baseUrl: e.url, offline: true, ...(e.pinModel ? { model: e.model } : {}) },
  });
  return toEndpointSettings(row);
}

export async function findReplayEndpoint(db: Pick<Db, "modelEndpoint">): Promise<EndpointSettings | null> {
  const row = await db.modelEndpoint.findUnique({ where: { name: REPLAY_ENDPOINT_NAME } });
  return row ? toEndpointSettings(row) : null;
}
