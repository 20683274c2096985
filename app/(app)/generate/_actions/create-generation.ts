"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { generationInputSchema } from "@/lib/authoring/schemas";
import { createGenerationJob } from "@/lib/runs/generation/create";
import { appGenerationQueue } from "@/lib/runs/generation/queue";

/** Queues a generation job on the run workers (issue 17); its items land in the review queue. */
export const createGenerationAction = withPermission("authoring:generate", generationInputSchema, async (input, { user }) => {
  const job = await createGenerationJob(db(), user.id, input, appGenerationQueue());
  revalidatePath("/generate");
  return job;
});
