"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { updateToolkit } from "@/lib/toolemu/authoring";
import { updateSpecInput } from "@/lib/toolemu/authoring/inputs";
import { saveResult, specName } from "@/lib/toolemu/authoring/save";

export const updateToolkitAction = withPermission("toolkit:edit", updateSpecInput, async ({ id, spec, expectedVersion, note }, { user }) => {
  const r = await saveResult(specName(spec, "toolkit"), () => updateToolkit(db(), id, spec, { actorId: user.id, expectedVersion, note }));
  if (r.saved) revalidatePath("/toolkits/[name]", "page");
  return r;
});
