"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { excludeAnnotator, restoreAnnotator } from "@/lib/annotation/quality/exclusion";
import { exclusionSchema } from "@/lib/annotation/quality/inputs";

// A PI's decision about whose labels count: excluding and restoring, each with a reason.
export const excludeAnnotatorAction = withPermission("campaign:adjudicate", exclusionSchema, async ({ campaignId, annotatorId, reason }, { user }) => {
  const r = await excludeAnnotator(db(), user.id, campaignId, annotatorId, reason);
  revalidatePath("/", "layout");
  return r;
});

export const restoreAnnotatorAction = withPermission("campaign:adjudicate", exclusionSchema, async ({ campaignId, annotatorId, reason }, { user }) => {
  const r = await restoreAnnotator(db(), user.id, campaignId, annotatorId, reason);
  revalidatePath("/", "layout");
  return r;
});
