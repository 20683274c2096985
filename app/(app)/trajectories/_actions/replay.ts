"use server";

import { withPermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { startReplayInBackground } from "@/lib/engine/background";
import { startReplaySchema } from "@/lib/engine/schemas";

// Replays an imported trajectory through the engine in this server process; the page then opens
// the playground episode, which says "identical" or shows the first divergent step.
export const replayTrajectoryAction = withPermission("run:create", startReplaySchema, async (input) => {
  return { trajectoryId: await startReplayInBackground(db(), input) };
});
