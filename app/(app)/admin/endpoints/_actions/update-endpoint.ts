"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { updateEndpoint } from "@/lib/llm/endpoints";
import { updateEndpointSchema } from "@/lib/llm/endpoint-schemas";

export const updateEndpointAction = withPermission("endpoint:manage", updateEndpointSchema, async ({ id, ...input }, { user }) => {
  const updated = await updateEndpoint(db(), user.id, id, input);
  revalidatePath("/admin/endpoints");
  return { id, name: updated.name };
});
