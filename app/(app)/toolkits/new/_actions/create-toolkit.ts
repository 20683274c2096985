"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { createToolkit } from "@/lib/toolemu/authoring";
import { createSpecInput } from "@/lib/toolemu/authoring/inputs";
import { saveResult, specName } from "@/lib/toolemu/authoring/save";

export const createToolkitAction = withPermission("toolkit:edit", createSpecInput, async ({ spec, note }, { user }) => {
  const r = await saveResult(specName(spec, "toolkit"), () => createToolkit(db(), spec, { actorId: user.id, provenance: "AUTHORED", note }));
  if (r.saved) revalidatePath("/toolkits");
  return r;
});
