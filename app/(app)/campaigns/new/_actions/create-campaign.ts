"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { createCampaign } from "@/lib/annotation/campaigns";
import { createCampaignSchema } from "@/lib/annotation/schemas";

export const createCampaignAction = withPermission("campaign:manage", createCampaignSchema, async (input, { user }) => {
  const created = await createCampaign(db(), user.id, input);
  revalidatePath("/campaigns");
  return { id: created.id, items: created.items };
});
