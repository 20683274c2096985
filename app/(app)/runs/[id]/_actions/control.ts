"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { appQueue } from "@/lib/jobs/boss";
import { cancelRun, pauseRun, resumeRun, retryFailed } from "@/lib/runs/control";
import { rerunAsNew } from "@/lib/runs/create";

const schema = z.object({ runId: z.string().min(1), action: z.enum(["pause", "resume", "cancel", "retry", "rerun"]) });

/** Pause, resume, cancel, retry failed episodes, or re-run as a new run with the same settings. */
export const runControlAction = withPermission("run:create", schema, async ({ runId, action }, { user }) => {
  const q = appQueue();
  let message: string;
  let newRunId: string | null = null;
  switch (action) {
    case "pause":
      await pauseRun(db(), user.id, runId, q);
      message = "Paused: running episodes finish, no new one starts.";
      break;
    case "resume":
      message = `Resumed: ${(await resumeRun(db(), user.id, runId, q)).queued} episode(s) queued.`;
      break;
    case "cancel":
      message = `Cancelled: ${(await cancelRun(db(), user.id, runId, q)).episodesCancelled} queued episode(s) will not run; running ones stop within seconds.`;
      break;
    case "retry":
      message = `${(await retryFailed(db(), user.id, runId, q)).requeued} failed episode(s) queued again.`;
      break;
    case "rerun": {
      const r = await rerunAsNew(db(), user.id, runId, q);
      newRunId = r.id;
      message = `Created a new run with ${r.episodes} episodes.`;
      break;
    }
  }
  revalidatePath("/runs");
  revalidatePath(`/runs/${runId}`);
  return { message, newRunId };
});
