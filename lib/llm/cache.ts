// The response cache: identical requests to the same model reuse a stored answer. Keyed by the
// sha256 of (model, messages, temperature, maxTokens, stop, sample index) in a canonical JSON form.
// The sample index is appended only when a request names one, so keys written before it existed
// stay valid.
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { ChatMessage } from "./types";

export interface CacheKeyInput {
  model: string;
  messages: ChatMessage[];
  temperature: number;
  maxTokens: number;
  stop?: string[];
  /** The request's sample index (replicates); undefined for ordinary calls. */
  sample?: number;
}

export function cacheKey(input: CacheKeyInput): string {
  const canonical = JSON.stringify([
    "v1",
    input.model,
    input.messages.map((m) => [m.role, m.content]),
    input.temperature,
    input.maxTokens,
    input.stop ?? [],
    ...(input.sample === undefined ? [] : [["sample", input.sample]]),
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

export interface CachedResponse {
  content: string;
  inputTokens: number;
  outputTokens: number;
}

type CacheDb = Pick<Db, "llmCacheEntry">;

/** The stored response, counting the hit; null on a miss. */
export async function readCache(db: CacheDb, key: string): Promise<CachedResponse | null> {
  // One statement: the update both finds the row and counts the hit.
  const rows = await db.llmCacheEntry.updateManyAndReturn({
    where: { key },
    data: { hits: { increment: 1 } },
    select: { content: true, inputTokens: true, outputTokens: true },
  });
  return rows[0] ?? null;
}

export async function writeCache(db: CacheDb, key: string, model: string, value: CachedResponse): Promise<void> {
  // Two identical calls racing both miss and both write: the first write wins, the second is a no-op.
  await db.llmCacheEntry.upsert({
    where: { key },
    create: { key, model, content: value.content, inputTokens: value.inputTokens, outputTokens: value.outputTokens },
    update: {},
  });
}
