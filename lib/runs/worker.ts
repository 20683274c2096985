// The run worker: pg-boss jobs of the `episode` queue → RunEpisode attempts played by the engine.
//
//   - a dispatcher keeps `concurrency` episodes running (lib/jobs/dispatcher.ts);
//   - every episode is claimed in one transaction (lib/runs/episode-job.ts) with a lease that a
//     heartbeat renews every 1/4 of RUN_LEASE_SECONDS; the same timer stops episodes of runs that
//     were cancelled (within ~2 s);
//   - a reaper (every RUN_REAP_INTERVAL_SECONDS) hands back episodes whose worker is gone — lease
//     expired, or a process of this host whose pid no longer exists — discarding their partial
//     trajectory and queueing a fresh job (the resume policy: retry from the start);
//   - a reconciler (at start, then every RUN_RECONCILE_INTERVAL_SECONDS) queues jobs for QUEUED
//     episodes of active runs that have none — a web process that stopped between storing a run
//     and queueing it, or a worker that died between fetching a job and claiming its episode
//     (after RUN_ORPHAN_GRACE_SECONDS) — and marks runs DONE whose episodes have all ended;
//   - LLM calls go through one cross-process limiter (lib/jobs/endpoint-limiter.ts), so each
//     endpoint's maxConcurrency holds across all workers.
import "server-only";
import type PgBoss from "pg-boss";
import { createPrisma, type Db } from "@/lib/db/client";
import { cancelQueuedJobs, EPISODE_QUEUE, episodeJobStates, retryPolicyFromEnv, sendEpisodeJobs, startBoss, type EpisodeJobData } from "@/lib/jobs/boss";
import { startDispatcher, ShutdownError, type Dispatcher, type JobOutcome } from "@/lib/jobs/dispatcher";
import { createDbLimiter, deadLocalHolders, type DbLimiter } from "@/lib/jobs/endpoint-limiter";
import type { ConcurrencyLimiter } from "@/lib/llm/limiter";
import { finishRunIfComplete } from "./control";
import {
  claimEpisode,
  fastClaimEpisode,
  fastClaimUnit,
  findLostEpisodes,
  markCancelled,
  markDone,
  markFailed,
  markReleased,
  markRunStarted,
  reclaimLost,
  type AttemptError,
  type ClaimedEpisode,
  type EpisodeSpec,
} from "./episode-job";
import type { Prisma } from "@/lib/db/generated/client";

export type AttemptResult = { ok: true } | { ok: false; error: AttemptError; retryable: boolean };

/** What plays an episode: the engine in production (./engine-runner.ts), fakes in tests. */
export interface EpisodeRunner {
  /** Inside the claim transaction: creates the attempt's trajectory row, returns its id. */
  createTrajectory(tx: Prisma.TransactionClient, spec: EpisodeSpec): Promise<string>;
  /**
   * The trajectory row createTrajectory makes is the skeleton fastClaimEpisode inserts itself
   * (EMULATED, RUNNING, models and endpoints of the episode), so the common claim can be one
   * statement. Fakes that make other rows leave this off.
   */
  fastClaim?: boolean;
  /** Plays the attempt into that trajectory. Throwing counts as a retryable "internal" error. */
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

type AbortReason = "cancelled" | "lost" | ShutdownError;

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
  const isDead = (w: string | null) => !!w && deadLocalHolders([w], workerId).length > 0;
  const retry = retryPolicyFromEnv();

  // Episodes running here: abort controller per attempt.
  const running = new Map<string, { ep: ClaimedEpisode; controller: AbortController }>();

  async function requeueFresh(runEpisodeId: string) {
    const e = await db.runEpisode.findUnique({
      where: { id: runEpisodeId },
      select: { id: true, runId: true, caseId: true, agentEndpointId: true, variant: true, mode: true, repeat: true, position: true, status: true, run: { select: { status: true } } },
    });
    if (!e || e.status !== "QUEUED" || (e.run.status !== "QUEUED" && e.run.status !== "RUNNING")) return;
    await sendEpisodeJobs(boss, [e], retry);
  }

  // At most SETUP_LANES episodes between their claim and their first model call: when many start
  // at once (a new run), the first ones reach the endpoint quickly instead of all of them
  // finishing their set-up (database reads, prompt building) late and together.
  const setupLanes = semaphore(Math.max(1, Math.floor(envNumber("WORKER_SETUP_LANES", 4))));

