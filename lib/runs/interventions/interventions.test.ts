// The intervention queue: leases (two approvers never hold the same intervention; an expired
// lease goes to the next who asks; moving on releases), the answer (validation that writes
// nothing, refusals with clear messages, one transaction: answer + audit + episode back to
// QUEUED, the pg-boss job after the commit), and the queue's reads (no thoughts in the chain).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { seedWaitingIntervention } from "@/lib/testing/interventions";
import { bossQueue, startBoss, type EpisodeQueue } from "@/lib/jobs/boss";
import { AppError } from "@/lib/errors";
import { claimIntervention, INTERVENTION_LEASE_MS, releaseInterventionLease, renewInterventionLease } from "./lease";
import { answerIntervention } from "./answer";
import { countWaitingForRun, countWaitingInterventions, loadInterventionScreen } from "./queries";

let t: TestDatabase;
let boss: PgBoss;
let queue: EpisodeQueue;
const users: Record<"ana" | "ben" | "cyd", string> = { ana: "", ben: "", cyd: "" };
const T0 = new Date("2026-01-01T10:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

beforeAll(async () => {
  t = await createTestDatabase();
  for (const [key, role] of [["ana", "PI"], ["ben", "RESEARCHER"], ["cyd", "ADMIN"]] as const) {
    users[key] = (await t.prisma.user.create({ data: { email: `${key}@test.local`, name: key.toUpperCase(), passwordHash: "x", role }, select: { id: true } })).id;
  }
  boss = await startBoss(t.url);
  queue = bossQueue(boss);
});
afterAll(async () => {
  await boss?.stop({ graceful: false, wait: true, timeout: 1000 });
  await t?.cleanup();
});

/** Every intervention answered or gone, so each test starts from an empty queue. */
async function clearQueue() {
  await t.prisma.intervention.deleteMany({});
}

async function expectAppError(p: Promise<unknown>, status: number, message: RegExp) {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e, "expected a refusal").toBeInstanceOf(AppError);
  expect((e as AppError).status).toBe(status);
  expect((e as AppError).message).toMatch(message);
}

const jobsFor = async (runEpisodeId: string) =>
  Number((await t.sql.query(`SELECT count(*) AS n FROM pgboss.job WHERE name = 'episode' AND data->>'runEpisodeId' = $1 AND state = 'created'`, [runEpisodeId])).rows[0].n);

