"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { rejectItem } from "@/lib/authoring/review";
import { rejectItemSchema } from "@/lib/authoring/review-schemas";

/** Rejects a generated item, with an optional reason; who and when are kept. */
export const rejectItemAction = withPermission("authoring:review", rejectItemSchema, async ({ id, note }, { user }) => {
  await rejectItem(db(), id, user.id, note);
  revalidatePath("/generate/review");
  return { id };
});
