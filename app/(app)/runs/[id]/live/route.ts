import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { AppError } from "@/lib/errors";
import { db } from "@/lib/db/client";
import { EPISODE_FILTERS, listRunEpisodes, loadRunProgress, type EpisodeFilter } from "@/lib/runs/queries";
import { countWaitingForRun } from "@/lib/runs/interventions/queries";

export const dynamic = "force-dynamic";

const schema = z.object({ id: z.string().min(1), filter: z.enum(EPISODE_FILTERS).catch("all"), page: z.coerce.number().int().min(1).catch(1) });

// Polled by the run page while the run is active: progress and the current page of episodes.
const load = withPermission("run:read", schema, async ({ id, filter, page }) => {
  const progress = await loadRunProgress(db(), id);
  if (!progress) throw new AppError("No such run.", 404);
  return { progress, episodes: await listRunEpisodes(db(), id, filter, page), waitingInterventions: await countWaitingForRun(db(), id) };
});

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  const url = new URL(req.url);
  return toResponse(await load({ id: (await params).id, filter: (url.searchParams.get("filter") ?? "all") as EpisodeFilter, page: url.searchParams.get("page") ?? "1" }));
}
