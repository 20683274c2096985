"use server";

import { z } from "zod";
import { withPermission } from "@/lib/auth/server";
import { signOutEverywhere } from "@/lib/auth/sessions";
import { db } from "@/lib/db/client";

// The user menu's "Sign out everywhere": ends every session of the caller, this one included.
export const signOutEverywhereAction = withPermission("account:own", z.object({}), async (_input, { user }) => {
  await signOutEverywhere(db(), user.id, user.id);
  return { done: true };
});
