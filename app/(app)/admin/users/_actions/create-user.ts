"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { createUser } from "@/lib/users/manage";
import { createUserSchema } from "@/lib/users/schemas";

export const createUserAction = withPermission("user:manage", createUserSchema, async (input, { user }) => {
  const created = await createUser(db(), user.id, input);
  revalidatePath("/admin/users");
  return { id: created.id, email: created.email };
});
