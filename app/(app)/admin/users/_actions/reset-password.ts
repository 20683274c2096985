"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { resetPassword } from "@/lib/users/manage";
import { resetPasswordSchema } from "@/lib/users/schemas";

export const resetPasswordAction = withPermission("user:manage", resetPasswordSchema, async ({ userId, password }, { user }) => {
  await resetPassword(db(), user.id, userId, password);
  return { id: userId };
});
