"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { reviseCampaignForm } from "@/lib/annotation/campaigns";
import { reviseFormSchema } from "@/lib/annotation/schemas";

export const reviseFormAction = withPermission("campaign:manage", reviseFormSchema, async ({ campaignId, form }, { user }) => {
  const out = await reviseCampaignForm(db(), user.id, campaignId, form);
  revalidatePath("/campaigns", "layout");
  return out;
});
