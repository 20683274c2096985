// The online critic gate of an episode run, as the worker plays it (issue 13 item 7): the engine's
// gate options from the run's Run.critic, the trial's memory, and the WAITING state of a paused
// episode. The engine side is lib/engine/gate.ts (judging, pausing) and lib/engine/resume.ts.
//
//   RUNNING ──(a flagged call; answerer "human")──▶ WAITING   no worker, no lease, no job: the
//                                                             worker's slot is free; the reaper
//                                                             (RUNNING only) never takes it for lost
//   WAITING ──(answered: lib/runs/interventions/answer.ts)──▶ QUEUED + a job
//   QUEUED  ──(claimEpisode: the WAITING trajectory is kept)──▶ RUNNING, resumed from its steps
import "server-only";
import type { Db } from "@/lib/db/client";
import type { ModelClient } from "@/lib/llm/types";
import { criticContextForCase } from "@/lib/critic/context";
import type { EpisodeGate, EpisodeTrial } from "@/lib/engine/episode-types";
import { NOW_UTC } from "@/lib/llm/endpoint-limiter";
import type { ClaimedEpisode } from "./episode-job";
import type { CriticGate } from "./schemas";
import { trialMemoryFor } from "./trials";

/** The endpoints a gate calls: the critic, and the simulated user when it answers. */
export function gateEndpointIds(gate: CriticGate | null): string[] {
  if (!gate) return [];
  return [gate.endpointId, ...(gate.answerer === "simulated" && gate.simulatedUserEndpointId ? [gate.simulatedUserEndpointId] : [])];
}

/** The engine options of a gated episode's attempt: the gate, its trial's memory, and whether it resumes. */
export async function gatedEpisodeOptions(
  db: Db,
  gate: CriticGate | null,
  ep: ClaimedEpisode,
  client: (endpointId: string) => ModelClient,
): Promise<{ gate: EpisodeGate | null; trial: EpisodeTrial | null; resume: boolean }> {
  const trial = await trialMemoryFor(db, ep);
  if (!gate) return { gate: null, trial, resume: !!ep.resume };
  const simulated = gate.answerer === "simulated" && gate.simulatedUserEndpointId ? client(gate.simulatedUserEndpointId) : null;
  return {
    gate: {
      client: client(gate.endpointId),
      settings: gate.settings,
      context: await criticContextForCase(db, ep.caseId),
      answerer: simulated ? "simulated" : "human",
      simulatedUser: simulated,
      runEpisodeId: ep.runEpisodeId,
    },
    trial,
    resume: !!ep.resume,
  };
}

/**
 * The attempt paused at a flagged call: WAITING, with no worker, lease or job (fenced like every
 * transition of ./episode-job.ts). False when this worker no longer held the episode.
 */
export async function markWaiting(db: Db, ep: ClaimedEpisode): Promise<boolean> {
  const n = await db.$executeRawUnsafe(
    `UPDATE "RunEpisode" SET status = 'WAITING', "workerId" = NULL, "leaseUntil" = NULL, "jobId" = NULL, "updatedAt" = ${NOW_UTC}
     WHERE id = $1 AND "workerId" = $2 AND attempts = $3 AND status = 'RUNNING'`,
    ep.runEpisodeId,
    ep.workerId,
    ep.attempt,
  );
  return n > 0;
}
