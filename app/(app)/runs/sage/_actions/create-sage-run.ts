"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { appQueue } from "@/lib/jobs/boss";
import { createSageRun } from "@/lib/runs/sage/create";
import { sageRunInputSchema } from "@/lib/runs/sage/schemas";

/** Starts a SAGE run (issue 14): scenario × agent × Trust/Warning × repeat episodes on the run workers, judged after each episode. */
export const createSageRunAction = withPermission("run:create", sageRunInputSchema, async (input, { user }) => {
  const run = await createSageRun(db(), user.id, input, appQueue());
  revalidatePath("/runs");
  return { id: run.id, episodes: run.episodes };
});
