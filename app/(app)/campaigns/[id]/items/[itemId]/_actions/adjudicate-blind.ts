"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { adjudicate } from "@/lib/annotation/adjudicate";
import { adjudicateSchema } from "@/lib/annotation/schemas";

// The same as adjudicate.ts, from the blind view: the adjudication records that identities were hidden.
export const adjudicateBlindAction = withPermission("campaign:adjudicate", adjudicateSchema, async ({ itemId, values, reason }, { user }) => {
  const saved = await adjudicate(db(), user.id, itemId, values, reason, { blind: true });
  revalidatePath("/campaigns", "layout");
  return { id: saved.id };
});
