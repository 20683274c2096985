"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { appQueue } from "@/lib/jobs/boss";
import { createCriticRun } from "@/lib/runs/critic/create";
import { criticRunInputSchema } from "@/lib/runs/critic/schemas";

/** Starts a critic replay run (issue 13): one unit per trajectory × method on the run workers. */
export const createCriticRunAction = withPermission("evaluation:create", criticRunInputSchema, async (input, { user }) => {
  const run = await createCriticRun(db(), user.id, input, appQueue());
  revalidatePath("/runs");
  return { id: run.id, units: run.units };
});
