"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { updateCase } from "@/lib/toolemu/authoring";
import { updateSpecInput } from "@/lib/toolemu/authoring/inputs";
import { saveResult, specName } from "@/lib/toolemu/authoring/save";

export const updateCaseAction = withPermission("case:edit", updateSpecInput, async ({ id, spec, expectedVersion, note }, { user }) => {
  const r = await saveResult(specName(spec, "name"), () => updateCase(db(), id, spec, { actorId: user.id, expectedVersion, note }));
  if (r.saved) revalidatePath("/cases/[name]", "page");
  return r;
});
