// The life of one RunEpisode in the database, as the worker drives it. Every transition is a
// fenced update: it applies only if the row is still held by this worker for this attempt
// (workerId + attempts + status RUNNING), so a worker that lost its lease cannot overwrite what
// another one did since.
//
// RESUME POLICY — an interrupted attempt is retried from the start. Its partial trajectory
// (steps, evaluations, LLM calls) is deleted in the statement that claims the next attempt
// (./claim.ts), or in the transaction that hands the episode back to the queue after a lost
// worker; the tokens and cost it had spent are kept on a RunError row. So a finished episode has
// exactly one trajectory, which played from its first step to its last in one attempt — except
// an episode behind the online critic gate: it pauses at flagged calls and resumes from its stored
// steps, and a lost attempt after a person's answer goes back to that answer (./online-gate.ts).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma, Run } from "@/lib/db/generated/client";
import { NOW_UTC } from "@/lib/llm/endpoint-limiter";
import type { AttemptError } from "./attempt";
import { rollBackToLastAnswer } from "./online-gate";
import type { EvaluationUnitSpec } from "./evaluation/unit";
import type { CriticUnitSpec } from "./critic/unit";
import type { SageUnitSpec } from "./sage/unit";
import type { LoadedCase } from "@/lib/trajectory/case-spec";

type Tx = Prisma.TransactionClient;

export interface EpisodeSpec {
  runEpisodeId: string;
  runId: string;
  /** null for a SAGE episode (it plays `sage.scenarioId`). */
  caseId: string | null;
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
  /** A critic replay run's unit: which trajectory, which method. null otherwise. */
  critic?: CriticUnitSpec | null;
  /** A SAGE run's episode: scenario, authority context, the run's SAGE settings. null otherwise. */
  sage?: SageUnitSpec | null;
}

export interface ClaimedEpisode extends EpisodeSpec {
  attempt: number;
  /** InferAct trial (1 = first attempt; lib/runs/trials.ts). Absent: 1. */
  trial?: number;
  /** The claim kept a WAITING trajectory whose intervention was answered: the engine resumes it. */
  resume?: boolean;
  /** The attempt's own trajectory; for an evaluation unit, the stored trajectory it scores. */
  trajectoryId: string;
  workerId: string;
  /** The run's settings the engine needs, as the claim read them (absent: read them). */
  runSettings?: Pick<Run, "emulatorCritiqueRounds" | "loopMode" | "critic">;
  /** Whether the run has an online critic gate (InferAct trials; ./trials.ts). Absent: look it up. */
  gated?: boolean;
  /** An episode's case as the claim read it (absent: the engine reads it). */
  caseSpec?: LoadedCase;
}

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

/** QUEUED → RUNNING for the run, outside the claim (so concurrent claims never wait on each other for it). */
export async function markRunStarted(db: Db, runId: string): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "Run" SET status = 'RUNNING', "startedAt" = COALESCE("startedAt", ${NOW_UTC}), "updatedAt" = ${NOW_UTC} WHERE id = $1 AND status = 'QUEUED'`,
    runId,
  );
}

const FENCE = `id = $1 AND "workerId" = $2 AND attempts = $3 AND status = 'RUNNING'`;

// The attempt finished (DONE, and the next InferAct trial if it earns one): ./trials.ts markDoneWithTrials.

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
    const status = row.runStatus === "CANCELLED" ? "CANCELLED" : lost.attempts >= maxAttempts ? "FAILED" : "QUEUED";
    // A gated episode a person already answered goes back to that answer (lib/runs/online-gate.ts); any other starts over.
    const kept = status === "QUEUED" && row.trajectoryId ? await rollBackToLastAnswer(tx, row.trajectoryId) : null;
    const spent = kept ?? (await discardTrajectory(tx, row.trajectoryId));
    const message =
      `Worker ${lost.workerId ?? "?"} stopped during attempt ${lost.attempts}` +
      (status === "FAILED" ? `; no attempts left (${maxAttempts}).` : status === "CANCELLED" ? "; the run was cancelled." : kept ? "; the episode resumes from its last answered intervention." : "; the episode restarts from the beginning.");
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
