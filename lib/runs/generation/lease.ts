// Leases of generation jobs, as episodes have them (../claim.ts, ../worker-upkeep.ts): an attempt
// claims its GenerationJob (QUEUED → RUNNING) with a lease that the worker's heartbeat renews; an
// attempt that lost its lease (handed back, cancelled) is stopped. The reaper hands back a RUNNING
// job whose lease expired or whose worker process on this host is gone: QUEUED again with a fresh
// pg-boss job (the job starts over, as a retry does), or FAILED once it has had maxAttempts
// attempts — so a crashed worker no longer leaves a job RUNNING forever.
import "server-only";
import type PgBoss from "pg-boss";
import type { Db } from "@/lib/db/client";
import { NOW_UTC } from "@/lib/llm/endpoint-limiter";
import { GENERATION_QUEUE } from "./queue";

/** Takes a QUEUED job for this attempt; its attempt number, or null when the job is not QUEUED. */
export async function claimGenerationJob(db: Db, id: string, o: { workerId: string; bossJobId: string; leaseMs: number }): Promise<{ attempt: number } | null> {
  const rows = await db.$queryRawUnsafe<{ attempts: number }[]>(
    `UPDATE "GenerationJob" SET status = 'RUNNING', attempts = attempts + 1, "workerId" = $2, "bossJobId" = $3,
            "leaseUntil" = ${NOW_UTC} + ($4 * interval '1 millisecond'), "startedAt" = ${NOW_UTC}, error = NULL
     WHERE id = $1 AND status = 'QUEUED' RETURNING attempts`,
    id,
    o.workerId,
    o.bossJobId,
    o.leaseMs,
  );
  return rows[0] ? { attempt: rows[0].attempts } : null;
}

/** Renews the leases of this worker's RUNNING jobs; the `id:attempt` of those it still holds. */
export async function renewGenerationLeases(db: Db, workerId: string, leaseMs: number): Promise<Set<string>> {
  const rows = await db.$queryRawUnsafe<{ id: string; attempts: number }[]>(
    `UPDATE "GenerationJob" SET "leaseUntil" = ${NOW_UTC} + ($2 * interval '1 millisecond')
     WHERE "workerId" = $1 AND status = 'RUNNING' RETURNING id, attempts`,
    workerId,
    leaseMs,
  );
  return new Set(rows.map((r) => `${r.id}:${r.attempts}`));
}

export interface LostGenerationJob {
  id: string;
  workerId: string | null;
  attempts: number;
  bossJobId: string | null;
}

/** RUNNING jobs whose lease expired (or never was: rows from before leases) or whose holder is dead. */
export async function findLostGenerationJobs(db: Db, isDeadHolder: (w: string | null) => boolean): Promise<LostGenerationJob[]> {
  const rows = await db.$queryRawUnsafe<(LostGenerationJob & { expired: boolean })[]>(
    `SELECT id, "workerId", attempts, "bossJobId", COALESCE("leaseUntil" < ${NOW_UTC}, true) AS expired FROM "GenerationJob" WHERE status = 'RUNNING'`,
  );
  return rows.filter((r) => r.expired || isDeadHolder(r.workerId)).map(({ expired: _, ...r }) => r);
}

/**
 * Hands a lost job back — QUEUED, or FAILED once it has had maxAttempts attempts — with the reason
 * in its error. Null if the job moved on meanwhile (finished, cancelled, renewed by a new attempt).
 */
export async function reclaimLostGenerationJob(db: Db, lost: LostGenerationJob, maxAttempts: number): Promise<"QUEUED" | "FAILED" | null> {
  const failed = lost.attempts >= maxAttempts;
  const message = `Worker ${lost.workerId ?? "?"} stopped during attempt ${lost.attempts}` + (failed ? `; no attempts left (${maxAttempts}).` : "; the job starts over.");
  const rows = await db.$queryRawUnsafe<{ status: "QUEUED" | "FAILED" }[]>(
    `UPDATE "GenerationJob" SET status = $4::"GenerationStatus", "workerId" = NULL, "leaseUntil" = NULL, error = $5,
            "finishedAt" = CASE WHEN $4::text = 'FAILED' THEN ${NOW_UTC} ELSE NULL END,
            progress = jsonb_set(progress, '{stage}', to_jsonb($6::text))
     WHERE id = $1 AND status = 'RUNNING' AND attempts = $2 AND "workerId" IS NOT DISTINCT FROM $3
     RETURNING status::text AS status`,
    lost.id,
    lost.attempts,
    lost.workerId,
    failed ? "FAILED" : "QUEUED",
    message,
    failed ? "failed" : "queued again",
  );
  return rows[0]?.status ?? null;
}

export interface GenerationReapContext {
  db: Db;
  boss: PgBoss;
  /** Jobs played by this worker (by id): never reaped here, the heartbeat is late, not dead. */
  running: ReadonlyMap<string, unknown>;
  isDeadHolder(workerId: string | null): boolean;
  maxAttempts: number;
  /** Queues a fresh pg-boss job for a job handed back. */
  send(generationJobId: string): Promise<void>;
  log(line: string): void;
}

/** One pass of the reaper; the jobs it handed back, with their new status. */
export async function reapGenerationJobs(c: GenerationReapContext): Promise<{ id: string; status: "QUEUED" | "FAILED" }[]> {
  const out: { id: string; status: "QUEUED" | "FAILED" }[] = [];
  for (const l of await findLostGenerationJobs(c.db, c.isDeadHolder)) {
    if (c.running.has(l.id)) continue;
    const status = await reclaimLostGenerationJob(c.db, l, c.maxAttempts);
    if (!status) continue;
    out.push({ id: l.id, status });
    c.log(`generation job ${l.id}: worker ${l.workerId ?? "?"} is gone; ${status === "QUEUED" ? "queued again from the start" : "failed"}`);
    // The dead attempt's pg-boss job would block a new one (one active job per singleton key).
    if (l.bossJobId) await c.boss.cancel(GENERATION_QUEUE, l.bossJobId).catch(() => {});
    if (status === "QUEUED") await c.send(l.id);
  }
  return out;
}
