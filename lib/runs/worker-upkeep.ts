// The worker's timers beside its attempts (./worker-attempt.ts): the heartbeat (leases, cancelled
// runs), the reaper (episodes whose worker is gone) and the reconciler (episodes without a job,
// runs whose episodes have all ended).
import "server-only";
import type PgBoss from "pg-boss";
import type { Db } from "@/lib/db/client";
import { cancelQueuedJobs, EPISODE_QUEUE, episodeJobStates, sendEpisodeJobs, type RetryPolicy } from "@/lib/jobs/boss";
import type { DbLimiter } from "@/lib/llm/endpoint-limiter";
import { finishRunIfComplete } from "./control";
import { findLostEpisodes, reclaimLost } from "./episode-job";
import type { AbortReason, RunningAttempt } from "./worker-attempt";

export interface UpkeepContext {
  db: Db;
  boss: PgBoss;
  limiter: DbLimiter;
  workerId: string;
  leaseMs: number;
  running: Map<string, RunningAttempt>;
  isDeadHolder(workerId: string | null): boolean;
  requeueFresh(runEpisodeId: string): Promise<void>;
  log(line: string): void;
}

/** Queues a fresh job for a QUEUED episode of a QUEUED or RUNNING run; anything else is left alone. */
export async function requeueFresh(db: Db, boss: PgBoss, retry: RetryPolicy, runEpisodeId: string): Promise<void> {
  const e = await db.runEpisode.findUnique({
    where: { id: runEpisodeId },
    select: { id: true, runId: true, caseId: true, agentEndpointId: true, variant: true, mode: true, repeat: true, position: true, status: true, run: { select: { status: true } } },
  });
  if (!e || e.status !== "QUEUED" || (e.run.status !== "QUEUED" && e.run.status !== "RUNNING")) return;
  await sendEpisodeJobs(boss, [e], retry);
}

/** Heartbeat: stops attempts of cancelled runs on every beat; renews leases every leaseMs/4. */
export function startHeartbeat(c: UpkeepContext, everyMs = 2000): () => void {
  let lastRenew = Date.now();
  let beating = false;
  const timer = setInterval(async () => {
    if (beating || c.running.size === 0) return;
    beating = true;
    try {
      await stopCancelled(c);
      if (Date.now() - lastRenew >= c.leaseMs / 4) {
        lastRenew = Date.now();
        await renewLeases(c);
      }
    } catch (e) {
      c.log(`heartbeat failed: ${(e as Error).message}`);
    } finally {
      beating = false;
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

async function stopCancelled(c: UpkeepContext): Promise<void> {
  const runIds = [...new Set([...c.running.values()].map((r) => r.ep.runId))];
  const cancelled = await c.db.run.findMany({ where: { id: { in: runIds }, status: "CANCELLED" }, select: { id: true } });
  const cancelledIds = new Set(cancelled.map((r) => r.id));
  for (const r of c.running.values()) if (cancelledIds.has(r.ep.runId)) r.controller.abort("cancelled" satisfies AbortReason);
}

async function renewLeases(c: UpkeepContext): Promise<void> {
  // Only attempts claimed before the renewal can be missing from its answer.
  const before = [...c.running.values()];
  const held = await c.db.$queryRawUnsafe<{ id: string; attempts: number }[]>(
    `UPDATE "RunEpisode" SET "leaseUntil" = (now() AT TIME ZONE 'UTC') + ($2 * interval '1 millisecond')
     WHERE "workerId" = $1 AND status = 'RUNNING' RETURNING id, attempts`,
    c.workerId,
    c.leaseMs,
  );
  const mine = new Set(held.map((h) => `${h.id}:${h.attempts}`));
  for (const r of before) {
    if (c.running.get(r.ep.runEpisodeId) === r && !mine.has(`${r.ep.runEpisodeId}:${r.ep.attempt}`)) {
      c.log(`lost the lease of episode ${r.ep.runEpisodeId}; stopping it`);
      r.controller.abort("lost" satisfies AbortReason);
    }
  }
}

/** Hands back episodes whose worker is gone (not ours), and endpoint slots of dead holders. */
export async function reap(c: UpkeepContext, maxAttempts: number): Promise<void> {
  const lost = await findLostEpisodes(c.db, c.isDeadHolder);
  for (const l of lost) {
    if (c.running.has(l.id)) continue; // ours: the heartbeat is late, not dead
    const r = await reclaimLost(c.db, l, maxAttempts);
    if (!r) continue;
    c.log(`episode ${l.id}: worker ${l.workerId} is gone; ${r.status === "QUEUED" ? "queued again from the start" : r.status.toLowerCase()}`);
    if (l.jobId) await c.boss.cancel(EPISODE_QUEUE, l.jobId).catch(() => {});
    if (r.status === "QUEUED") await c.requeueFresh(l.id);
    else await finishRunIfComplete(c.db, l.runId);
  }
  await c.limiter.reclaimDead().catch(() => 0);
}

/**
 * Queues jobs for QUEUED episodes of active runs that have none (after `orphanGraceS`), marks
 * runs DONE whose episodes have all ended, and cancels jobs queued for paused runs.
 */
export async function reconcile(c: UpkeepContext, retry: RetryPolicy, orphanGraceS: number): Promise<void> {
  // Jobs first, then episodes: an episode whose job starts between the two reads is still seen as having one.
  const jobs = await episodeJobStates(c.boss, orphanGraceS);
  const quietSince = new Date(Date.now() - orphanGraceS * 1000);
  const queued = await c.db.runEpisode.findMany({
    where: { status: "QUEUED", updatedAt: { lt: quietSince }, run: { status: { in: ["QUEUED", "RUNNING"] } } },
    orderBy: [{ runId: "asc" }, { position: "asc" }],
    select: { id: true, runId: true, caseId: true, agentEndpointId: true, variant: true, mode: true, repeat: true, position: true },
    take: 10_000,
  });
  // A job active for long while its episode is not RUNNING belongs to a worker that died before
  // claiming the episode, or after pausing it at the online critic gate (WAITING) but before
  // completing the job: cancel it, whether or not another job is queued — pg-boss cannot start
  // a second active job with the same singleton key, and its fetch fails while one is queued.
  const orphaned = jobs.stale.size
    ? await c.db.runEpisode.findMany({ where: { id: { in: [...jobs.stale.keys()] }, status: { not: "RUNNING" } }, select: { id: true } })
    : [];
  const stale = orphaned.flatMap((e) => jobs.stale.get(e.id) ?? []);
  if (stale.length) {
    c.log(`cancelling ${stale.length} job(s) of worker(s) that are gone`);
    await c.boss.cancel(EPISODE_QUEUE, stale);
  }
  const missing = queued.filter((e) => !jobs.live.has(e.id));
  if (missing.length) {
    c.log(`queueing ${missing.length} episode(s) that had no job`);
    await sendEpisodeJobs(c.boss, missing, retry);
  }
  const open = await c.db.run.findMany({ where: { status: { in: ["QUEUED", "RUNNING", "PAUSED"] } }, select: { id: true, status: true } });
  for (const r of open) {
    if (await finishRunIfComplete(c.db, r.id)) c.log(`run ${r.id} is done`);
    // A paused run's queued jobs were cancelled by the pause; any queued since are cancelled too.
    else if (r.status === "PAUSED") await cancelQueuedJobs(c.boss, r.id);
  }
}
