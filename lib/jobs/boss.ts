// A thin wrapper over pg-boss (PostgreSQL-backed jobs) on the same database as the app: the
// DATABASE_URL PostgreSQL, or the embedded PGlite server (whose URL lib/db/open.ts finds). Its
// tables live in the `pgboss` schema, created by pg-boss itself on first start.
//
// One queue, `episode`: one job per RunEpisode, singletonKey = "run:case:agent:variant:mode:repeat"
// (an evaluation run's unit, which has no agent: "run:unit:<id>")
// under the "stately" policy (at most one queued and one active job per key, so the same episode
// is never queued twice). Retries: retryLimit with exponential backoff from retryDelay.
//
// On the embedded database (checked: tests in lib/jobs/boss.test.ts): pg-boss's schema creation
// and maintenance take pg_advisory_xact_lock inside transactions, and its fetch uses FOR UPDATE
// SKIP LOCKED; both work because PGlite runs one transaction at a time (lib/db/pglite-queue.ts
// keeps a transaction's statements together). We turn off what is not needed: the cron scheduler
// (`schedule: false`, which would also poll the clock) and pg-boss's own worker loop — the
// dispatcher in ./dispatcher.ts uses fetch()/complete()/fail() so one process keeps N episodes
// running from one polling loop instead of N.
import "server-only";
import { randomBytes } from "node:crypto";
import PgBoss from "pg-boss";

export const EPISODE_QUEUE = "episode";
export const BOSS_SCHEMA = "pgboss";

export interface EpisodeJobData {
  runId: string;
  runEpisodeId: string;
}

export interface RetryPolicy {
  /** Retries after the first attempt (pg-boss retryLimit). */
  retryLimit: number;
  /** Seconds before the first retry; doubled each time with jitter (retryBackoff). */
  retryDelay: number;
}

function envInt(name: string, fallback: number, min = 0): number {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n >= min ? Math.floor(n) : fallback;
}

/** RUN_EPISODE_RETRIES (default 2, i.e. 3 attempts) and RUN_RETRY_DELAY_SECONDS (default 10). */
export function retryPolicyFromEnv(): RetryPolicy {
  return { retryLimit: envInt("RUN_EPISODE_RETRIES", 2), retryDelay: envInt("RUN_RETRY_DELAY_SECONDS", 10) };
}

/** How long pg-boss lets a job stay active before it fails it (our own leases catch dead workers much sooner). */
export const JOB_EXPIRE_SECONDS = 4 * 60 * 60;

export interface BossOptions {
  /** Run pg-boss maintenance (expire, archive, purge) in this process. Workers do; the web app does not. */
  supervise?: boolean;
  poolSize?: number;
}

export async function startBoss(url: string, options: BossOptions = {}): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: BOSS_SCHEMA,
    max: options.poolSize ?? 4,
    application_name: "toolemu-jobs",
    supervise: options.supervise ?? false,
    schedule: false,
    migrate: true,
    // Finished jobs are kept a day then archived; the run tables are the record that matters.
    archiveCompletedAfterSeconds: 24 * 60 * 60,
  });
  boss.on("error", (e: Error) => console.error("[jobs]", e.message));
  await boss.start();
  await boss.createQueue(EPISODE_QUEUE, {
    name: EPISODE_QUEUE,
    policy: "stately",
    retryLimit: 2,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: JOB_EXPIRE_SECONDS,
  });
  return boss;
}

// One boss per process for enqueueing (web app, CLI), kept on globalThis across dev reloads.
const g = globalThis as unknown as { __toolemuBoss?: { url: string; boss: Promise<PgBoss> } };

export function sharedBoss(url: string): Promise<PgBoss> {
  if (g.__toolemuBoss?.url !== url) {
    const boss = startBoss(url);
    g.__toolemuBoss = { url, boss };
    boss.catch(() => {
      if (g.__toolemuBoss?.boss === boss) g.__toolemuBoss = undefined;
    });
  }
  return g.__toolemuBoss!.boss;
}

