"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { appQueue } from "@/lib/jobs/boss";
import { createEvaluationRun } from "@/lib/runs/evaluation/create";
import { evaluationRunInputSchema } from "@/lib/runs/evaluation/schemas";

export const createEvaluationRunAction = withPermission("evaluation:create", evaluationRunInputSchema, async (input, { user }) => {
  const run = await createEvaluationRun(db(), user.id, input, appQueue());
  revalidatePath("/runs");
  return { id: run.id, units: run.units };
});
