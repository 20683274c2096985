"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { setQualitySchema, setQualitySettings } from "@/lib/annotation/quality/settings";

export const setQualityAction = withPermission("campaign:manage", setQualitySchema, async ({ campaignId, ...settings }, { user }) => {
  const saved = await setQualitySettings(db(), user.id, campaignId, settings);
  revalidatePath("/campaigns", "layout");
  return saved;
});
