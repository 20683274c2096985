"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { deleteEndpoint } from "@/lib/llm/endpoints";
import { endpointIdSchema } from "@/lib/llm/endpoint-schemas";

export const deleteEndpointAction = withPermission("endpoint:manage", endpointIdSchema, async ({ id }, { user }) => {
  await deleteEndpoint(db(), user.id, id);
  revalidatePath("/admin/endpoints");
  return { id };
});
