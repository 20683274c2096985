"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { createEndpoint } from "@/lib/llm/endpoints";
import { createEndpointSchema } from "@/lib/llm/endpoint-schemas";

export const createEndpointAction = withPermission("endpoint:manage", createEndpointSchema, async (input, { user }) => {
  const created = await createEndpoint(db(), user.id, input);
  revalidatePath("/admin/endpoints");
  return { id: created.id!, name: created.name };
});
