"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { saveDraft } from "@/lib/annotation/assignments";
import { saveDraftSchema } from "@/lib/annotation/schemas";

export const saveDraftAction = withPermission("annotation:label", saveDraftSchema, async ({ assignmentId, draft, timeSpentMs }, { user }) =>
  saveDraft(db(), user.id, assignmentId, draft, timeSpentMs),
);
