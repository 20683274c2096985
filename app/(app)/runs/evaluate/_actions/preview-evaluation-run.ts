"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { previewEvaluationRun } from "@/lib/runs/evaluation/create";
import { evaluationRunInputSchema } from "@/lib/runs/evaluation/schemas";

/** Trajectories, units, replicate numbers and the estimate, for the form before confirming. */
export const previewEvaluationRunAction = withPermission("evaluation:create", evaluationRunInputSchema, async (input) => previewEvaluationRun(db(), input));
