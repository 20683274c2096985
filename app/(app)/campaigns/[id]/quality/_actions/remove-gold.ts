"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { removeGold } from "@/lib/annotation/quality/gold";
import { removeGoldSchema } from "@/lib/annotation/quality/inputs";

export const removeGoldAction = withPermission("campaign:manage", removeGoldSchema, async ({ campaignId, itemId }, { user }) => {
  const r = await removeGold(db(), user.id, campaignId, itemId);
  revalidatePath("/campaigns", "layout");
  return r;
});
