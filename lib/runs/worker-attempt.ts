// One job of the `episode` queue, as a small state machine:
//
//   claiming ──▶ skipped                                     (nothing to claim: job done)
//      │
//      ▼
//   playing ──▶ aborted   ──▶ lost | cancelled | released   (the heartbeat or a shutdown stopped it)
//      │
//      ├──────▶ succeeded ──▶ DONE (+ the next InferAct trial, ./trials.ts)
//      ├──────▶ waiting   ──▶ WAITING  (the online critic gate paused it; no lease, slot freed)
//      └──────▶ failed    ──▶ retried | FAILED
//
// Each state is a value; each transition a small function from one state to the next. The
// terminal states end in the job's outcome for the dispatcher.
import "server-only";
import type PgBoss from "pg-boss";
import type { Db } from "@/lib/db/client";
import type { EpisodeJobData } from "@/lib/jobs/boss";
import type { JobOutcome, ShutdownError } from "@/lib/jobs/dispatcher";
import type { ConcurrencyLimiter } from "@/lib/llm/limiter";
import { failed, type AttemptError, type AttemptResult } from "./attempt";
import { claimEpisode, whyNotClaimed } from "./claim";
import { finishRunIfComplete } from "./control";
import { markCancelled, markFailed, markReleased, markRunStarted, type ClaimedEpisode } from "./episode-job";
import { markWaiting } from "./online-gate";
import { markDoneWithTrials } from "./trials";
import type { EpisodeRunner } from "./worker";

/** Why the worker stopped an attempt: its run was cancelled, its lease was lost, or the worker is stopping. */
export type AbortReason = "cancelled" | "lost" | ShutdownError;

/** An attempt playing in this process: the heartbeat renews its lease or stops it. */
export interface RunningAttempt {
  ep: ClaimedEpisode;
  controller: AbortController;
}

/** What an attempt needs from its worker. */
export interface AttemptContext {
  db: Db;
  runner: EpisodeRunner;
  workerId: string;
  leaseMs: number;
  /** The cross-process endpoint limiter. */
  limiter: ConcurrencyLimiter;
  /** Attempts playing here, by RunEpisode id (shared with the heartbeat and the reaper). */
  running: Map<string, RunningAttempt>;
  /** Queues a fresh job for a QUEUED episode of an active run. */
  requeueFresh(runEpisodeId: string): Promise<void>;
  log(line: string): void;
}

type Job = PgBoss.JobWithMetadata<EpisodeJobData>;

type AttemptState =
  | { at: "claiming" }
  | { at: "skipped" }
  | { at: "playing"; ep: ClaimedEpisode }
  | { at: "aborted"; ep: ClaimedEpisode; reason: AbortReason }
  | { at: "succeeded"; ep: ClaimedEpisode }
  | { at: "waiting"; ep: ClaimedEpisode }
  | { at: "failed"; ep: ClaimedEpisode; error: AttemptError; retryable: boolean };

/**
 * Runs one job through the machine. `leaveSetup` is called once the attempt makes its first model
 * call (or ends): the worker lets only a few attempts set up at once.
 */
export async function runAttempt(c: AttemptContext, job: Job, signal: AbortSignal, leaveSetup: () => void): Promise<JobOutcome> {
  let s: AttemptState = { at: "claiming" };
  for (;;) {
    switch (s.at) {
      case "claiming":
        s = await claim(c, job);
        break;
      case "playing":
        s = await play(c, s.ep, signal, leaveSetup);
        break;
      case "skipped":
        return skip(c, job);
      case "aborted":
        return settleAborted(c, s.ep, s.reason);
      case "succeeded":
        return settleSucceeded(c, s.ep);
      case "waiting":
        return settleWaiting(c, s.ep);
      case "failed":
        return settleFailed(c, job, s.ep, s.error, s.retryable);
    }
  }
}

async function claim(c: AttemptContext, job: Job): Promise<AttemptState> {
  const claimed = await claimEpisode(c.db, job.data.runEpisodeId, { workerId: c.workerId, jobId: job.id, leaseMs: c.leaseMs });
  if (!claimed) return { at: "skipped" };
  if (claimed.runStarted) await markRunStarted(c.db, claimed.episode.runId);
  return { at: "playing", ep: claimed.episode };
}

