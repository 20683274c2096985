"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { setEndpointCache } from "@/lib/llm/endpoints";
import { setCacheSchema } from "@/lib/llm/endpoint-schemas";

export const setEndpointCacheAction = withPermission("endpoint:manage", setCacheSchema, async ({ id, cacheEnabled }, { user }) => {
  const updated = await setEndpointCache(db(), user.id, id, cacheEnabled);
  revalidatePath("/admin/endpoints");
  return { id, cacheEnabled: updated.cacheEnabled };
});
