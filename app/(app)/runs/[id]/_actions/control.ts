"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { appQueue } from "@/lib/jobs/boss";
import { controlRun, RUN_ACTIONS } from "@/lib/runs/control";

const schema = z.object({ runId: z.string().min(1), action: z.enum(RUN_ACTIONS) });

/** Pause, resume, cancel, retry failed episodes, or re-run as a new run with the same settings. */
export const runControlAction = withPermission("run:create", schema, async ({ runId, action }, { user }) => {
  const result = await controlRun(db(), user.id, runId, action, appQueue(), "EPISODES");
  revalidatePath("/runs");
  revalidatePath(`/runs/${runId}`);
  return result;
});
