// The run worker: pg-boss jobs of the `episode` queue → RunEpisode attempts played by the engine.
//
//   - a dispatcher keeps `concurrency` episodes running (lib/jobs/dispatcher.ts);
//   - each job runs through a small state machine (./worker-attempt.ts): claimed in one statement
//     (./claim.ts) with a lease that a heartbeat (./worker-upkeep.ts) renews every 1/4 of
//     RUN_LEASE_SECONDS; the same timer stops episodes of runs that were cancelled (within ~2 s);
//   - a reaper (every RUN_REAP_INTERVAL_SECONDS) hands back episodes whose worker is gone — lease
//     expired, or a process of this host whose pid no longer exists — discarding their partial
//     trajectory and queueing a fresh job (the resume policy: retry from the start);
//   - a reconciler (at start, then every RUN_RECONCILE_INTERVAL_SECONDS) queues jobs for QUEUED
//     episodes of active runs that have none — a web process that stopped between storing a run
//     and queueing it, or a worker that died between fetching a job and claiming its episode
//     (after RUN_ORPHAN_GRACE_SECONDS) — cancels jobs left active by a worker that died (also one
//     that had just paused its episode at the online critic gate), and marks runs DONE whose
//     episodes have all ended (an episode WAITING for an intervention has not);
//   - the online critic gate (./online-gate.ts): an attempt paused at a flagged call ends its job
//     and frees its slot (WAITING, no lease); once answered, it is queued and resumed from its steps;
//   - LLM calls go through one cross-process limiter (lib/llm/endpoint-limiter.ts), so each
//     endpoint's maxConcurrency holds across all workers.
import "server-only";
import type PgBoss from "pg-boss";
import { createPrisma, type Db } from "@/lib/db/client";
import { EPISODE_QUEUE, retryPolicyFromEnv, startBoss, type EpisodeJobData } from "@/lib/jobs/boss";
import { startDispatcher, type Dispatcher, type JobOutcome } from "@/lib/jobs/dispatcher";
import { createDbLimiter, deadLocalHolders, type DbLimiter } from "@/lib/llm/endpoint-limiter";
import type { ConcurrencyLimiter } from "@/lib/llm/limiter";
import type { AttemptResult } from "./attempt";
import type { ClaimedEpisode } from "./episode-job";
import { runAttempt, type AttemptContext, type RunningAttempt } from "./worker-attempt";
import { reap, reconcile, requeueFresh, startHeartbeat, type UpkeepContext } from "./worker-upkeep";
import { startGenerationDispatcher } from "./generation/play";

/** What plays an episode: the engine in production (./engine-runner.ts), fakes in tests. */
export interface EpisodeRunner {
  /**
   * Plays the attempt into the trajectory row its claim made (an evaluation unit: scores the
   * stored trajectory). Throwing counts as a retryable "internal" error.
   */
  play(db: Db, ep: ClaimedEpisode, ctx: { signal: AbortSignal; limiter: ConcurrencyLimiter }): Promise<AttemptResult>;
}

export interface RunWorkerOptions {
  url: string;
  runner: EpisodeRunner;
  concurrency?: number;
  leaseMs?: number;
  reapIntervalMs?: number;
  reconcileIntervalMs?: number;
  orphanGraceSeconds?: number;
  pollMs?: number;
  /** Attempts after which an episode whose workers keep dying is FAILED (default 10). */
  maxAttempts?: number;
  log?: (line: string) => void;
}

export interface RunWorker {
  readonly workerId: string;
  readonly db: Db;
  readonly boss: PgBoss;
  readonly limiter: DbLimiter;
  readonly dispatcher: Dispatcher;
  /** Runs the reaper and reconciler now (tests). */
  tick(): Promise<void>;
  stop(opts?: { drainMs?: number }): Promise<void>;
}

/** A tiny semaphore: acquire() resolves to an idempotent release. */
function semaphore(n: number): () => Promise<() => void> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async () => {
    if (active < n) active++;
    else await new Promise<void>((r) => waiting.push(r));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else active--;
    };
  };
}

