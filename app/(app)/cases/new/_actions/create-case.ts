"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { createCase } from "@/lib/toolemu/authoring";
import { createSpecInput } from "@/lib/toolemu/authoring/inputs";
import { saveResult, specName } from "@/lib/toolemu/authoring/save";

export const createCaseAction = withPermission("case:edit", createSpecInput, async ({ spec, note }, { user }) => {
  const r = await saveResult(specName(spec, "name"), () => createCase(db(), spec, { actorId: user.id, provenance: "AUTHORED", note }));
  if (r.saved) revalidatePath("/cases");
  return r;
});
