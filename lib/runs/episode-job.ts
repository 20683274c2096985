// The life of one RunEpisode in the database, as the worker drives it. Every transition is a
// fenced update: it applies only if the row is still held by this worker for this attempt
// (workerId + attempts + status RUNNING), so a worker that lost its lease cannot overwrite what
// another one did since.
//
// RESUME POLICY — an interrupted attempt is retried from the start. Its partial trajectory
// (steps, evaluations, LLM calls) is deleted in the same transaction that starts the next attempt
// (or that hands the episode back to the queue after a lost worker); the tokens and cost it had
// spent are kept on a RunError row. So a finished episode has exactly one trajectory, which
// played from its first step to its last in one attempt.
import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { NOW_UTC } from "@/lib/jobs/endpoint-limiter";
import type { EvaluationUnitSpec } from "./evaluation/unit";
import type { StoredEvaluationSettings } from "./evaluation/schemas";

type Tx = Prisma.TransactionClient;

export interface EpisodeSpec {
  runEpisodeId: string;
  runId: string;
  caseId: string;
  /** null for an evaluation run's unit. */
  agentEndpointId: string | null;
  variant: string;
  mode: "STANDARD" | "ADVERSARIAL";
  repeat: number;
  /** null for an evaluation run's unit. */
  emulatorEndpointId: string | null;
  evaluatorEndpointId: string | null;
  seed: number;
  promptVersions: string[];
  /** An evaluation run's unit: what to score. null for an episode. */
  unit: EvaluationUnitSpec | null;
}

export interface ClaimedEpisode extends EpisodeSpec {
  attempt: number;
  /** The attempt's own trajectory; for an evaluation unit, the stored trajectory it scores. */
  trajectoryId: string;
  workerId: string;
}

export type ClaimResult = { kind: "claimed"; episode: ClaimedEpisode; runStarted: boolean } | { kind: "skip"; reason: string };

/** Deletes an attempt's trajectory (cascading steps, evaluations, calls); returns what it had spent. */
async function discardTrajectory(tx: Tx, trajectoryId: string | null): Promise<{ inputTokens: number; outputTokens: number; costUsd: number }> {
  const none = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  if (!trajectoryId) return none;
  const spent = await tx.$queryRaw<{ i: number | null; o: number | null; c: number | null }[]>`
    SELECT sum("inputTokens")::float8 AS i, sum("outputTokens")::float8 AS o, sum("costUsd")::float8 AS c FROM "LlmCall" WHERE "trajectoryId" = ${trajectoryId}`;
  await tx.trajectory.deleteMany({ where: { id: trajectoryId } });
  const s = spent[0];
  return s ? { inputTokens: Math.round(s.i ?? 0), outputTokens: Math.round(s.o ?? 0), costUsd: s.c ?? 0 } : none;
}

export interface ClaimOptions {
  workerId: string;
  jobId: string;
  leaseMs: number;
  /** Whether a RUNNING row's holder is known dead (same host, pid gone). */
  isDeadHolder: (workerId: string | null) => boolean;
  /** Creates the attempt's trajectory row inside the claim transaction; returns its id. */
  createTrajectory: (tx: Tx, spec: EpisodeSpec) => Promise<string>;
}

/**
 * Takes the episode for this worker: locks the row, checks the run may proceed, discards the
 * previous attempt's partial trajectory, creates the new attempt's trajectory and marks the row
 * RUNNING with a lease — all in one transaction.
 */
