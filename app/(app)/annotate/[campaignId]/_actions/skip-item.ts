"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { skipItem } from "@/lib/annotation/assignments";
import { skipItemSchema } from "@/lib/annotation/schemas";

export const skipItemAction = withPermission("annotation:label", skipItemSchema, async ({ assignmentId, reason }, { user }) =>
  skipItem(db(), user.id, assignmentId, reason),
);
