"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { setCampaignLocked } from "@/lib/annotation/campaigns";
import { setLockedSchema } from "@/lib/annotation/schemas";

export const setLockedAction = withPermission("campaign:manage", setLockedSchema, async ({ campaignId, locked }, { user }) => {
  const after = await setCampaignLocked(db(), user.id, campaignId, locked);
  revalidatePath("/campaigns", "layout");
  return { locked: after.status === "LOCKED" };
});
