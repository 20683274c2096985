"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { generationInputSchema } from "@/lib/authoring/schemas";
import { previewGeneration } from "@/lib/runs/generation/create";

/** The estimate (calls, tokens, cost) of a generation, before anything is queued. */
export const previewGenerationAction = withPermission("authoring:generate", generationInputSchema, async (input) => previewGeneration(db(), input));
