"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { appQueue } from "@/lib/jobs/boss";
import { cancelRun, pauseRun, resumeRun, retryFailed } from "@/lib/runs/control";
import { rerunEvaluationRun } from "@/lib/runs/evaluation/create";

const schema = z.object({ runId: z.string().min(1), action: z.enum(["pause", "resume", "cancel", "retry", "rerun"]) });

/**
 * The run controls for evaluation runs, under their own permission (PIs may start and steer
 * these, not episode runs): the same pause / resume / cancel / retry, and re-run as new.
 */
export const evaluationRunControlAction = withPermission("evaluation:create", schema, async ({ runId, action }, { user }) => {
  const run = await db().run.findUnique({ where: { id: runId }, select: { kind: true } });
  if (!run) throw new AppError("No such run.", 404);
  if (run.kind !== "EVALUATION") throw new AppError("Not an evaluation run.", 403);
  const q = appQueue();
  let message: string;
  let newRunId: string | null = null;
  switch (action) {
    case "pause":
      await pauseRun(db(), user.id, runId, q);
      message = "Paused: running evaluations finish, no new one starts.";
      break;
    case "resume":
      message = `Resumed: ${(await resumeRun(db(), user.id, runId, q)).queued} evaluation(s) queued.`;
      break;
    case "cancel":
      message = `Cancelled: ${(await cancelRun(db(), user.id, runId, q)).episodesCancelled} queued evaluation(s) will not run.`;
      break;
    case "retry":
      message = `${(await retryFailed(db(), user.id, runId, q)).requeued} failed evaluation(s) queued again.`;
      break;
    case "rerun": {
      const r = await rerunEvaluationRun(db(), user.id, runId, q);
      newRunId = r.id;
      message = `Created a new evaluation run with ${r.units} evaluations.`;
      break;
    }
  }
  revalidatePath("/runs");
  revalidatePath(`/runs/${runId}`);
  return { message, newRunId };
});