async function skip(c: AttemptContext, job: Job): Promise<JobOutcome> {
  const reason = await whyNotClaimed(c.db, job.data.runEpisodeId);
  await finishRunIfComplete(c.db, job.data.runId);
  return { kind: "done", output: { skipped: reason } };
}

async function play(c: AttemptContext, ep: ClaimedEpisode, signal: AbortSignal, leaveSetup: () => void): Promise<AttemptState> {
  const controller = new AbortController();
  const onShutdown = () => controller.abort(signal.reason);
  signal.addEventListener("abort", onShutdown, { once: true });
  c.running.set(ep.runEpisodeId, { ep, controller });
  let result: AttemptResult;
  try {
    const limiter: ConcurrencyLimiter = {
      run(key, lim, fn, sig, opts) {
        leaveSetup();
        return c.limiter.run(key, lim, fn, sig, opts);
      },
    };
    result = await c.runner.play(c.db, ep, { signal: controller.signal, limiter });
  } catch (e) {
    result = failed("internal", e instanceof Error ? e.message : String(e));
  } finally {
    c.running.delete(ep.runEpisodeId);
    signal.removeEventListener("abort", onShutdown);
  }
  if (controller.signal.aborted) return { at: "aborted", ep, reason: controller.signal.reason as AbortReason };
  if (result.ok) return result.waiting ? { at: "waiting", ep } : { at: "succeeded", ep };
  return { at: "failed", ep, error: result.error, retryable: result.retryable };
}

async function settleAborted(c: AttemptContext, ep: ClaimedEpisode, reason: AbortReason): Promise<JobOutcome> {
  // Lost: another worker may hold the episode now; leave the row alone.
  if (reason === "lost") return { kind: "done", output: { lost: true } };
  if (reason === "cancelled") {
    await markCancelled(c.db, ep);
    await finishRunIfComplete(c.db, ep.runId);
    return { kind: "done", output: { cancelled: true } };
  }
  // Shutdown: back to the queue without using a retry.
  await markReleased(c.db, ep, "The worker stopped (SIGTERM) before the episode ended; it restarts from the beginning.");
  return { kind: "requeue", message: "worker stopping", after: () => c.requeueFresh(ep.runEpisodeId) };
}

async function settleSucceeded(c: AttemptContext, ep: ClaimedEpisode): Promise<JobOutcome> {
  // Checked after the episode's own commit: the last episode to commit always sees every other
  // one ended, so the run is marked DONE exactly when its last episode ends.
  const { stored, nextTrialId } = await markDoneWithTrials(c.db, ep);
  if (await finishRunIfComplete(c.db, ep.runId)) c.log(`run ${ep.runId} is done`);
  if (!stored) return { kind: "done", output: { lost: true } };
  if (!nextTrialId) return { kind: "done", output: {} };
  // The next trial has the same singleton key: its job is sent once this one is completed (pg-boss
  // cannot start it while this one is active); if that fails, the reconciler queues it.
  const queueNext = () => c.requeueFresh(nextTrialId).catch((e) => c.log(`queueing trial ${(ep.trial ?? 1) + 1} of episode ${ep.runEpisodeId} failed (the reconciler will): ${(e as Error).message}`));
  return { kind: "done", output: { nextTrial: nextTrialId }, after: queueNext };
}

/** The online gate paused the episode: WAITING without a lease; the job is done and the slot free. */
async function settleWaiting(c: AttemptContext, ep: ClaimedEpisode): Promise<JobOutcome> {
  const stored = await markWaiting(c.db, ep);
  return { kind: "done", output: stored ? { waiting: true } : { lost: true } };
}

async function settleFailed(c: AttemptContext, job: Job, ep: ClaimedEpisode, error: AttemptError, retryable: boolean): Promise<JobOutcome> {
  const canRetry = retryable && job.retryCount < job.retryLimit;
  const stored = await markFailed(c.db, ep, error, !canRetry);
  if (!canRetry) await finishRunIfComplete(c.db, ep.runId);
  if (!stored) return { kind: "done", output: { lost: true } };
  return canRetry ? { kind: "retry", message: `${error.kind}: ${error.message}` } : { kind: "done", output: { failed: error.kind } };
}
