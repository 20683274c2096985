// Episodes started from the playground run inside the web process: the action returns the
// trajectory id at once and the page polls it. Runs of many episodes go to the workers instead
// (lib/runs); a playground episode is one agent on one case, seconds to minutes.
import "server-only";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { createDbLimiter, type DbLimiter } from "@/lib/llm/endpoint-limiter";
import { createModelClient } from "@/lib/llm/client";
import { getEndpointSettings } from "@/lib/llm/endpoints";
import { startEpisode } from "./episode";
import type { StartEpisodeInput } from "./schemas";

/** Episodes this process is playing; a restart interrupts them (see interruptOrphanEpisodes). */
const playing = new Set<string>();
/** Endpoint slots shared with the run workers, so playground calls count against maxConcurrency too. */
let limiter: DbLimiter | null = null;

export async function startEpisodeInBackground(db: Db, input: StartEpisodeInput): Promise<string> {
  const exists = await db.testCase.findUnique({ where: { id: input.caseId }, select: { id: true } });
  if (!exists) throw new AppError("This test case no longer exists.", 404);
  // getEndpointSettings says clearly when an endpoint was deleted meanwhile.
  limiter ??= createDbLimiter(db);
  const shared = limiter;
  const client = async (id: string) => createModelClient(await getEndpointSettings(db, id), { db, limiter: shared });
  const agent = await client(input.agentEndpointId);
  const emulator = await client(input.emulatorEndpointId);
  const evaluator = input.evaluatorEndpointId ? await client(input.evaluatorEndpointId) : null;
  const { trajectoryId, done } = await startEpisode(db, {
    caseId: input.caseId,
    agent: { client: agent, variant: input.variant },
    emulator: { client: emulator, mode: input.mode, selfCritiqueRounds: input.selfCritiqueRounds },
    evaluator: evaluator ? { client: evaluator } : null,
  });
  playing.add(trajectoryId);
  done
    .catch((e) => console.error(`[playground] episode ${trajectoryId} failed:`, e))
    .finally(() => playing.delete(trajectoryId));
  return trajectoryId;
}

/**
 * Playground episodes left RUNNING by a process that died cannot finish any more: mark them
 * interrupted (their steps stay). Called once at start-up, before this process plays any.
 */
export async function interruptOrphanEpisodes(db: Db): Promise<number> {
  const { count } = await db.trajectory.updateMany({
    where: { origin: "EMULATED", status: "RUNNING", runId: null, id: { notIn: [...playing] } },
    data: { status: "INTERRUPTED", stopReason: "crashed", stopDetail: "The server restarted while this playground episode was playing.", finishedAt: new Date() },
  });
  return count;
}
