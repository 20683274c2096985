"use server";

import { revalidatePath } from "next/cache";
import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { acceptItem } from "@/lib/authoring/review";
import { acceptItemSchema, parseEditorJson } from "@/lib/authoring/review-schemas";
import { SpecInvalid } from "@/lib/toolemu/authoring";

/**
 * Accepts a generated item (as edited in the editor, when `json` is sent): a toolkit or case with
 * provenance GENERATED. A refused spec comes back as its issues, for the editor to show at the fields.
 */
export const acceptItemAction = withPermission("authoring:review", acceptItemSchema, async ({ id, json, note }, { user }) => {
  let payload: unknown;
  if (json !== undefined) {
    const parsed = parseEditorJson(json);
    if (!parsed.ok) throw new AppError(parsed.message, 422);
    payload = parsed.value;
  }
  try {
    const res = await acceptItem(db(), id, user.id, { payload, note });
    revalidatePath("/generate/review");
    return { accepted: true as const, ...res };
  } catch (e) {
    if (e instanceof SpecInvalid) return { accepted: false as const, issues: e.issues };
    throw e;
  }
});
