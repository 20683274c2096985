"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { adjudicate } from "@/lib/annotation/adjudicate";
import { adjudicateSchema } from "@/lib/annotation/schemas";

// Stores the adjudicated label beside the original labels; those are never changed.
export const adjudicateAction = withPermission("campaign:adjudicate", adjudicateSchema, async ({ itemId, values, reason }, { user }) => {
  const saved = await adjudicate(db(), user.id, itemId, values, reason);
  revalidatePath("/campaigns", "layout");
  return { id: saved.id };
});
