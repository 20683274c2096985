import { z } from "zod";
import { toResponse } from "@/lib/auth/guard";
import { withPermission } from "@/lib/auth/server";
import { AppError } from "@/lib/errors";
import { db } from "@/lib/db/client";
import { loadEpisodeLive } from "@/lib/engine/playground";

export const dynamic = "force-dynamic";

// Polled by the live episode view until the episode and its evaluations are done.
const load = withPermission("run:read", z.object({ id: z.string().min(1) }), async ({ id }) => {
  const episode = await loadEpisodeLive(db(), id);
  if (!episode) throw new AppError("No emulated episode with this id.", 404);
  return episode;
});

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return toResponse(await load({ id: (await params).id }));
}
