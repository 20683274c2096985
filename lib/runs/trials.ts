// InferAct trials in episode runs with an online critic gate (issue 13 item 7).
//
// SUCCESS of an attempt (one trajectory): it FINISHED with a final answer (stop reason
// final_answer) and none of its gated calls was rejected — neither by a person nor by the
// simulated user. Anything else (rejected call, step limit, parse error, interruption) is not a
// success.
//
// NEXT TRIAL: an attempt that is not a success and had at least one call rejected WITH written
// feedback is played again as trial n + 1 — a new RunEpisode of the same (case, agent, variant,
// mode, repeat) — while n ≤ the gate's maxTrials (so N, the feedback rounds an attempt had,
// runs 0..maxTrials ≤ 3). The new trial's agent gets every earlier trial's feedback in its prompt
// (lib/engine/trial-memory.ts); its trajectory points at the attempt before it (previousTrialId)
// and carries that memory (trialFeedback). The new RunEpisode is inserted in the transaction that
// marks the attempt DONE, so a worker dying in between loses no trial; its job is sent after the
// commit (the reconciler queues it if that fails).
//
// SUCCESS AFTER N TRIALS (the run page): over the run's gated episodes (distinct case, agent,
// variant, mode, repeat), the share that had a successful attempt among trials 1..N + 1.
import "server-only";
import type { Db } from "@/lib/db/client";
import { fastSql, type RawSql } from "@/lib/db/fast-sql";
import type { TrialFeedback } from "@/lib/engine/episode-types";
import { NOW_UTC } from "@/lib/llm/endpoint-limiter";
import type { ClaimedEpisode } from "./episode-job";
import { MAX_FEEDBACK_TRIALS, storedGate } from "./schemas";

/** The success rule above, on a trajectory's status, stop reason and its rejected interventions. */
export function attemptSucceeded(t: { status: string; stopReason: string | null }, rejectedCalls: number): boolean {
  return t.status === "FINISHED" && t.stopReason === "final_answer" && rejectedCalls === 0;
}

/** Whether an attempt of trial `trial` earns another one (the rule above). */
export function earnsNextTrial(o: { succeeded: boolean; feedbackCount: number; trial: number; maxTrials: number }): boolean {
  return !o.succeeded && o.feedbackCount > 0 && o.trial <= Math.min(o.maxTrials, MAX_FEEDBACK_TRIALS);
}

const FENCE = `id = $1 AND "workerId" = $2 AND attempts = $3 AND status = 'RUNNING'`;

/**
 * The attempt finished: DONE (fenced like markDone), and — in the same transaction — the next
 * trial's RunEpisode (QUEUED) when the attempt earns one. Returns whether this worker still held
 * the episode and the new trial's RunEpisode id, if any.
 */