function envNumber(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export async function startRunWorker(o: RunWorkerOptions): Promise<RunWorker> {
  const concurrency = o.concurrency ?? Math.floor(envNumber("WORKER_CONCURRENCY", 8));
  const leaseMs = o.leaseMs ?? envNumber("RUN_LEASE_SECONDS", 60) * 1000;
  const reapMs = o.reapIntervalMs ?? envNumber("RUN_REAP_INTERVAL_SECONDS", 5) * 1000;
  const reconcileMs = o.reconcileIntervalMs ?? envNumber("RUN_RECONCILE_INTERVAL_SECONDS", 30) * 1000;
  // How long a QUEUED episode may sit without a queued job, or with a job a worker fetched but
  // never claimed, before the reconciler queues it again.
  const orphanGraceS = o.orphanGraceSeconds ?? envNumber("RUN_ORPHAN_GRACE_SECONDS", 30);
  const maxAttempts = o.maxAttempts ?? 10;
  const log = o.log ?? ((l: string) => console.log(`[worker] ${l}`));

  const db = createPrisma(o.url);
  const boss = await startBoss(o.url, { supervise: true, poolSize: 4 });
  const limiter = createDbLimiter(db);
  const workerId = limiter.holder;
  const retry = retryPolicyFromEnv();
  // Attempts playing here; the heartbeat and the reaper read it too.
  const running = new Map<string, RunningAttempt>();
  const shared = { db, workerId, leaseMs, running, log, requeueFresh: (id: string) => requeueFresh(db, boss, retry, id) };
  const attempts: AttemptContext = { ...shared, runner: o.runner, limiter };
  const upkeep: UpkeepContext = { ...shared, boss, limiter, isDeadHolder: (w) => !!w && deadLocalHolders([w], workerId).length > 0 };

  // At most SETUP_LANES episodes between their claim and their first model call: when many start
  // at once (a new run), the first ones reach the endpoint quickly instead of all of them
  // finishing their set-up (database reads, prompt building) late and together.
  const setupLanes = semaphore(Math.max(1, Math.floor(envNumber("WORKER_SETUP_LANES", 4))));
  async function handle(job: PgBoss.JobWithMetadata<EpisodeJobData>, signal: AbortSignal): Promise<JobOutcome> {
    const leaveSetup = await setupLanes();
    try {
      return await runAttempt(attempts, job, signal, leaveSetup);
    } finally {
      leaveSetup();
    }
  }

  const safe = (name: string, f: () => Promise<void>) => async () => {
    try {
      await f();
    } catch (e) {
      log(`${name} failed: ${(e as Error).message}`);
    }
  };
  const reapNow = () => reap(upkeep, maxAttempts);
  const reconcileNow = () => reconcile(upkeep, retry, orphanGraceS);
  const stopHeartbeat = startHeartbeat(upkeep);
  await safe("reaper", reapNow)();
  await safe("reconciler", reconcileNow)();

  // A worker playing many episodes at once refills its slots an eighth at a time (or 100 ms after
  // one freed): one fetch per few finished episodes instead of one each, and with 3 × the
  // endpoint's lanes in flight the lanes stay busy meanwhile.
  const dispatcher = startDispatcher<EpisodeJobData>({
    boss, queue: EPISODE_QUEUE, concurrency, handle, pollMs: o.pollMs ?? envNumber("WORKER_POLL_MS", 1000),
    minBatch: Math.max(1, Math.floor(concurrency / 8)), batchWaitMs: envNumber("WORKER_FETCH_WAIT_MS", 100),
    onError: (e) => log(`job error: ${e instanceof Error ? e.message : String(e)}`),
  });
  // Generation jobs (lib/runs/generation): their own queue, a couple at a time, same endpoint limits.
  const generation = await startGenerationDispatcher({ boss, db, workerId, limiter, log, pollMs: o.pollMs ?? envNumber("WORKER_POLL_MS", 1000) });
  const reaper = setInterval(safe("reaper", reapNow), reapMs);
  const reconciler = setInterval(safe("reconciler", reconcileNow), reconcileMs);
  reaper.unref();
  reconciler.unref();

  let stopped = false;
  return {
    workerId,
    db,
    boss,
    limiter,
    dispatcher,
    async tick() {
      await reapNow();
      await reconcileNow();
    },
    async stop({ drainMs = envNumber("WORKER_DRAIN_SECONDS", 30) * 1000 } = {}) {
      if (stopped) return;
      stopped = true;
      clearInterval(reaper);
      clearInterval(reconciler);
      await Promise.all([dispatcher.stop({ drainMs }), generation.stop({ drainMs })]);
      stopHeartbeat();
      await limiter.stop();
      await boss.stop({ graceful: false, wait: true, timeout: 2000 }).catch(() => {});
      await db.$disconnect();
    },
  };
}
