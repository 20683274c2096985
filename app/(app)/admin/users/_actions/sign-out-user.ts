"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { signOutEverywhere } from "@/lib/auth/sessions";
import { db } from "@/lib/db/client";
import { signOutUserSchema } from "@/lib/users/schemas";

// An admin ends every session of a user (a lost laptop, a shared password).
export const signOutUserAction = withPermission("user:manage", signOutUserSchema, async ({ userId }, { user }) => {
  await signOutEverywhere(db(), user.id, userId);
  revalidatePath("/admin/users");
  return { id: userId };
});