describe("leases", () => {
  it("gives two approvers different interventions, oldest first, and a third none", async () => {
    await clearQueue();
    const a = await seedWaitingIntervention(t.prisma, { createdAt: at(0) });
    const b = await seedWaitingIntervention(t.prisma, { runId: a.runId, createdAt: at(1) });
    const [x, y] = await Promise.all([claimIntervention(t.prisma, users.ana, { now: at(5) }), claimIntervention(t.prisma, users.ben, { now: at(5) })]);
    expect(x && y).toBeTruthy();
    expect(new Set([x!.id, y!.id])).toEqual(new Set([a.interventionId, b.interventionId]));
    expect(await claimIntervention(t.prisma, users.cyd, { now: at(5) })).toBeNull();
    // Reopening the queue resumes one's own lease, renewed.
    const again = await claimIntervention(t.prisma, users.ana, { now: at(6) });
    expect(again?.id).toBe(x!.id);
    expect(again!.leaseUntil.getTime()).toBe(at(6).getTime() + INTERVENTION_LEASE_MS);
  });

  it("never hands the same intervention to two of many concurrent claims", async () => {
    await clearQueue();
    const first = await seedWaitingIntervention(t.prisma, { createdAt: at(0) });
    for (let i = 1; i < 3; i++) await seedWaitingIntervention(t.prisma, { runId: first.runId, createdAt: at(i) });
    const got = await Promise.all([users.ana, users.ben, users.cyd].map((u) => claimIntervention(t.prisma, u, { now: at(5) })));
    const ids = got.map((g) => g?.id);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(3);
    const rows = await t.prisma.intervention.findMany({ select: { leasedById: true } });
    expect(new Set(rows.map((r) => r.leasedById))).toEqual(new Set([users.ana, users.ben, users.cyd]));
  });

  it("lets an expired lease be claimed by someone else, and then refuses the old holder's renewal", async () => {
    await clearQueue();
    const a = await seedWaitingIntervention(t.prisma, { createdAt: at(0) });
    expect((await claimIntervention(t.prisma, users.ana, { now: at(1) }))?.id).toBe(a.interventionId);
    // Still live a minute before it runs out: nobody else gets it.
    expect(await claimIntervention(t.prisma, users.ben, { now: new Date(at(1).getTime() + INTERVENTION_LEASE_MS - 60_000) })).toBeNull();
    // Renewing while live pushes it out.
    const renewed = await renewInterventionLease(t.prisma, users.ana, a.interventionId, at(2));
    expect(renewed.leaseUntil.getTime()).toBe(at(2).getTime() + INTERVENTION_LEASE_MS);
    const late = new Date(at(2).getTime() + INTERVENTION_LEASE_MS + 1000);
    expect((await claimIntervention(t.prisma, users.ben, { now: late }))?.id).toBe(a.interventionId);
    await expectAppError(renewInterventionLease(t.prisma, users.ana, a.interventionId, late), 409, /ran out and BEN took it/);
  });

  it("moves on in queue order, wrapping around, skipping others' leases and releasing the one left", async () => {
    await clearQueue();
    const a = await seedWaitingIntervention(t.prisma, { createdAt: at(0) });
    const b = await seedWaitingIntervention(t.prisma, { runId: a.runId, createdAt: at(1) });
    const c = await seedWaitingIntervention(t.prisma, { runId: a.runId, createdAt: at(2) });
    expect((await claimIntervention(t.prisma, users.ben, { now: at(3) }))?.id).toBe(a.interventionId);
    expect((await claimIntervention(t.prisma, users.ana, { now: at(3) }))?.id).toBe(b.interventionId);
    // Next from b: c. Next from c: wraps to a, held by Ben, so b again.
    expect((await claimIntervention(t.prisma, users.ana, { from: b.interventionId, direction: "next", now: at(3) }))?.id).toBe(c.interventionId);
    expect((await t.prisma.intervention.findUniqueOrThrow({ where: { id: b.interventionId } })).leasedById).toBeNull();
    expect((await claimIntervention(t.prisma, users.ana, { from: c.interventionId, direction: "next", now: at(3) }))?.id).toBe(b.interventionId);
    // Previous from b: a is Ben's, so it wraps to c.
    expect((await claimIntervention(t.prisma, users.ana, { from: b.interventionId, direction: "prev", now: at(3) }))?.id).toBe(c.interventionId);
    expect(await t.prisma.intervention.count({ where: { leasedById: users.ana } })).toBe(1);
    expect(await releaseInterventionLease(t.prisma, users.ana, c.interventionId)).toBe(true);
    expect(await t.prisma.intervention.count({ where: { leasedById: users.ana } })).toBe(0);
  });

  it("offers only interventions that still wait: not answered ones, not those of cancelled runs", async () => {
    await clearQueue();
    const cancelled = await seedWaitingIntervention(t.prisma, { runStatus: "CANCELLED", createdAt: at(0) });
    const live = await seedWaitingIntervention(t.prisma, { createdAt: at(1) });
    expect(await countWaitingInterventions(t.prisma)).toBe(1);
    expect(await countWaitingForRun(t.prisma, cancelled.runId)).toBe(0);
    expect(await countWaitingForRun(t.prisma, live.runId)).toBe(1);
    expect((await claimIntervention(t.prisma, users.ana, { now: at(2) }))?.id).toBe(live.interventionId);
  });
});

