"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { cancelGenerationSchema } from "@/lib/authoring/review-schemas";
import { cancelGenerationJob } from "@/lib/runs/generation/create";

/** Cancels a queued or running generation job (a running one stops at its next model call). */
export const cancelGenerationAction = withPermission("authoring:generate", cancelGenerationSchema, async ({ id }, { user }) => {
  await cancelGenerationJob(db(), id, user.id);
  revalidatePath("/generate");
  return { id };
});