  async function handle(job: PgBoss.JobWithMetadata<EpisodeJobData>, signal: AbortSignal): Promise<JobOutcome> {
    const leaveSetup = await setupLanes();
    try {
      return await handleClaimed(job, signal, leaveSetup);
    } finally {
      leaveSetup();
    }
  }

  async function handleClaimed(job: PgBoss.JobWithMetadata<EpisodeJobData>, signal: AbortSignal, leaveSetup: () => void): Promise<JobOutcome> {
    const claim =
      (job.data.unit
        ? await fastClaimUnit(db, job.data.runEpisodeId, { workerId, jobId: job.id, leaseMs })
        : o.runner.fastClaim
          ? await fastClaimEpisode(db, job.data.runEpisodeId, { workerId, jobId: job.id, leaseMs })
          : null) ??
      (await claimEpisode(db, job.data.runEpisodeId, {
        workerId,
        jobId: job.id,
        leaseMs,
        isDeadHolder: isDead,
        createTrajectory: (tx, spec) => o.runner.createTrajectory(tx, spec),
      }));
    if (claim.kind === "skip") {
      await finishRunIfComplete(db, job.data.runId);
      return { kind: "done", output: { skipped: claim.reason } };
    }
    const ep = claim.episode;
    if (claim.runStarted) await markRunStarted(db, ep.runId);
    const controller = new AbortController();
    const onShutdown = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onShutdown, { once: true });
    running.set(ep.runEpisodeId, { ep, controller });
    let result: AttemptResult;
    try {
      const gated: ConcurrencyLimiter = {
        run(key, lim, fn, sig) {
          leaveSetup();
          return limiter.run(key, lim, fn, sig);
        },
      };
      result = await o.runner.play(db, ep, { signal: controller.signal, limiter: gated });
    } catch (e) {
      result = { ok: false, retryable: true, error: { kind: "internal", message: e instanceof Error ? e.message : String(e) } };
    } finally {
      running.delete(ep.runEpisodeId);
      signal.removeEventListener("abort", onShutdown);
    }

    if (controller.signal.aborted) {
      const reason = controller.signal.reason as AbortReason;
      if (reason === "lost") return { kind: "done", output: { lost: true } };
      if (reason === "cancelled") {
        await markCancelled(db, ep);
        await finishRunIfComplete(db, ep.runId);
        return { kind: "done", output: { cancelled: true } };
      }
      // Shutdown: back to the queue without using a retry.
      await markReleased(db, ep, "The worker stopped (SIGTERM) before the episode ended; it restarts from the beginning.");
      return { kind: "requeue", message: "worker stopping", after: () => requeueFresh(ep.runEpisodeId) };
    }

