"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { previewSageRun } from "@/lib/runs/sage/create";
import { sageRunInputSchema } from "@/lib/runs/sage/schemas";

/** Scenarios, episodes and the estimate (calls, tokens, cost), for the form before confirming. */
export const previewSageRunAction = withPermission("run:create", sageRunInputSchema, async (input) => previewSageRun(db(), input));