export async function claimEpisode(db: Db, runEpisodeId: string, o: ClaimOptions): Promise<ClaimResult> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      {
        id: string;
        runId: string;
        caseId: string;
        agentEndpointId: string;
        variant: string;
        mode: "STANDARD" | "ADVERSARIAL";
        repeat: number;
        status: string;
        attempts: number;
        workerId: string | null;
        trajectoryId: string | null;
        sourceTrajectoryId: string | null;
        evalKind: "SAFETY" | "HELPFULNESS" | null;
        leaseLive: boolean;
      }[]
    >`SELECT id, "runId", "caseId", "agentEndpointId", variant, mode, repeat, status::text AS status, attempts, "workerId", "trajectoryId",
             "sourceTrajectoryId", "evalKind"::text AS "evalKind",
             COALESCE("leaseUntil" > (now() AT TIME ZONE 'UTC'), false) AS "leaseLive"
      FROM "RunEpisode" WHERE id = ${runEpisodeId} FOR UPDATE`;
    const ep = rows[0];
    if (!ep) return { kind: "skip", reason: "the episode no longer exists" };
    if (ep.status === "DONE" || ep.status === "FAILED" || ep.status === "CANCELLED") return { kind: "skip", reason: `the episode is already ${ep.status}` };
    // FOR SHARE: a pause or cancel (an UPDATE of the run) waits for claims in progress and every
    // claim after it sees the new status.
    const runs = await tx.$queryRaw<{ status: string; seed: number; emulatorEndpointId: string | null; evaluatorEndpointId: string | null; promptVersions: unknown; evaluation: unknown }[]>`
      SELECT status::text AS status, seed, "emulatorEndpointId", "evaluatorEndpointId", "promptVersions", evaluation FROM "Run" WHERE id = ${ep.runId} FOR SHARE`;
    const run = runs[0];
    if (!run) return { kind: "skip", reason: "the run no longer exists" };
    if (run.status === "CANCELLED") {
      if (ep.status === "QUEUED") await tx.runEpisode.update({ where: { id: ep.id }, data: { status: "CANCELLED", finishedAt: new Date() } });
      return { kind: "skip", reason: "the run was cancelled" };
    }
    if (run.status === "PAUSED") return { kind: "skip", reason: "the run is paused" };
    if (ep.status === "RUNNING") {
      if (ep.leaseLive && !o.isDeadHolder(ep.workerId)) return { kind: "skip", reason: `the episode is running on ${ep.workerId}` };
      // Its worker died: that attempt is over.
      const spent = await discardTrajectory(tx, ep.trajectoryId);
      await tx.runError.create({
        data: { runId: ep.runId, runEpisodeId: ep.id, attempt: ep.attempts, kind: "worker_lost", message: `Worker ${ep.workerId ?? "?"} stopped during attempt ${ep.attempts}; the episode restarts from the beginning.`, ...spent },
      });
    } else {
      const spent = await discardTrajectory(tx, ep.trajectoryId);
      if (spent.inputTokens || spent.outputTokens) {
        // The failed attempt's cost goes to its error row.
        const last = await tx.runError.findFirst({ where: { runEpisodeId: ep.id, attempt: ep.attempts }, orderBy: { id: "desc" }, select: { id: true } });
        if (last) await tx.runError.update({ where: { id: last.id }, data: spent });
      }
    }
    const spec: EpisodeSpec = {
      runEpisodeId: ep.id,
      runId: ep.runId,
      caseId: ep.caseId,
      agentEndpointId: ep.agentEndpointId,
      variant: ep.variant,
      mode: ep.mode,
      repeat: ep.repeat,
      emulatorEndpointId: run.emulatorEndpointId,
      evaluatorEndpointId: run.evaluatorEndpointId,
      seed: run.seed,
      promptVersions: Array.isArray(run.promptVersions) ? (run.promptVersions as string[]) : [],
      unit:
        ep.sourceTrajectoryId && ep.evalKind && run.evaluation
          ? { sourceTrajectoryId: ep.sourceTrajectoryId, kind: ep.evalKind, replicate: ep.repeat + 1, settings: run.evaluation as StoredEvaluationSettings }
          : null,
    };
    // An evaluation unit scores a stored trajectory: no trajectory of its own.
    const trajectoryId = spec.unit ? null : await o.createTrajectory(tx, spec);
    const attempt = ep.attempts + 1;
    await tx.$executeRawUnsafe(
      `UPDATE "RunEpisode" SET status = 'RUNNING', attempts = $2, "workerId" = $3, "jobId" = $4, "trajectoryId" = $5,
              "leaseUntil" = ${NOW_UTC} + ($6 * interval '1 millisecond'), "startedAt" = COALESCE("startedAt", ${NOW_UTC}),
              "finishedAt" = NULL, "updatedAt" = ${NOW_UTC}
       WHERE id = $1`,
      ep.id,
      attempt,
      o.workerId,
      o.jobId,
      trajectoryId,
      o.leaseMs,
    );
    return { kind: "claimed", episode: { ...spec, attempt, trajectoryId: trajectoryId ?? spec.unit!.sourceTrajectoryId, workerId: o.workerId }, runStarted: run.status === "QUEUED" };
  });
}

/**
 * The common claim in one statement (one round trip, no interactive transaction): a QUEUED
 * episode without a previous attempt's trajectory, of a QUEUED or RUNNING run. Locks the episode
 * (FOR UPDATE) and the run (FOR SHARE) like claimEpisode, inserts the attempt's trajectory row (the
 * engine fills it) and marks the episode RUNNING. Returns null when the episode is in any other
 * state, or is an evaluation run's unit — the caller then uses claimEpisode, which handles every case.
 */
