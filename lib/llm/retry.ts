// Retry policy of model calls: which failures are worth another attempt, and how long to wait.
// Pure functions; the client (./client.ts) applies them with an injectable sleep and random.

export interface BackoffPolicy {
  /** First retry waits up to this long (full jitter: uniform in [0, cap]). */
  baseDelayMs: number;
  /** No computed backoff exceeds this. */
  maxDelayMs: number;
  /** A server's Retry-After above this is cut to it (a day-long Retry-After should not stall a run). */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

/**
 * Retry-After as milliseconds: delta-seconds ("2", "1.5") or an HTTP date (RFC 9110). A date in
 * the past gives 0. Null when absent or unreadable. `retry-after-ms` (sent by OpenAI and some
 * proxies) is preferred when given.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now(), retryAfterMs?: string | null): number | null {
  if (retryAfterMs != null && retryAfterMs.trim() !== "") {
    const ms = Number(retryAfterMs.trim());
    if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  }
  if (value == null) return null;
  const v = value.trim();
  if (v === "") return null;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  if (!/[a-z]/i.test(v)) return null; // "-1", "abc" is caught below; a bare odd number is not a date
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/**
 * Exponential backoff with full jitter: before retry number `retry` (1 = the first retry) wait a
 * uniform random time in [0, min(maxDelayMs, baseDelayMs · 2^(retry-1))].
 */
export function backoffDelay(retry: number, policy: BackoffPolicy, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * cap);
}

/** The wait before the next attempt: the server's Retry-After when it sent one (capped), else backoff. */
export function retryDelay(retry: number, retryAfterMs: number | null, policy: BackoffPolicy, random: () => number): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  return backoffDelay(retry, policy, random);
}

/** "2s", "1.5s", "250 ms" for the retry reasons people read. */
export function formatDelay(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)}s` : `${ms} ms`;
}
