"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { previewRun } from "@/lib/runs/create";
import { runInputSchema } from "@/lib/runs/schemas";

/** Episodes and the estimate of LLM calls, tokens and cost, for the form before confirming. */
export const previewRunAction = withPermission("run:create", runInputSchema, async (input) => {
  const p = await previewRun(db(), input);
  return { cases: p.caseIds.length, caseNames: p.caseNames.slice(0, 12), episodes: p.episodes, estimate: p.estimate };
});
