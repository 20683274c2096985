"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { startEpisodeInBackground } from "@/lib/engine/background";
import { startEpisodeSchema } from "@/lib/engine/schemas";

// Starts one episode in this server process and returns at once; the page then polls it.
export const startEpisodeAction = withPermission("run:create", startEpisodeSchema, async (input) => {
  return { trajectoryId: await startEpisodeInBackground(db(), input) };
});
