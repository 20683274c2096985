"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { setDisabled } from "@/lib/users/manage";
import { setDisabledSchema } from "@/lib/users/schemas";

export const setDisabledAction = withPermission("user:manage", setDisabledSchema, async ({ userId, disabled }, { user }) => {
  const updated = await setDisabled(db(), user.id, userId, disabled);
  revalidatePath("/admin/users");
  return { id: updated.id, disabled: updated.disabled };
});
