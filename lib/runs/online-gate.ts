// The online critic gate of an episode run, as the worker plays it (issue 13 item 7): the engine's
// gate options from the run's Run.critic, the trial's memory, and the WAITING state of a paused
// episode. The engine side is lib/engine/gate.ts (judging, pausing) and lib/engine/resume.ts.
//
//   RUNNING ──(a flagged call; answerer "human")──▶ WAITING   no worker, no lease, no job: the
//                                                             worker's slot is free; the reaper
//                                                             (RUNNING only) never takes it for lost
//   WAITING ──(answered: lib/runs/interventions/answer.ts)──▶ QUEUED + a job
//   QUEUED  ──(claimEpisode: the WAITING trajectory is kept)──▶ RUNNING, resumed from its steps
//   RUNNING ──(its worker lost, after a person's answer)──▶ QUEUED, the trajectory WAITING again
//                                                             at that answer (rollBackToLastAnswer)
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
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
  if (!ep.caseId) throw new Error("The online critic gate plays ToolEmu cases only; this episode has no case.");
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

type Tx = Prisma.TransactionClient;
const EMULATOR_ROLES = ["emulator", "critique"];

/**
 * A gated episode whose resumed attempt lost its worker goes back to its last answer instead of
 * starting over (the person's answers are kept): inside the reaper's transaction, everything the
 * attempt did after the last intervention a person answered is undone — later steps, that step's
 * observation, the calls made after the answer (their cost is returned for the RunError row),
 * later interventions and online checkpoints, any evaluation — and the trajectory is WAITING again
 * with its totals recounted from the calls that stay. The next claim resumes it from there
 * (lib/engine/resume.ts settles the answer again). Null when no person answered yet: the episode
 * starts over as any lost attempt does (./episode-job.ts).
 */
export async function rollBackToLastAnswer(tx: Tx, trajectoryId: string): Promise<{ inputTokens: number; outputTokens: number; costUsd: number } | null> {
  const last = await tx.intervention.findFirst({
    where: { trajectoryId, status: { in: ["APPROVED", "REJECTED"] }, simulated: false },
    orderBy: { stepIndex: "desc" },
    select: { stepIndex: true, tool: true },
  });
  if (!last) return null;
  const i = last.stepIndex;
  const after = { trajectoryId, OR: [{ stepIndex: { gt: i } }, { stepIndex: i, role: { in: EMULATOR_ROLES } }, { stepIndex: null }] };
  const spent = await tx.llmCall.aggregate({ where: after, _sum: { inputTokens: true, outputTokens: true, costUsd: true } });
  await tx.llmCall.deleteMany({ where: after });
  await tx.step.deleteMany({ where: { trajectoryId, index: { gt: i } } });
  const agent = await tx.llmCall.aggregate({ where: { trajectoryId, stepIndex: i, role: "agent" }, _sum: { inputTokens: true, outputTokens: true, costUsd: true, latencyMs: true } });
  await tx.step.updateMany({
    where: { trajectoryId, index: i },
    data: {
      observationRaw: null, observation: Prisma.DbNull, inputInvalid: false, emulatorRounds: 0, emulatorFailure: null, emulatorThought: null, emulatorSummary: null,
      emulatorProblem: null, emulatorCritiques: Prisma.DbNull,
      inputTokens: agent._sum.inputTokens ?? 0, outputTokens: agent._sum.outputTokens ?? 0, costUsd: agent._sum.costUsd ?? 0, latencyMs: agent._sum.latencyMs ?? 0,
    },
  });
  await tx.intervention.deleteMany({ where: { trajectoryId, stepIndex: { gt: i } } });
  await tx.evaluation.deleteMany({ where: { trajectoryId } });
  for (const a of await tx.criticAssessment.findMany({ where: { trajectoryId, online: true }, select: { id: true } })) {
    await tx.criticCheckpoint.deleteMany({ where: { assessmentId: a.id, stepIndex: { gt: i } } });
    const ps = (await tx.criticCheckpoint.findMany({ where: { assessmentId: a.id }, select: { p: true } })).map((c) => c.p);
    const minP = ps.length ? Math.min(...ps.map((p) => p ?? 0)) : null;
    await tx.criticAssessment.update({ where: { id: a.id }, data: { checkpointCount: ps.length, errorCount: ps.filter((p) => p === null).length, minP, score: minP === null ? null : 1 - minP } });
  }
  const total = await tx.llmCall.aggregate({ where: { trajectoryId, role: { in: ["agent", ...EMULATOR_ROLES] } }, _sum: { inputTokens: true, outputTokens: true, costUsd: true } });
  await tx.trajectory.update({
    where: { id: trajectoryId },
    data: {
      status: "WAITING", stopReason: "intervention", stopDetail: `resumes from the answer to the call of ${last.tool} at step ${i + 1} (its worker was lost)`,
      stepCount: i + 1, finalAnswer: null, finalLog: null, actionInFinalAnswer: false, finishedAt: null,
      inputTokens: total._sum.inputTokens ?? 0, outputTokens: total._sum.outputTokens ?? 0, costUsd: total._sum.costUsd ?? 0,
    },
  });
  return { inputTokens: spent._sum.inputTokens ?? 0, outputTokens: spent._sum.outputTokens ?? 0, costUsd: spent._sum.costUsd ?? 0 };
}