export async function fastClaimEpisode(db: Db, runEpisodeId: string, o: Pick<ClaimOptions, "workerId" | "jobId" | "leaseMs">): Promise<ClaimResult | null> {
  const trajectoryId = `t${randomUUID().replace(/-/g, "")}`;
  const rows = await db.$queryRawUnsafe<
    { runId: string; caseId: string; agentEndpointId: string; variant: string; mode: "STANDARD" | "ADVERSARIAL"; repeat: number; attempts: number; emulatorEndpointId: string; evaluatorEndpointId: string | null; seed: number; promptVersions: unknown; runStatus: string }[]
  >(
    `WITH ep AS (
       SELECT * FROM "RunEpisode" WHERE id = $1 AND status = 'QUEUED' AND "trajectoryId" IS NULL AND "sourceTrajectoryId" IS NULL FOR UPDATE
     ), run AS (
       SELECT r.id, r.status::text AS status, r.seed, r."emulatorEndpointId", r."evaluatorEndpointId", r."promptVersions"
       FROM "Run" r JOIN ep ON r.id = ep."runId" WHERE r.status IN ('QUEUED', 'RUNNING') FOR SHARE OF r
     ), traj AS (
       INSERT INTO "Trajectory" (id, "caseId", origin, status, "agentModel", "emulatorModel", "emulatorMode", "agentVariant", "stepCount", "contentHash", raw,
                                 "agentEndpointId", "emulatorEndpointId", "evaluatorEndpointId", "runId", "startedAt", "createdAt")
       SELECT $2, ep."caseId", 'EMULATED', 'RUNNING', am.model, em.model, ep.mode, ep.variant, 0, 'emulated:pending:' || $2, '{}'::jsonb,
              ep."agentEndpointId", run."emulatorEndpointId", run."evaluatorEndpointId", ep."runId", ${NOW_UTC}, ${NOW_UTC}
       FROM ep JOIN run ON true JOIN "ModelEndpoint" am ON am.id = ep."agentEndpointId" JOIN "ModelEndpoint" em ON em.id = run."emulatorEndpointId"
       RETURNING id
     ), upd AS (
       UPDATE "RunEpisode" e SET status = 'RUNNING', attempts = e.attempts + 1, "workerId" = $3, "jobId" = $4, "trajectoryId" = traj.id,
              "leaseUntil" = ${NOW_UTC} + ($5 * interval '1 millisecond'), "startedAt" = COALESCE(e."startedAt", ${NOW_UTC}),
              "finishedAt" = NULL, "updatedAt" = ${NOW_UTC}
       FROM traj WHERE e.id = $1
       RETURNING e."runId", e."caseId", e."agentEndpointId", e.variant, e.mode, e.repeat, e.attempts
     )
     SELECT upd."runId", upd."caseId", upd."agentEndpointId", upd.variant, upd.mode::text AS mode, upd.repeat, upd.attempts,
            run."emulatorEndpointId", run."evaluatorEndpointId", run.seed, run."promptVersions", run.status AS "runStatus"
     FROM upd JOIN run ON run.id = upd."runId"`,
    runEpisodeId,
    trajectoryId,
    o.workerId,
    o.jobId,
    o.leaseMs,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    kind: "claimed",
    runStarted: r.runStatus === "QUEUED",
    episode: {
      runEpisodeId,
      runId: r.runId,
      caseId: r.caseId,
      agentEndpointId: r.agentEndpointId,
      variant: r.variant,
      mode: r.mode,
      repeat: r.repeat,
      emulatorEndpointId: r.emulatorEndpointId,
      evaluatorEndpointId: r.evaluatorEndpointId,
      seed: r.seed,
      promptVersions: Array.isArray(r.promptVersions) ? (r.promptVersions as string[]) : [],
      unit: null,
      attempt: r.attempts,
      trajectoryId,
      workerId: o.workerId,
    },
  };
}

/**
 * The common claim of an evaluation run's unit in one statement: a QUEUED unit of a QUEUED or
 * RUNNING run is marked RUNNING with a lease (the locks as in fastClaimEpisode). A unit has no
 * trajectory of its own, so there is nothing to create or discard. Returns null in any other
 * state — the caller then uses claimEpisode.
 */
