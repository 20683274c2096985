// Keeps up to `concurrency` jobs of one queue running in this process from a single polling loop
// over pg-boss's fetch/complete/fail (pg-boss 10's own work() runs a loop per slot and waits for
// a whole batch before fetching more). A finished job frees its slot at once and the loop fetches
// again without waiting for the poll interval.
//
// Handlers say how a job ended:
//   "done"    → complete (the job is finished, whatever the episode's outcome);
//   "retry"   → fail: pg-boss retries it after its backoff, or marks it failed at its retry limit;
//   "requeue" → cancel this job, then run `after` (which queues a fresh one): a lost or stopped
//               attempt that must not use up a retry.
// Stopping: no more fetches; running handlers get `drainMs` to finish, then their signal aborts
// (reason "shutdown") and they have a moment to record that before the process exits.
import "server-only";
import type PgBoss from "pg-boss";

export type JobOutcome =
  /** `after` runs once the job is completed (e.g. queue the next trial of the same key). */
  | { kind: "done"; output?: object; after?: () => Promise<void> }
  | { kind: "retry"; message: string }
  /** `after` runs once the job is cancelled (e.g. queue a fresh job for the same key). */
  | { kind: "requeue"; message: string; after?: () => Promise<void> };

export interface DispatcherOptions<T extends object> {
  boss: PgBoss;
  queue: string;
  concurrency: number;
  handle: (job: PgBoss.JobWithMetadata<T>, signal: AbortSignal) => Promise<JobOutcome>;
  /** Poll interval when the queue is empty (default 1000 ms). */
  pollMs?: number;
  /**
   * While the queue has work (the last fetch filled every free slot), fetch once at least this many
   * slots are free — or batchWaitMs after fewer became free — instead of once per finished job
   * (each fetch is a round trip). Default 1: fetch as soon as any slot is free.
   */
  minBatch?: number;
  /** How long a free slot may wait for others before the fetch (default 100 ms; only with minBatch > 1). */
  batchWaitMs?: number;
  onError?: (e: unknown) => void;
}

export interface Dispatcher {
  readonly running: number;
  /** Jobs handled since start, by outcome. */
  readonly counts: Record<JobOutcome["kind"] | "error", number>;
  /** Wakes the loop (e.g. after jobs were queued by this process). */
  nudge(): void;
  stop(opts?: { drainMs?: number; abortGraceMs?: number }): Promise<void>;
}

export class ShutdownError extends Error {
  constructor() {
    super("the worker is shutting down");
    this.name = "ShutdownError";
  }
}

export function startDispatcher<T extends object>(o: DispatcherOptions<T>): Dispatcher {
  const pollMs = o.pollMs ?? 1000;
  const onError = o.onError ?? ((e) => console.error("[dispatcher]", e instanceof Error ? e.message : e));
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const counts = { done: 0, retry: 0, requeue: 0, error: 0 };
  const minBatch = Math.max(1, Math.min(o.concurrency, Math.floor(o.minBatch ?? 1)));
  const batchWaitMs = o.batchWaitMs ?? 100;
  let stopping = false;
  let wake: (() => void) | null = null;
  // Set while the loop waits for minBatch free slots: a finished job wakes it only once there are.
  let batching = false;
  // The last fetch filled every free slot: the queue probably has more.
  let queueBusy = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(t);
        wake = null;
        resolve();
      };
    });

  async function settle(job: PgBoss.JobWithMetadata<T>, outcome: JobOutcome) {
    if (outcome.kind === "done") {
      await o.boss.complete(o.queue, job.id, outcome.output ?? {});
      await outcome.after?.();
    } else if (outcome.kind === "retry") await o.boss.fail(o.queue, job.id, { message: outcome.message });
    else {
      await o.boss.cancel(o.queue, job.id);
      await outcome.after?.();
    }
  }

  function launch(job: PgBoss.JobWithMetadata<T>) {
    const controller = new AbortController();
    const done = (async () => {
      let outcome: JobOutcome;
      try {
        outcome = await o.handle(job, controller.signal);
        counts[outcome.kind]++;
      } catch (e) {
        // A handler that throws has a bug or lost its database: pg-boss retries the job.
        counts.error++;
        onError(e);
        outcome = { kind: "retry", message: e instanceof Error ? e.message : String(e) };
      }
      try {
        await settle(job, outcome);
      } catch (e) {
        // The job stays active; pg-boss expires it eventually and the handler's own lease
        // bookkeeping decides what happens to the work.
        onError(e);
      }
    })().finally(() => {
      inFlight.delete(job.id);
      if (!batching || o.concurrency - inFlight.size >= minBatch) wake?.();
    });
    inFlight.set(job.id, { controller, done });
  }

  const loop = (async () => {
    while (!stopping) {
      let free = o.concurrency - inFlight.size;
      if (free <= 0) {
        await sleep(pollMs * 10);
        continue;
      }
      if (free < minBatch && queueBusy) {
        batching = true;
        await sleep(batchWaitMs);
        batching = false;
        if (stopping) break;
        free = o.concurrency - inFlight.size;
      }
      let jobs: PgBoss.JobWithMetadata<T>[] = [];
      try {
        jobs = (await o.boss.fetch<T>(o.queue, { batchSize: free, includeMetadata: true })) ?? [];
      } catch (e) {
        onError(e);
      }
      queueBusy = jobs.length >= free;
      if (stopping) {
        // Fetched while stopping and not started: cancelled without using a retry; the run's
        // reconciler queues a fresh job for an episode left without one.
        if (jobs.length) await o.boss.cancel(o.queue, jobs.map((j) => j.id)).catch(onError);
        break;
      }
      for (const j of jobs) launch(j);
      if (jobs.length < free) await sleep(pollMs);
    }
  })();

  return {
    get running() {
      return inFlight.size;
    },
    counts,
    nudge() {
      queueBusy = false;
      wake?.();
    },
    async stop({ drainMs = 30_000, abortGraceMs = 10_000 } = {}) {
      stopping = true;
      wake?.();
      await loop;
      const all = () => Promise.all([...inFlight.values()].map((f) => f.done));
      const drained = await Promise.race([all().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), drainMs).unref())]);
      if (drained) return;
      for (const f of inFlight.values()) f.controller.abort(new ShutdownError());
      await Promise.race([all(), new Promise((r) => setTimeout(r, abortGraceMs).unref())]);
    },
  };
}
