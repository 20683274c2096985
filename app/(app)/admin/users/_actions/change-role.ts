"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { changeRole } from "@/lib/users/manage";
import { changeRoleSchema } from "@/lib/users/schemas";

export const changeRoleAction = withPermission("user:manage", changeRoleSchema, async ({ userId, role }, { user }) => {
  const updated = await changeRole(db(), user.id, userId, role);
  revalidatePath("/admin/users");
  return { id: updated.id, role: updated.role };
});