export async function markDoneWithTrials(db: Db, ep: ClaimedEpisode): Promise<{ stored: boolean; nextTrialId: string | null }> {
  const markDone = (q: Pick<RawSql, "$executeRawUnsafe">) =>
    q.$executeRawUnsafe(
      `UPDATE "RunEpisode" SET status = 'DONE', "finishedAt" = ${NOW_UTC}, "leaseUntil" = NULL, "lastError" = NULL, "errorKind" = NULL, "updatedAt" = ${NOW_UTC} WHERE ${FENCE}`,
      ep.runEpisodeId,
      ep.workerId,
      ep.attempt,
    );
  // No trials possible (an evaluation or critic unit, or a run without the gate, as the claim
  // saw it: a run's gate never changes): the one UPDATE, no transaction.
  if (ep.unit || ep.critic || ep.gated === false) return { stored: (await markDone(fastSql(db))) > 0, nextTrialId: null };
  return db.$transaction(async (tx) => {
    const n = await markDone(tx);
    if (n === 0) return { stored: false, nextTrialId: null };
    const run = await tx.run.findUnique({ where: { id: ep.runId }, select: { critic: true } });
    const gate = storedGate(run?.critic);
    if (!gate) return { stored: true, nextTrialId: null };
    const t = await tx.trajectory.findUnique({
      where: { id: ep.trajectoryId },
      select: { status: true, stopReason: true, interventions: { where: { status: "REJECTED" }, select: { feedback: true } } },
    });
    if (!t) return { stored: true, nextTrialId: null };
    const trial = ep.trial ?? 1;
    const succeeded = attemptSucceeded(t, t.interventions.length);
    const feedbackCount = t.interventions.filter((i) => i.feedback?.trim()).length;
    if (!earnsNextTrial({ succeeded, feedbackCount, trial, maxTrials: gate.maxTrials })) return { stored: true, nextTrialId: null };
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO "RunEpisode" (id, "runId", "caseId", "agentEndpointId", variant, mode, repeat, position, trial, status, "updatedAt")
       SELECT 'c' || md5(random()::text || clock_timestamp()::text), e."runId", e."caseId", e."agentEndpointId", e.variant, e.mode, e.repeat, e.position, e.trial + 1, 'QUEUED', ${NOW_UTC}
       FROM "RunEpisode" e WHERE e.id = $1
       ON CONFLICT DO NOTHING RETURNING id`,
      ep.runEpisodeId,
    );
    return { stored: true, nextTrialId: rows[0]?.id ?? null };
  });
}

/**
 * What a trial after the first needs from the ones before it: the previous attempt's trajectory
 * and every earlier trial's written feedback (oldest first, then by step). Null for trial 1.
 */
export async function trialMemoryFor(db: Db, ep: Pick<ClaimedEpisode, "runId" | "caseId" | "agentEndpointId" | "variant" | "mode" | "repeat" | "trial">) {
  const trial = ep.trial ?? 1;
  if (trial <= 1) return null;
  const earlier = await db.runEpisode.findMany({
    where: { runId: ep.runId, caseId: ep.caseId, agentEndpointId: ep.agentEndpointId, variant: ep.variant, mode: ep.mode, repeat: ep.repeat, trial: { lt: trial } },
    orderBy: { trial: "asc" },
    select: { trial: true, trajectoryId: true },
  });
  const ids = earlier.map((e) => e.trajectoryId).filter((x): x is string => !!x);
  const rejected = await db.intervention.findMany({
    where: { trajectoryId: { in: ids }, status: "REJECTED", feedback: { not: null } },
    orderBy: { stepIndex: "asc" },
    select: { trajectoryId: true, feedback: true },
  });
  const feedback: TrialFeedback[] = [];
  for (const e of earlier) {
    for (const r of rejected) if (r.trajectoryId === e.trajectoryId && r.feedback?.trim()) feedback.push({ trial: e.trial, text: r.feedback.trim() });
  }
  const previous = earlier.find((e) => e.trial === trial - 1);
  return { trial, previousTrialId: previous?.trajectoryId ?? null, feedback };
}

export interface TrialSuccessRow {
  /** N, the feedback trials allowed: success within trials 1..N + 1. */
  n: number;
  successes: number;
  episodes: number;
  /** successes / episodes; null when there are no episodes. */
  rate: number | null;
}

/**
 * Success after N trials, N = 0..MAX_FEEDBACK_TRIALS, over the run's episodes that have ended (a
 * gated episode whose trials are all DONE, FAILED or CANCELLED); see the rule at the top.
 */
export async function successOverTrials(db: Db, runId: string): Promise<{ rows: TrialSuccessRow[]; open: number }> {
  const eps = await db.runEpisode.findMany({
    where: { runId, sourceTrajectoryId: null },
    select: {
      caseId: true,
      agentEndpointId: true,
      variant: true,
      mode: true,
      repeat: true,
      trial: true,
      status: true,
      trajectory: { select: { status: true, stopReason: true, _count: { select: { interventions: { where: { status: "REJECTED" } } } } } },
    },
  });
  const byKey = new Map<string, typeof eps>();
  for (const e of eps) {
    const k = `${e.caseId}|${e.agentEndpointId}|${e.variant}|${e.mode}|${e.repeat}`;
    byKey.set(k, [...(byKey.get(k) ?? []), e]);
  }
  let open = 0;
  const firstSuccess: (number | null)[] = [];
  for (const trials of byKey.values()) {
    if (trials.some((t) => t.status === "QUEUED" || t.status === "RUNNING" || t.status === "WAITING")) {
      open++;
      continue;
    }
    const ok = trials
      .filter((t) => t.status === "DONE" && t.trajectory && attemptSucceeded(t.trajectory, t.trajectory._count.interventions))
      .map((t) => t.trial);
    firstSuccess.push(ok.length ? Math.min(...ok) : null);
  }
  const rows: TrialSuccessRow[] = [];
  for (let n = 0; n <= MAX_FEEDBACK_TRIALS; n++) {
    const successes = firstSuccess.filter((t) => t !== null && t <= n + 1).length;
    rows.push({ n, successes, episodes: firstSuccess.length, rate: firstSuccess.length ? successes / firstSuccess.length : null });
  }
  return { rows, open };
}
