// Answering an intervention of the online critic gate (issue 13 item 7): a flagged critical call
// waits until a person (or the simulated user) approves it — the call runs — or rejects it — the
// agent observes that the user blocked the action, with the feedback if one was written.
//
// One transaction: the intervention's answer, its audit entry, and the episode put back in the
// queue (WAITING → QUEUED; a run marked DONE meanwhile becomes RUNNING again). The pg-boss job
// that resumes it is sent after the commit, the way lib/runs queues episodes (a worker must find
// the episode QUEUED when its job arrives; if sending fails, the workers' reconciler queues it).
import "server-only";
import type { Db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import type { EpisodeQueue } from "@/lib/jobs/boss";
import { enqueueQueued } from "../create";
import { interventionAnswerSchema, type InterventionAnswer } from "./schemas";

export { interventionAnswerSchema, type InterventionAnswer, type InterventionDecision } from "./schemas";

export interface AnswerOptions {
  /** Where the resumed episode's job goes; null = only mark it QUEUED (the reconciler sends it). */
  queue?: EpisodeQueue | null;
  now?: Date;
}

export interface AnswerResult {
  id: string;
  status: "APPROVED" | "REJECTED";
  feedback: string | null;
  runId: string | null;
  runEpisodeId: string | null;
  /** The episode went back to QUEUED in the answer's transaction. */
  resumed: boolean;
  /** Its job was sent (false when the run is paused: resuming the run queues it). */
  enqueued: boolean;
}

type Row = {
  id: string;
  status: string;
  runId: string | null;
  runEpisodeId: string | null;
  tool: string;
  stepIndex: number;
  leasedById: string | null;
  leaseUntil: Date | null;
  answeredById: string | null;
  answeredAt: Date | null;
};

/**
 * Stores the answer of `actorId` (null = the simulated user: `simulated` is set and leases are
 * not checked) to intervention `id` and resumes its episode. Refused with a clear message when
 * the input is invalid (400), the intervention does not exist (404), it is already decided, held
 * by another approver's live lease, or its episode no longer waits (409). Nothing is written then.
 */
export async function answerIntervention(db: Db, actorId: string | null, id: string, input: InterventionAnswer, opts: AnswerOptions = {}): Promise<AnswerResult> {
  const parsed = interventionAnswerSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError(parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join(" "), 400);
  }
  const { decision } = parsed.data;
  const feedback = decision === "reject" ? (parsed.data.feedback ?? null) : null;
  const now = opts.now ?? new Date();
  const status = decision === "approve" ? ("APPROVED" as const) : ("REJECTED" as const);

  const result = await db.$transaction(async (tx) => {
    // The intervention's row lock: a double click or a second approver runs after the first.
    const [iv] = await tx.$queryRaw<Row[]>`
      SELECT id, status::text AS status, "runId", "runEpisodeId", tool, "stepIndex", "leasedById", "leaseUntil", "answeredById", "answeredAt"
      FROM "Intervention" WHERE id = ${id} FOR UPDATE`;
    if (!iv) throw new AppError("No such intervention.", 404);
    if (iv.status !== "PENDING") {
      const who = iv.answeredById ? await tx.user.findUnique({ where: { id: iv.answeredById }, select: { name: true } }) : null;
      throw new AppError(
        `This action was already ${iv.status === "APPROVED" ? "approved" : "rejected"}${who ? ` by ${who.name}` : iv.answeredById ? "" : " by the simulated user"}; nothing was changed.`,
        409,
      );
    }
    if (actorId && iv.leasedById && iv.leasedById !== actorId && iv.leaseUntil && iv.leaseUntil > now) {
      const holder = await tx.user.findUnique({ where: { id: iv.leasedById }, select: { name: true } });
      throw new AppError(`${holder?.name ?? "Another approver"} is answering this action right now; take the next one.`, 409);
    }

    // The episode: it must still wait for this answer. Episode before run, as everywhere in lib/runs.
    let runStatus: string | null = null;
    if (iv.runEpisodeId) {
      const [ep] = await tx.$queryRaw<{ status: string; runStatus: string }[]>`
        SELECT e.status::text AS status, r.status::text AS "runStatus"
        FROM "RunEpisode" e JOIN "Run" r ON r.id = e."runId" WHERE e.id = ${iv.runEpisodeId} FOR UPDATE OF e`;
      if (!ep) throw new AppError("The episode of this intervention no longer exists.", 409);
      if (ep.status !== "WAITING") {
        throw new AppError(`The episode no longer waits for an answer (it is ${ep.status.toLowerCase()}); nothing was changed.`, 409);
      }
      if (ep.runStatus === "CANCELLED") throw new AppError("The run was cancelled; nothing waits for this answer any more.", 409);
      runStatus = ep.runStatus;
    }

    await tx.intervention.update({
      where: { id },
      data: { status, feedback, answeredById: actorId, simulated: actorId === null, answeredAt: now, leasedById: null, leaseUntil: null },
    });
    await recordAudit(tx, {
      actorId,
      action: `intervention.${decision}`,
      entityType: "Intervention",
      entityId: id,
      before: { status: "PENDING" },
      after: { status, feedback, simulated: actorId === null, tool: iv.tool, stepIndex: iv.stepIndex, runEpisodeId: iv.runEpisodeId },
    });

    let resumed = false;
    if (iv.runEpisodeId) {
      await tx.runEpisode.update({ where: { id: iv.runEpisodeId }, data: { status: "QUEUED", workerId: null, leaseUntil: null } });
      resumed = true;
      if (runStatus === "DONE" && iv.runId) await tx.run.update({ where: { id: iv.runId }, data: { status: "RUNNING", finishedAt: null } });
    }
    return { runStatus, resumed, runId: iv.runId, runEpisodeId: iv.runEpisodeId };
  });

  // After the commit: the worker that takes the job must find the episode QUEUED. A paused run
  // keeps it QUEUED without a job; resuming the run sends it.
  let enqueued = false;
  if (result.resumed && result.runId && result.runEpisodeId && opts.queue && result.runStatus !== "PAUSED") {
    enqueued = (await enqueueQueued(db, opts.queue, result.runId, [result.runEpisodeId])) > 0;
  }
  return { id, status, feedback, runId: result.runId, runEpisodeId: result.runEpisodeId, resumed: result.resumed, enqueued };
}
