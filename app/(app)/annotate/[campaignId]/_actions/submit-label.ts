"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { submitLabel } from "@/lib/annotation/assignments";
import { submitLabelSchema } from "@/lib/annotation/schemas";

export const submitLabelAction = withPermission("annotation:label", submitLabelSchema, async ({ assignmentId, values, timeSpentMs }, { user }) =>
  submitLabel(db(), user.id, assignmentId, values, timeSpentMs),
);
