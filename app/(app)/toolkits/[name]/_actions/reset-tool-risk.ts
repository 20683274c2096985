"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { curateToolRisk, resetToolRiskInput } from "@/lib/critic/tool-risk";

export const resetToolRiskAction = withPermission("toolkit:curate", resetToolRiskInput, async ({ toolId }, { user }) => {
  const r = await curateToolRisk(db(), user.id, toolId, { reset: true });
  revalidatePath("/toolkits/[name]", "page");
  return { toolId: r.toolId, level: r.level, critical: r.critical, amountArg: r.amountArg, source: r.source };
});
