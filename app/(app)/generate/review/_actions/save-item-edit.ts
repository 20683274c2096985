"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { saveItemEdit } from "@/lib/authoring/review";
import { parseEditorJson, saveItemEditSchema } from "@/lib/authoring/review-schemas";

/** Saves the reviewer's edit of a generated item (still pending) and answers with its validation. */
export const saveItemEditAction = withPermission("authoring:review", saveItemEditSchema, async ({ id, json }, { user }) => {
  const parsed = parseEditorJson(json);
  if (!parsed.ok) throw new AppError(parsed.message, 422);
  const validation = await saveItemEdit(db(), id, parsed.value, user.id);
  revalidatePath("/generate/review");
  return validation;
});