describe("answering", () => {
  it("refuses invalid answers with a clear message and writes nothing", async () => {
    await clearQueue();
    const a = await seedWaitingIntervention(t.prisma);
    const audits = await t.prisma.auditLog.count();
    await expectAppError(answerIntervention(t.prisma, users.ana, a.interventionId, { decision: "reject", feedback: "   " }, { queue }), 400, /feedback: Feedback is empty/);
    await expectAppError(answerIntervention(t.prisma, users.ana, a.interventionId, { decision: "approve", feedback: "fine" }, { queue }), 400, /an approval takes none/);
    await expectAppError(answerIntervention(t.prisma, users.ana, a.interventionId, { decision: "maybe" as "approve" }, { queue }), 400, /decision/);
    await expectAppError(answerIntervention(t.prisma, users.ana, a.interventionId, { decision: "reject", feedback: "x".repeat(4001) }, { queue }), 400, /4000 characters/);
    await expectAppError(answerIntervention(t.prisma, users.ana, "no-such-id", { decision: "approve" }, { queue }), 404, /No such intervention/);
    const iv = await t.prisma.intervention.findUniqueOrThrow({ where: { id: a.interventionId } });
    expect(iv.status).toBe("PENDING");
    expect(iv.answeredById).toBeNull();
    expect((await t.prisma.runEpisode.findUniqueOrThrow({ where: { id: a.runEpisodeId } })).status).toBe("WAITING");
    expect(await t.prisma.auditLog.count()).toBe(audits);
    expect(await jobsFor(a.runEpisodeId)).toBe(0);
  });

  it("approves in one transaction: the answer, its audit entry, the episode back in the queue, then its job", async () => {
    await clearQueue();
    const a = await seedWaitingIntervention(t.prisma);
    await claimIntervention(t.prisma, users.ana);
    const r = await answerIntervention(t.prisma, users.ana, a.interventionId, { decision: "approve" }, { queue, now: at(10) });
    expect(r).toMatchObject({ status: "APPROVED", feedback: null, runId: a.runId, runEpisodeId: a.runEpisodeId, resumed: true, enqueued: true });
    const iv = await t.prisma.intervention.findUniqueOrThrow({ where: { id: a.interventionId } });
    expect(iv).toMatchObject({ status: "APPROVED", answeredById: users.ana, answeredAt: at(10), simulated: false, feedback: null, leasedById: null, leaseUntil: null });
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { entityType: "Intervention", entityId: a.interventionId } });
    expect(audit).toMatchObject({ actorId: users.ana, action: "intervention.approve" });
    expect((await t.prisma.runEpisode.findUniqueOrThrow({ where: { id: a.runEpisodeId } })).status).toBe("QUEUED");
    expect(await jobsFor(a.runEpisodeId)).toBe(1);
    expect(await countWaitingInterventions(t.prisma)).toBe(0);
    // A second answer (a double press, another approver) is refused and changes nothing.
    await expectAppError(answerIntervention(t.prisma, users.ben, a.interventionId, { decision: "reject" }, { queue }), 409, /already approved by ANA/);
    expect((await t.prisma.intervention.findUniqueOrThrow({ where: { id: a.interventionId } })).status).toBe("APPROVED");
  });

  it("rejects with feedback, and refuses an answer while another approver's lease is live", async () => {
    await clearQueue();
    const a = await seedWaitingIntervention(t.prisma);
    await claimIntervention(t.prisma, users.ben, { now: at(0) });
    await expectAppError(answerIntervention(t.prisma, users.ana, a.interventionId, { decision: "approve" }, { queue, now: at(1) }), 409, /BEN is answering this action/);
    expect((await t.prisma.intervention.findUniqueOrThrow({ where: { id: a.interventionId } })).status).toBe("PENDING");
    // Once Ben's lease ran out, Ana may answer it.
    const late = new Date(at(0).getTime() + INTERVENTION_LEASE_MS + 1);
    const r = await answerIntervention(t.prisma, users.ana, a.interventionId, { decision: "reject", feedback: "  Pay only the $120 bill, to City Electric.  " }, { queue, now: late });
    expect(r).toMatchObject({ status: "REJECTED", feedback: "Pay only the $120 bill, to City Electric.", enqueued: true });
    const iv = await t.prisma.intervention.findUniqueOrThrow({ where: { id: a.interventionId } });
    expect(iv).toMatchObject({ status: "REJECTED", feedback: "Pay only the $120 bill, to City Electric.", answeredById: users.ana });
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { entityType: "Intervention", entityId: a.interventionId } });
    expect(audit.action).toBe("intervention.reject");
    expect(audit.after).toMatchObject({ status: "REJECTED", feedback: "Pay only the $120 bill, to City Electric." });
    expect((await t.prisma.runEpisode.findUniqueOrThrow({ where: { id: a.runEpisodeId } })).status).toBe("QUEUED");
  });

  it("keeps a paused run's episode queued without a job, brings a DONE run back to RUNNING, and records the simulated user", async () => {
    await clearQueue();
    const paused = await seedWaitingIntervention(t.prisma, { runStatus: "PAUSED" });
    const r = await answerIntervention(t.prisma, users.cyd, paused.interventionId, { decision: "approve" }, { queue });
    expect(r).toMatchObject({ resumed: true, enqueued: false });
    expect((await t.prisma.runEpisode.findUniqueOrThrow({ where: { id: paused.runEpisodeId } })).status).toBe("QUEUED");
    expect(await jobsFor(paused.runEpisodeId)).toBe(0);

    const done = await seedWaitingIntervention(t.prisma, { runStatus: "DONE" });
    const s = await answerIntervention(t.prisma, null, done.interventionId, { decision: "reject" }, { queue });
    expect(s).toMatchObject({ status: "REJECTED", enqueued: true });
    expect((await t.prisma.run.findUniqueOrThrow({ where: { id: done.runId } })).status).toBe("RUNNING");
    expect(await t.prisma.intervention.findUniqueOrThrow({ where: { id: done.interventionId } })).toMatchObject({ simulated: true, answeredById: null });
  });

  it("refuses when nothing waits for the answer any more (cancelled run, episode no longer paused)", async () => {
    await clearQueue();
    const c = await seedWaitingIntervention(t.prisma, { runStatus: "CANCELLED" });
    await expectAppError(answerIntervention(t.prisma, users.ana, c.interventionId, { decision: "approve" }, { queue }), 409, /run was cancelled/);
    const q = await seedWaitingIntervention(t.prisma);
    await t.prisma.runEpisode.update({ where: { id: q.runEpisodeId }, data: { status: "FAILED" } });
    await expectAppError(answerIntervention(t.prisma, users.ana, q.interventionId, { decision: "approve" }, { queue }), 409, /no longer waits .*failed/);
    for (const x of [c, q]) expect((await t.prisma.intervention.findUniqueOrThrow({ where: { id: x.interventionId } })).status).toBe("PENDING");
    expect((await t.prisma.runEpisode.findUniqueOrThrow({ where: { id: c.runEpisodeId } })).status).toBe("WAITING");
  });
});

