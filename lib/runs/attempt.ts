// What one attempt at a RunEpisode comes to, as the runner tells the worker: done, or failed with
// a typed error kind (stored as RunEpisode.errorKind and RunError.kind; the worker itself also
// writes "worker_lost" and "worker_stopped" there for attempts no runner finished).
import type { LlmErrorKind } from "@/lib/llm/types";

/**
 * Why an attempt failed: a model call's kind (it failed for good after its retries), "crashed"
 * (the engine threw something else while playing), "cancelled" (the engine's signal fired) or
 * "internal" (the runner threw, or the episode cannot be played as stored).
 */
export type AttemptErrorKind = LlmErrorKind | "crashed" | "cancelled" | "internal";

export interface AttemptError {
  kind: AttemptErrorKind;
  message: string;
}

/** waiting: the online critic gate paused the episode at a flagged call (it waits for an answer, holding no slot). */
export type AttemptResult = { ok: true; waiting?: boolean } | { ok: false; error: AttemptError; retryable: boolean };

/** Failures worth another attempt: the endpoint may answer next time. */
const RETRYABLE: ReadonlySet<AttemptErrorKind> = new Set<AttemptErrorKind>(["rate_limited", "server_error", "timeout", "network", "malformed_response", "crashed", "internal"]);

function isRetryableKind(kind: AttemptErrorKind): boolean {
  return RETRYABLE.has(kind);
}

/** A failed attempt; by default retryable when its kind is worth another attempt. */
export function failed(kind: AttemptErrorKind, message: string, retryable = isRetryableKind(kind)): AttemptResult {
  return { ok: false, retryable, error: { kind, message } };
}