export async function fastClaimUnit(db: Db, runEpisodeId: string, o: Pick<ClaimOptions, "workerId" | "jobId" | "leaseMs">): Promise<ClaimResult | null> {
  const rows = await db.$queryRawUnsafe<
    { runId: string; caseId: string; mode: "STANDARD" | "ADVERSARIAL"; variant: string; repeat: number; attempts: number; sourceTrajectoryId: string; evalKind: "SAFETY" | "HELPFULNESS"; evaluatorEndpointId: string | null; seed: number; promptVersions: unknown; evaluation: unknown; runStatus: string }[]
  >(
    `WITH ep AS (
       SELECT id, "runId" FROM "RunEpisode" WHERE id = $1 AND status = 'QUEUED' AND "sourceTrajectoryId" IS NOT NULL AND "evalKind" IS NOT NULL FOR UPDATE
     ), run AS (
       SELECT r.id, r.status::text AS status, r.seed, r."evaluatorEndpointId", r."promptVersions", r.evaluation
       FROM "Run" r JOIN ep ON r.id = ep."runId" WHERE r.status IN ('QUEUED', 'RUNNING') AND r.evaluation IS NOT NULL FOR SHARE OF r
     ), upd AS (
       UPDATE "RunEpisode" e SET status = 'RUNNING', attempts = e.attempts + 1, "workerId" = $2, "jobId" = $3,
              "leaseUntil" = ${NOW_UTC} + ($4 * interval '1 millisecond'), "startedAt" = COALESCE(e."startedAt", ${NOW_UTC}),
              "finishedAt" = NULL, "updatedAt" = ${NOW_UTC}
       FROM run WHERE e.id = $1
       RETURNING e."runId", e."caseId", e.mode, e.variant, e.repeat, e.attempts, e."sourceTrajectoryId", e."evalKind"
     )
     SELECT upd."runId", upd."caseId", upd.mode::text AS mode, upd.variant, upd.repeat, upd.attempts, upd."sourceTrajectoryId", upd."evalKind"::text AS "evalKind",
            run."evaluatorEndpointId", run.seed, run."promptVersions", run.evaluation, run.status AS "runStatus"
     FROM upd JOIN run ON run.id = upd."runId"`,
    runEpisodeId,
    o.workerId,
    o.jobId,
    o.leaseMs,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    kind: "claimed",
    runStarted: r.runStatus === "QUEUED",
    episode: {
      runEpisodeId,
      runId: r.runId,
      caseId: r.caseId,
      agentEndpointId: null,
      variant: r.variant,
      mode: r.mode,
      repeat: r.repeat,
      emulatorEndpointId: null,
      evaluatorEndpointId: r.evaluatorEndpointId,
      seed: r.seed,
      promptVersions: Array.isArray(r.promptVersions) ? (r.promptVersions as string[]) : [],
      unit: { sourceTrajectoryId: r.sourceTrajectoryId, kind: r.evalKind, replicate: r.repeat + 1, settings: r.evaluation as StoredEvaluationSettings },
      attempt: r.attempts,
      trajectoryId: r.sourceTrajectoryId,
      workerId: o.workerId,
    },
  };
}

