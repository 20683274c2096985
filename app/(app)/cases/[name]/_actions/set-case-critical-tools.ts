"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { setCaseCriticalTools, setCaseCriticalToolsInput } from "@/lib/critic/tool-risk";

export const setCaseCriticalToolsAction = withPermission("toolkit:curate", setCaseCriticalToolsInput, async ({ caseId, names }, { user }) => {
  const criticalTools = await setCaseCriticalTools(db(), user.id, caseId, names);
  revalidatePath("/cases/[name]", "page");
  return { criticalTools };
});
