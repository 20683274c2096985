"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { previewCriticRun } from "@/lib/runs/critic/create";
import { criticRunInputSchema } from "@/lib/runs/critic/schemas";

/** Trajectories, units, checkpoints and the estimate, for the form before confirming. */
export const previewCriticRunAction = withPermission("evaluation:create", criticRunInputSchema, async (input) => previewCriticRun(db(), input));
