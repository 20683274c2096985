"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { addGoldByForm, addGoldFromAdjudication } from "@/lib/annotation/quality/gold";
import { addGoldByFormSchema, addGoldFromAdjudicationSchema } from "@/lib/annotation/quality/inputs";

// Two use cases of one screen: a gold answer copied from an adjudication, or entered with the form.
export const addGoldFromAdjudicationAction = withPermission("campaign:manage", addGoldFromAdjudicationSchema, async ({ campaignId, sourceItemId }, { user }) => {
  const r = await addGoldFromAdjudication(db(), user.id, campaignId, sourceItemId);
  revalidatePath("/campaigns", "layout");
  return r;
});

export const addGoldByFormAction = withPermission("campaign:manage", addGoldByFormSchema, async ({ campaignId, trajectoryId, values }, { user }) => {
  const r = await addGoldByForm(db(), user.id, campaignId, trajectoryId, values);
  revalidatePath("/campaigns", "layout");
  return r;
});