export function episodeSingletonKey(e: { id?: string; runId: string; caseId: string | null; agentEndpointId: string | null; variant: string; mode: string; repeat: number }): string {
  // An evaluation run's unit has no agent, a SAGE episode no case; the row id is their key (their
  // natural keys hold a trajectory id, or a scenario and an authority context).
  if (e.agentEndpointId === null || e.caseId === null) return [e.runId, "unit", e.id].join(":");
  return [e.runId, e.caseId, e.agentEndpointId, e.variant, e.mode, e.repeat].join(":");
}

export interface EpisodeToSend {
  id: string;
  runId: string;
  /** null for a SAGE episode (it plays a scenario). */
  caseId: string | null;
  agentEndpointId: string | null;
  variant: string;
  mode: string;
  repeat: number;
  position: number;
}

/**
 * pg-boss fetches by (priority, created_on, id); jobs inserted together share created_on, so the
 * id decides. A uuid-shaped id that starts with the time and the position keeps the run's order
 * (and earlier runs before later ones).
 */
export function orderedJobId(position: number, now = Date.now()): string {
  const hex = now.toString(16).padStart(12, "0").slice(-12) + (position >>> 0).toString(16).padStart(8, "0") + randomBytes(6).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Queues one job per episode (bulk insert). An episode whose key already has a queued job is
 * skipped by pg-boss (stately policy), so calling this twice for the same episodes is harmless.
 * Earlier positions are fetched first (priority decreases with position).
 */
export async function sendEpisodeJobs(boss: PgBoss, episodes: EpisodeToSend[], policy: RetryPolicy = retryPolicyFromEnv()): Promise<void> {
  const CHUNK = 500;
  for (let i = 0; i < episodes.length; i += CHUNK) {
    await boss.insert(
      episodes.slice(i, i + CHUNK).map((e) => ({
        name: EPISODE_QUEUE,
        data: { runId: e.runId, runEpisodeId: e.id } satisfies EpisodeJobData,
        singletonKey: episodeSingletonKey(e),
        retryLimit: policy.retryLimit,
        retryDelay: policy.retryDelay,
        retryBackoff: true,
        expireInSeconds: JOB_EXPIRE_SECONDS,
        id: orderedJobId(e.position),
      })),
    );
  }
}

/** Cancels the run's jobs that have not started (pause, cancel). Returns how many. */
export async function cancelQueuedJobs(boss: PgBoss, runId: string): Promise<number> {
  const { rows } = await boss.getDb().executeSql(
    `SELECT id FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND data->>'runId' = $2 AND state < 'active'`,
    [EPISODE_QUEUE, runId],
  );
  const ids = rows.map((r: { id: string }) => r.id);
  if (ids.length) await boss.cancel(EPISODE_QUEUE, ids);
  return ids.length;
}

/**
 * Jobs of QUEUED-looking episodes, by state: `live` = queued or retrying, or active since less
 * than `graceSeconds`; `stale` = active for longer (a worker fetched it and died before it could
 * claim the episode — the claim takes milliseconds). Keyed by RunEpisode id.
 */
export async function episodeJobStates(boss: PgBoss, graceSeconds: number): Promise<{ live: Set<string>; stale: Map<string, string[]> }> {
  const { rows } = await boss.getDb().executeSql(
    `SELECT id, data->>'runEpisodeId' AS episode, (state = 'active' AND started_on < now() - $2 * interval '1 second') AS stale
     FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state <= 'active'`,
    [EPISODE_QUEUE, graceSeconds],
  );
  const live = new Set<string>();
  const stale = new Map<string, string[]>();
  for (const r of rows as { id: string; episode: string; stale: boolean }[]) {
    if (r.stale) stale.set(r.episode, [...(stale.get(r.episode) ?? []), r.id]);
    else live.add(r.episode);
  }
  return { live, stale };
}

/** What lib/runs needs from the job system (tests may pass a fake). */
export interface EpisodeQueue {
  send(episodes: EpisodeToSend[]): Promise<void>;
  cancelQueued(runId: string): Promise<number>;
}

export function bossQueue(boss: PgBoss | Promise<PgBoss>): EpisodeQueue {
  return {
    send: async (episodes) => sendEpisodeJobs(await boss, episodes),
    cancelQueued: async (runId) => cancelQueuedJobs(await boss, runId),
  };
}

/** The queue of this process (web app, CLI): a pg-boss without maintenance on the app's database. */
export function appQueue(): EpisodeQueue {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set.");
  return bossQueue(sharedBoss(url));
}
