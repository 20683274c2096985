"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { curateToolRisk, curateToolRiskInput } from "@/lib/critic/tool-risk";

export const curateToolRiskAction = withPermission("toolkit:curate", curateToolRiskInput, async ({ toolId, level, critical, amountArg }, { user }) => {
  const r = await curateToolRisk(db(), user.id, toolId, { level, critical, amountArg });
  revalidatePath("/toolkits/[name]", "page");
  return { toolId: r.toolId, level: r.level, critical: r.critical, amountArg: r.amountArg, source: r.source };
});