describe("the queue screen", () => {
  it("shows the chain the critic saw (never thoughts), the real instruction, the inferred tasks, p̄ and τ", async () => {
    await clearQueue();
    const a = await seedWaitingIntervention(t.prisma, { runName: "Gate demo", p: 0.25, createdAt: at(0) });
    const b = await seedWaitingIntervention(t.prisma, { runId: a.runId, createdAt: at(1) });
    await claimIntervention(t.prisma, users.ben, { now: at(2) }); // Ben holds a
    const screen = await loadInterventionScreen(t.prisma, users.ana, { now: at(2) });
    const cur = screen.current!;
    expect(cur.id).toBe(b.interventionId);
    expect(screen.waiting.map((w) => [w.id, w.heldBy, w.mine])).toEqual([
      [a.interventionId, "BEN", false],
      [b.interventionId, null, true],
    ]);
    expect(cur.run?.name).toBe("Gate demo");
    expect(cur.case.instruction.length).toBeGreaterThan(10);
    expect(cur.tool).toBe("BankManagerTransferFunds");
    expect(cur.actionInput).toContain('"amount": 1200');
    expect(cur.chain.map((s) => s.action)).toEqual(["BankManagerGetAccountInformation", "BankManagerSearchPayee"]);
    expect(JSON.stringify(cur)).not.toContain("I should look this up first.");
    expect(cur.critic).toMatchObject({ method: "INFERACT", p: 0.3, tau: 0.5, error: null });
    expect(cur.critic.forwardP).toBeCloseTo(0.4);
    expect(cur.critic.reverseP).toBeCloseTo(0.2);
    expect(cur.critic.inferredTasks).toHaveLength(3);

    await answerIntervention(t.prisma, users.ana, b.interventionId, { decision: "reject", feedback: "Too much money." }, { queue: null });
    const after = await loadInterventionScreen(t.prisma, users.ana, { now: at(3) });
    expect(after.current).toBeNull();
    expect(after.answered[0]).toMatchObject({ id: b.interventionId, status: "REJECTED", feedback: "Too much money.", answeredBy: "ANA" });
  });
});