    if (result.ok) {
      // Checked after the episode's own commit: the last episode to commit always sees every other
      // one ended, so the run is marked DONE exactly when its last episode ends.
      const stored = await markDone(db, ep);
      if (await finishRunIfComplete(db, ep.runId)) log(`run ${ep.runId} is done`);
      return { kind: "done", output: stored ? {} : { lost: true } };
    }
    const canRetry = result.retryable && job.retryCount < job.retryLimit;
    const stored = await markFailed(db, ep, result.error, !canRetry);
    if (!canRetry) await finishRunIfComplete(db, ep.runId);
    if (!stored) return { kind: "done", output: { lost: true } };
    return canRetry ? { kind: "retry", message: `${result.error.kind}: ${result.error.message}` } : { kind: "done", output: { failed: result.error.kind } };
  }

  // Heartbeat: renew leases every leaseMs/4; stop episodes of cancelled runs every 2 s.
  let lastRenew = Date.now();
  let beating = false;
  const heartbeat = setInterval(async () => {
    if (beating || running.size === 0) return;
    beating = true;
    try {
      const runIds = [...new Set([...running.values()].map((r) => r.ep.runId))];
      const cancelled = await db.run.findMany({ where: { id: { in: runIds }, status: "CANCELLED" }, select: { id: true } });
      const cancelledIds = new Set(cancelled.map((r) => r.id));
      for (const r of running.values()) if (cancelledIds.has(r.ep.runId)) r.controller.abort("cancelled" satisfies AbortReason);
      if (Date.now() - lastRenew >= leaseMs / 4) {
        lastRenew = Date.now();
        // Only episodes claimed before the renewal can be missing from its answer.
        const before = [...running.values()];
        const held = await db.$queryRawUnsafe<{ id: string; attempts: number }[]>(
          `UPDATE "RunEpisode" SET "leaseUntil" = (now() AT TIME ZONE 'UTC') + ($2 * interval '1 millisecond')
           WHERE "workerId" = $1 AND status = 'RUNNING' RETURNING id, attempts`,
          workerId,
          leaseMs,
        );
        const mine = new Set(held.map((h) => `${h.id}:${h.attempts}`));
        for (const r of before) {
          if (running.get(r.ep.runEpisodeId) === r && !mine.has(`${r.ep.runEpisodeId}:${r.ep.attempt}`)) {
            log(`lost the lease of episode ${r.ep.runEpisodeId}; stopping it`);
            r.controller.abort("lost" satisfies AbortReason);
          }
        }
      }
    } catch (e) {
      log(`heartbeat failed: ${(e as Error).message}`);
    } finally {
      beating = false;
    }
  }, 2000);
  heartbeat.unref();

  async function reap() {
    const lost = await findLostEpisodes(db, isDead);
    for (const l of lost) {
      if (running.has(l.id)) continue; // ours: the heartbeat is late, not dead
      const r = await reclaimLost(db, l, maxAttempts);
      if (!r) continue;
      log(`episode ${l.id}: worker ${l.workerId} is gone; ${r.status === "QUEUED" ? "queued again from the start" : r.status.toLowerCase()}`);
      if (l.jobId) await boss.cancel(EPISODE_QUEUE, l.jobId).catch(() => {});
      if (r.status === "QUEUED") await requeueFresh(l.id);
      else await finishRunIfComplete(db, l.runId);
    }
    await limiter.reclaimDead().catch(() => 0);
  }

  async function reconcile() {
    // Jobs first, then episodes: an episode whose job starts between the two reads is still seen as having one.
    const jobs = await episodeJobStates(boss, orphanGraceS);
    const quietSince = new Date(Date.now() - orphanGraceS * 1000);
    const queued = await db.runEpisode.findMany({
      where: { status: "QUEUED", updatedAt: { lt: quietSince }, run: { status: { in: ["QUEUED", "RUNNING"] } } },
      orderBy: [{ runId: "asc" }, { position: "asc" }],
      select: { id: true, runId: true, caseId: true, agentEndpointId: true, variant: true, mode: true, repeat: true, position: true },
      take: 10_000,
    });
    const missing = queued.filter((e) => !jobs.live.has(e.id));
    if (missing.length) {
      // A job active for long while its episode is still QUEUED was fetched by a worker that died
      // before claiming it: cancel it first (pg-boss would refuse to start a second active job
      // with the same singleton key).
      const stale = missing.flatMap((e) => jobs.stale.get(e.id) ?? []);
      if (stale.length) await boss.cancel(EPISODE_QUEUE, stale);
      log(`queueing ${missing.length} episode(s) that had no job${stale.length ? ` (${stale.length} fetched by a worker that is gone)` : ""}`);
      await sendEpisodeJobs(boss, missing, retry);
    }
    const open = await db.run.findMany({ where: { status: { in: ["QUEUED", "RUNNING", "PAUSED"] } }, select: { id: true, status: true } });
    for (const r of open) {
      if (await finishRunIfComplete(db, r.id)) log(`run ${r.id} is done`);
      // A paused run's queued jobs were cancelled by the pause; any queued since are cancelled too.
      else if (r.status === "PAUSED") await cancelQueuedJobs(boss, r.id);
    }
  }

  const safe = (name: string, f: () => Promise<void>) => async () => {
    try {
      await f();
    } catch (e) {
      log(`${name} failed: ${(e as Error).message}`);
    }
  };
  await safe("reaper", reap)();
  await safe("reconciler", reconcile)();

  const dispatcher = startDispatcher<EpisodeJobData>({ boss, queue: EPISODE_QUEUE, concurrency, handle, pollMs: o.pollMs ?? envNumber("WORKER_POLL_MS", 1000), onError: (e) => log(`job error: ${e instanceof Error ? e.message : String(e)}`) });
  const reaper = setInterval(safe("reaper", reap), reapMs);
  const reconciler = setInterval(safe("reconciler", reconcile), reconcileMs);
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
      await reap();
      await reconcile();
    },
    async stop({ drainMs = envNumber("WORKER_DRAIN_SECONDS", 30) * 1000 } = {}) {
      if (stopped) return;
      stopped = true;
      clearInterval(reaper);
      clearInterval(reconciler);
      await dispatcher.stop({ drainMs });
      clearInterval(heartbeat);
      await limiter.stop();
      await boss.stop({ graceful: false, wait: true, timeout: 2000 }).catch(() => {});
      await db.$disconnect();
    },
  };
}
