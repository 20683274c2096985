// Pause, resume, cancel, retry failed — what a researcher does to a run while it plays.
//
//   pause   no new episode starts (queued jobs are cancelled); running ones finish.
//   resume  a paused run's queued episodes are queued again.
//   cancel  queued episodes are cancelled at once; running ones are stopped by their worker at its
//           next heartbeat and marked CANCELLED (their partial trajectory stays, INTERRUPTED).
//   retry   failed episodes go back to the queue; each attempt starts from scratch (the resume
//           policy: the partial trajectory of the failed attempt is deleted when the next begins).
import "server-only";
import type { Db } from "@/lib/db/client";
import { fastSql } from "@/lib/db/fast-sql";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/record";
import type { EpisodeQueue } from "@/lib/jobs/boss";
import { enqueueQueued, rerunAsNew } from "./create";
import { rerunEvaluationRun } from "./evaluation/create";
import { rerunCriticRun } from "./critic/create";
import { rerunSageRun } from "./sage/create";

async function loadRun(db: Db, runId: string) {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true, status: true, name: true } });
  if (!run) throw new AppError("No such run.", 404);
  return run;
}

export async function pauseRun(db: Db, actorId: string | null, runId: string, queue: EpisodeQueue | null) {
  const run = await loadRun(db, runId);
  if (run.status !== "QUEUED" && run.status !== "RUNNING") throw new AppError(`A ${run.status.toLowerCase()} run cannot be paused.`, 409);
  await db.$transaction(async (tx) => {
    await tx.run.update({ where: { id: runId }, data: { status: "PAUSED" } });
    await recordAudit(tx, { actorId, action: "run.pause", entityType: "Run", entityId: runId, before: { status: run.status } });
  });
  const cancelled = queue ? await queue.cancelQueued(runId) : 0;
  return { status: "PAUSED" as const, jobsCancelled: cancelled };
}

export async function resumeRun(db: Db, actorId: string | null, runId: string, queue: EpisodeQueue | null) {
  const run = await loadRun(db, runId);
  if (run.status !== "PAUSED") throw new AppError(`Only a paused run can be resumed (this one is ${run.status.toLowerCase()}).`, 409);
  const started = await db.runEpisode.count({ where: { runId, attempts: { gt: 0 } } });
  const status = started > 0 ? ("RUNNING" as const) : ("QUEUED" as const);
  await db.$transaction(async (tx) => {
    await tx.run.update({ where: { id: runId }, data: { status, finishedAt: null } });
    await recordAudit(tx, { actorId, action: "run.resume", entityType: "Run", entityId: runId });
  });
  const queued = queue ? await enqueueQueued(db, queue, runId) : 0;
  await finishRunIfComplete(db, runId);
  return { status, queued };
}

export async function cancelRun(db: Db, actorId: string | null, runId: string, queue: EpisodeQueue | null) {
  const run = await loadRun(db, runId);
  if (run.status === "CANCELLED" || run.status === "DONE") throw new AppError(`The run is already ${run.status.toLowerCase()}.`, 409);
  const cancelled = await db.$transaction(async (tx) => {
    // Episodes before the run: a worker's claim locks its episode, then the run (FOR SHARE);
    // taking the locks in the opposite order deadlocked with it.
    const { count } = await tx.runEpisode.updateMany({ where: { runId, status: { in: ["QUEUED", "WAITING"] } }, data: { status: "CANCELLED", finishedAt: new Date() } });
    // Episodes the online gate paused end here too: their trajectories stop waiting (INTERRUPTED, cancelled).
    await tx.trajectory.updateMany({ where: { runId, status: "WAITING" }, data: { status: "INTERRUPTED", stopReason: "cancelled", stopDetail: "the run was cancelled while a gated call waited for an answer", finishedAt: new Date() } });
    await tx.run.update({ where: { id: runId }, data: { status: "CANCELLED", finishedAt: new Date() } });
    await recordAudit(tx, { actorId, action: "run.cancel", entityType: "Run", entityId: runId, before: { status: run.status }, after: { episodesCancelled: count } });
    return count;
  });
  if (queue) await queue.cancelQueued(runId);
  return { status: "CANCELLED" as const, episodesCancelled: cancelled };
}