/** QUEUED → RUNNING for the run, outside the claim (so concurrent claims never wait on each other for it). */
export async function markRunStarted(db: Db, runId: string): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "Run" SET status = 'RUNNING', "startedAt" = COALESCE("startedAt", ${NOW_UTC}), "updatedAt" = ${NOW_UTC} WHERE id = $1 AND status = 'QUEUED'`,
    runId,
  );
}

const FENCE = `id = $1 AND "workerId" = $2 AND attempts = $3 AND status = 'RUNNING'`;

/** The attempt finished: DONE. False when this worker no longer held the episode. */
export async function markDone(db: Db, ep: ClaimedEpisode): Promise<boolean> {
  const n = await db.$executeRawUnsafe(
    `UPDATE "RunEpisode" SET status = 'DONE', "finishedAt" = ${NOW_UTC}, "leaseUntil" = NULL, "lastError" = NULL, "errorKind" = NULL, "updatedAt" = ${NOW_UTC} WHERE ${FENCE}`,
    ep.runEpisodeId,
    ep.workerId,
    ep.attempt,
  );
  return n > 0;
}

export interface AttemptError {
  kind: string;
  message: string;
}

/**
 * The attempt failed. `final`: the episode is FAILED (the partial trajectory stays, for reading);
 * otherwise it goes back to QUEUED and its job is retried (the next attempt discards the partial
 * trajectory). Either way the error is stored as a RunError row.
 */
export async function markFailed(db: Db, ep: ClaimedEpisode, err: AttemptError, final: boolean): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const n = await tx.$executeRawUnsafe(
      `UPDATE "RunEpisode" SET status = $4::"RunEpisodeStatus", "lastError" = $5, "errorKind" = $6, "leaseUntil" = NULL, "workerId" = NULL,
              "finishedAt" = CASE WHEN $4 = 'FAILED' THEN ${NOW_UTC} ELSE NULL END, "updatedAt" = ${NOW_UTC}
       WHERE ${FENCE}`,
      ep.runEpisodeId,
      ep.workerId,
      ep.attempt,
      final ? "FAILED" : "QUEUED",
      err.message.slice(0, 4000),
      err.kind,
    );
    if (n === 0) return false;
    await tx.runError.create({ data: { runId: ep.runId, runEpisodeId: ep.runEpisodeId, attempt: ep.attempt, kind: err.kind, message: err.message.slice(0, 4000), final } });
    return true;
  });
}

/** The run was cancelled while the attempt ran: CANCELLED (the partial trajectory stays). */
export async function markCancelled(db: Db, ep: ClaimedEpisode): Promise<boolean> {
  const n = await db.$executeRawUnsafe(
    `UPDATE "RunEpisode" SET status = 'CANCELLED', "finishedAt" = ${NOW_UTC}, "leaseUntil" = NULL, "updatedAt" = ${NOW_UTC} WHERE ${FENCE}`,
    ep.runEpisodeId,
    ep.workerId,
    ep.attempt,
  );
  return n > 0;
}

/**
 * The worker is stopping (SIGTERM past its drain time): the episode goes back to QUEUED without
 * counting as a failure; the next attempt starts over.
 */
export async function markReleased(db: Db, ep: ClaimedEpisode, reason: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const n = await tx.$executeRawUnsafe(
      `UPDATE "RunEpisode" SET status = 'QUEUED', "leaseUntil" = NULL, "workerId" = NULL, "updatedAt" = ${NOW_UTC} WHERE ${FENCE}`,
      ep.runEpisodeId,
      ep.workerId,
      ep.attempt,
    );
    if (n === 0) return false;
    await tx.runError.create({ data: { runId: ep.runId, runEpisodeId: ep.runEpisodeId, attempt: ep.attempt, kind: "worker_stopped", message: reason } });
    return true;
  });
}

export interface LostEpisode {
  id: string;
  runId: string;
  workerId: string | null;
  attempts: number;
  jobId: string | null;
}

/**
 * Episodes whose worker is gone: RUNNING with an expired lease, or held by a process of this host
 * that no longer exists.
 */
export async function findLostEpisodes(db: Db, isDeadHolder: (w: string | null) => boolean): Promise<LostEpisode[]> {
  const rows = await db.$queryRawUnsafe<(LostEpisode & { expired: boolean })[]>(
    `SELECT id, "runId", "workerId", attempts, "jobId", COALESCE("leaseUntil" < ${NOW_UTC}, true) AS expired FROM "RunEpisode" WHERE status = 'RUNNING'`,
  );
  return rows.filter((r) => r.expired || isDeadHolder(r.workerId));
}

/**
 * Hands a lost episode back: its partial trajectory is discarded (cost kept on a RunError
 * "worker_lost") and it is QUEUED again — or FAILED once it has had maxAttempts attempts, or
 * CANCELLED if its run was. Returns the new status, or null if someone else got there first.
 */
export async function reclaimLost(db: Db, lost: LostEpisode, maxAttempts: number): Promise<{ status: "QUEUED" | "FAILED" | "CANCELLED"; runStatus: string } | null> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ trajectoryId: string | null; runStatus: string }[]>`
      SELECT e."trajectoryId", r.status::text AS "runStatus" FROM "RunEpisode" e JOIN "Run" r ON r.id = e."runId"
      WHERE e.id = ${lost.id} AND e.status = 'RUNNING' AND e.attempts = ${lost.attempts} AND e."workerId" IS NOT DISTINCT FROM ${lost.workerId}
      FOR UPDATE OF e`;
    const row = rows[0];
    if (!row) return null;
    const spent = await discardTrajectory(tx, row.trajectoryId);
    const status = row.runStatus === "CANCELLED" ? "CANCELLED" : lost.attempts >= maxAttempts ? "FAILED" : "QUEUED";
    const message =
      `Worker ${lost.workerId ?? "?"} stopped during attempt ${lost.attempts}` +
      (status === "FAILED" ? `; no attempts left (${maxAttempts}).` : status === "CANCELLED" ? "; the run was cancelled." : "; the episode restarts from the beginning.");
    await tx.runEpisode.update({
      where: { id: lost.id },
      data: {
        status,
        workerId: null,
        leaseUntil: null,
        ...(status === "QUEUED" ? {} : { finishedAt: new Date() }),
        ...(status === "FAILED" ? { lastError: message, errorKind: "worker_lost" } : {}),
      },
    });
    await tx.runError.create({ data: { runId: lost.runId, runEpisodeId: lost.id, attempt: lost.attempts, kind: "worker_lost", message, final: status === "FAILED", ...spent } });
    return { status, runStatus: row.runStatus };
  });
}
