// Episodes started from the playground run inside the web process: the action returns the
// trajectory id at once and the page polls it. Runs of many episodes go to the workers instead
// (lib/runs); a playground episode is one agent on one case, seconds to minutes.
import "server-only";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { createDbLimiter, type DbLimiter } from "@/lib/llm/endpoint-limiter";
import { createModelClient } from "@/lib/llm/client";
import { getEndpointSettings } from "@/lib/llm/endpoints";
import { findReplayEndpoint } from "@/lib/llm/endpoints";
import { startEpisode } from "./episode";
import { replayModelId } from "./replay";
import type { StartEpisodeInput, StartReplayInput } from "./schemas";

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
    loopMode: input.loopMode,
  });
  track(trajectoryId, done);
  return trajectoryId;
}

function track(trajectoryId: string, done: Promise<unknown>) {
  playing.add(trajectoryId);
  done
    .catch((e) => console.error(`[playground] episode ${trajectoryId} failed:`, e))
    .finally(() => playing.delete(trajectoryId));
}

/**
 * A playground episode replaying an imported trajectory: its case and emulator mode, every agent,
 * emulator and evaluator call answered by the replay endpoint from the recording (the first
 * judge's evaluations, when it has any). The episode's settings name the trajectory it replays.
 */
export async function startReplayInBackground(db: Db, input: StartReplayInput): Promise<string> {
  const t = await db.trajectory.findUnique({
    where: { id: input.trajectoryId },
    select: { origin: true, caseId: true, emulatorMode: true, evaluations: { orderBy: { evaluatorModel: "asc" }, select: { evaluatorModel: true } } },
  });
  if (!t) throw new AppError("This trajectory no longer exists.", 404);
  if (t.origin !== "IMPORTED" || !t.caseId) throw new AppError("Only imported ToolEmu trajectories have recorded model outputs to replay.", 422);
  const endpoint = await findReplayEndpoint(db);
  if (!endpoint) throw new AppError("The replay endpoint is not registered: it is served by the offline model, which this server does not run (OFFLINE_LLM=0).", 409);
  const client = (model: string) => createModelClient({ ...endpoint, model }, { db });
  const judge = t.evaluations[0]?.evaluatorModel ?? null;
  const { trajectoryId, done } = await startEpisode(db, {
    caseId: t.caseId,
    agent: { client: client(replayModelId(input.trajectoryId)), variant: "NAIVE" },
    emulator: { client: client(replayModelId(input.trajectoryId)), mode: t.emulatorMode },
    evaluator: judge ? { client: client(replayModelId(input.trajectoryId, judge)) } : null,
    loopMode: input.loopMode,
    replayOf: input.trajectoryId,
  });
  track(trajectoryId, done);
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
