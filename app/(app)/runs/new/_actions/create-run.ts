"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { appQueue } from "@/lib/jobs/boss";
import { createRun } from "@/lib/runs/create";
import { runInputSchema } from "@/lib/runs/schemas";

export const createRunAction = withPermission("run:create", runInputSchema, async (input, { user }) => {
  const run = await createRun(db(), user.id, input, appQueue());
  revalidatePath("/runs");
  return { id: run.id, episodes: run.episodes };
});