export async function retryFailed(db: Db, actorId: string | null, runId: string, queue: EpisodeQueue | null) {
  const run = await loadRun(db, runId);
  if (run.status === "CANCELLED") throw new AppError("A cancelled run cannot be retried; re-run it as new.", 409);
  const ids = await db.$transaction(async (tx) => {
    const failed = await tx.runEpisode.findMany({ where: { runId, status: "FAILED" }, select: { id: true } });
    if (!failed.length) return [];
    await tx.runEpisode.updateMany({ where: { id: { in: failed.map((f) => f.id) }, status: "FAILED" }, data: { status: "QUEUED", finishedAt: null } });
    if (run.status === "DONE") await tx.run.update({ where: { id: runId }, data: { status: "RUNNING", finishedAt: null } });
    await recordAudit(tx, { actorId, action: "run.retry-failed", entityType: "Run", entityId: runId, after: { episodes: failed.length } });
    return failed.map((f) => f.id);
  });
  if (ids.length && queue && run.status !== "PAUSED") await enqueueQueued(db, queue, runId, ids);
  return { requeued: ids.length };
}

export const RUN_ACTIONS = ["pause", "resume", "cancel", "retry", "rerun"] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];

/**
 * One action on a run, for every caller that offers them (the run page's controls for episode
 * runs, evaluation runs and critic replay runs): what it did, in words that name what the run is made of.
 */
export async function controlRun(
  db: Db,
  actorId: string,
  runId: string,
  action: RunAction,
  queue: EpisodeQueue | null,
  kind: "EPISODES" | "EVALUATION" | "CRITIC" | "SAGE",
): Promise<{ message: string; newRunId: string | null }> {
  const noun = kind === "EVALUATION" ? "evaluation" : kind === "CRITIC" ? "assessment" : "episode";
  switch (action) {
    case "pause":
      await pauseRun(db, actorId, runId, queue);
      return { message: `Paused: running ${noun}s finish, no new one starts.`, newRunId: null };
    case "resume":
      return { message: `Resumed: ${(await resumeRun(db, actorId, runId, queue)).queued} ${noun}(s) queued.`, newRunId: null };
    case "cancel": {
      const n = (await cancelRun(db, actorId, runId, queue)).episodesCancelled;
      return { message: `Cancelled: ${n} queued ${noun}(s) will not run${kind === "EPISODES" || kind === "SAGE" ? "; running ones stop within seconds" : ""}.`, newRunId: null };
    }
    case "retry":
      return { message: `${(await retryFailed(db, actorId, runId, queue)).requeued} ${noun}(s) that ended in an error queued again.`, newRunId: null };
    case "rerun": {
      if (kind === "CRITIC") {
        const r = await rerunCriticRun(db, actorId, runId, queue);
        return { message: `Created a new critic replay run with ${r.units} assessments.`, newRunId: r.id };
      }
      if (kind === "SAGE") {
        const r = await rerunSageRun(db, actorId, runId, queue);
        return { message: `Created a new SAGE run with ${r.episodes} episodes.`, newRunId: r.id };
      }
      if (kind === "EVALUATION") {
        const r = await rerunEvaluationRun(db, actorId, runId, queue);
        return { message: `Created a new evaluation run with ${r.units} evaluations.`, newRunId: r.id };
      }
      const r = await rerunAsNew(db, actorId, runId, queue);
      return { message: `Created a new run with ${r.episodes} episodes.`, newRunId: r.id };
    }
  }
}

/** Marks the run DONE when no episode is queued, running or waiting for an intervention any more. Returns whether it did. */
export async function finishRunIfComplete(db: Db, runId: string): Promise<boolean> {
  const n = await fastSql(db).$executeRawUnsafe(
    `UPDATE "Run" SET status = 'DONE', "finishedAt" = (now() AT TIME ZONE 'UTC'), "updatedAt" = (now() AT TIME ZONE 'UTC')
     WHERE id = $1 AND status IN ('QUEUED', 'RUNNING', 'PAUSED')
       AND NOT EXISTS (SELECT 1 FROM "RunEpisode" WHERE "runId" = $1 AND status IN ('QUEUED', 'RUNNING', 'WAITING'))`,
    runId,
  );
  return n > 0;
}
