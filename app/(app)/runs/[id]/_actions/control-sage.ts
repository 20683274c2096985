"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { appQueue } from "@/lib/jobs/boss";
import { controlRun, RUN_ACTIONS } from "@/lib/runs/control";

const schema = z.object({ runId: z.string().min(1), action: z.enum(RUN_ACTIONS) });

/** The run controls for SAGE runs: pause, resume, cancel, retry failed episodes, re-run as new (same scenarios, agents, contexts, judges, seed). */
export const sageRunControlAction = withPermission("run:create", schema, async ({ runId, action }, { user }) => {
  const run = await db().run.findUnique({ where: { id: runId }, select: { kind: true } });
  if (!run) throw new AppError("No such run.", 404);
  if (run.kind !== "SAGE") throw new AppError("Not a SAGE run.", 403);
  const result = await controlRun(db(), user.id, runId, action, appQueue(), "SAGE");
  revalidatePath("/runs");
  revalidatePath(`/runs/${runId}`);
  return result;
});
