// Assignment invariants under concurrency, idempotent submission, leases and blinding.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { hashPassword } from "@/lib/auth/password";
import { createCampaign, setCampaignLocked } from "./campaigns";
import { UserNotVerified, type Caller } from "@/lib/auth/guard";
import { claimNext, claimNextItem, LEASE_MS, saveDraft, skipItem, submitLabel } from "./assignments";
import { loadBlindedItem } from "./blinded";
import { listMyCampaigns } from "./queries";

const VALID = {
  safety: "possible_severe_risk",
  helpfulness: "good",
  emulator_input_validation: "none",
  emulator_realism: "minor",
  emulator_consistency: "none",
  true_failure: true,
  comment: "ok",
};

let t: TestDatabase;
let users: string[] = [];
beforeAll(async () => {
  t = await createTestDatabase({ seed: "all" });
  expect(t.imported?.written?.trajectories).toBe(144);
  const hash = await hashPassword("annotator-pass");
  await t.prisma.user.createMany({
    data: Array.from({ length: 50 }, (_, i) => ({ id: `ann${i}`, email: `ann${i}@lab.example`, name: `Annotator ${i}`, role: "ANNOTATOR" as const, passwordHash: hash })),
  });
  users = Array.from({ length: 50 }, (_, i) => `ann${i}`);
});
afterAll(() => t.cleanup());

describe("assignment under concurrency", () => {
  it("50 annotators claiming and submitting at once: every item ends with exactly k labels from k people", async () => {
    // 36 items × k = 3: 108 places for 50 people, most of whom find nothing left halfway — the
    // race is the point, not the volume (all 144 items took ~30 s on the embedded database).
    const k = 3;
    const N = 36;
    const { id: campaignId, items } = await createCampaign(t.prisma, null, {
      name: "concurrency", k, seed: 7, annotatorIds: users, selection: { kind: "filter", filter: {}, limit: N },
    });
    expect(items).toBe(N);
    // Each annotator runs up to 20 claim/submit cycles; all 50 run concurrently.
    const cycles = await Promise.all(
      users.map(async (u) => {
        let done = 0;
        for (let i = 0; i < 20; i++) {
          const claim = await claimNext(t.prisma, campaignId, u);
          if (!claim) break;
          // A double submit (as a double click would send) must store one label.
          const [a, b] = await Promise.all([
            submitLabel(t.prisma, u, claim.assignmentId, VALID, 1000),
            submitLabel(t.prisma, u, claim.assignmentId, VALID, 1000),
          ]);
          expect([a.status, b.status].sort()).toEqual(["submitted", "unchanged"]);
          done++;
        }
        return done;
      }),
    );
    expect(cycles.reduce((x, y) => x + y, 0)).toBe(N * k);
    const perItem = await t.sql.query(`
      SELECT ci.id, count(a.id)::int AS n, count(DISTINCT a."annotatorId")::int AS people
      FROM "CampaignItem" ci LEFT JOIN "Assignment" a ON a."itemId" = ci.id AND a.status = 'SUBMITTED'
      WHERE ci."campaignId" = $1 GROUP BY ci.id`, [campaignId]);
    expect(perItem.rows).toHaveLength(N);
    for (const r of perItem.rows) expect([r.n, r.people]).toEqual([k, k]);
    const stray = await t.sql.query(`SELECT count(*)::int AS n FROM "Assignment" WHERE "campaignId" = $1 AND status <> 'SUBMITTED'`, [campaignId]);
    expect(stray.rows[0].n).toBe(0);
    // Nothing left for anyone.
    expect(await claimNext(t.prisma, campaignId, users[0]!)).toBeNull();
  });

  it("a reload resumes the same item; drafts persist; an expired lease frees the place", async () => {
    const [u1, u2] = [users[1]!, users[2]!];
    const trajectory = await t.prisma.trajectory.findFirstOrThrow({ select: { id: true } });
    const { id: campaignId } = await createCampaign(t.prisma, null, { name: "lease", k: 1, seed: 1, annotatorIds: [u1, u2], selection: { kind: "ids", trajectoryIds: [trajectory.id] } });
    const t0 = new Date();
    const first = await claimNext(t.prisma, campaignId, u1, t0);
    expect(first).not.toBeNull();
    expect(await claimNext(t.prisma, campaignId, u1, t0)).toEqual(first); // reload / second tab
    expect(await claimNext(t.prisma, campaignId, u2, t0)).toBeNull(); // k = 1 and it is taken
    await saveDraft(t.prisma, u1, first!.assignmentId, { safety: "certain_no_risk", comment: "half-way" }, 5000, t0);
    const item = await loadBlindedItem(t.prisma, u1, first!.assignmentId);
    expect(item.assignment.draft).toEqual({ safety: "certain_no_risk", comment: "half-way" });
    expect(item.assignment.timeSpentMs).toBe(5000);
    // Past the lease, someone else may take the item …
    const later = new Date(Date.now() + LEASE_MS * 2 + 60_000);
    const second = await claimNext(t.prisma, campaignId, u2, later);
    expect(second?.itemId).toBe(first!.itemId);
    await submitLabel(t.prisma, u2, second!.assignmentId, VALID, 10, later);
    // … and the first annotator's late submit is refused with the draft kept.
    const late = await submitLabel(t.prisma, u1, first!.assignmentId, VALID, 10, later).catch((e) => e);
    expect(late.status).toBe(409);
    expect(late.message).toMatch(/kept as a draft/);
    // The answers really are kept, and the dead claim no longer blocks the annotator.
    const after = await t.prisma.assignment.findUniqueOrThrow({ where: { id: first!.assignmentId } });
    expect(after.status).toBe("SKIPPED");
    expect(after.draft).toMatchObject({ safety: VALID.safety, true_failure: true });
    expect(await claimNext(t.prisma, campaignId, u1, later)).toBeNull();
  });

  it("never hands an item to more than k people, however many claim at once", async () => {
    const ids = (await t.prisma.trajectory.findMany({ select: { id: true }, take: 6, skip: 20 })).map((x) => x.id);
    const claimers = users.slice(10, 50);
    const { id: campaignId } = await createCampaign(t.prisma, null, { name: "race", k: 1, seed: 9, annotatorIds: claimers, selection: { kind: "ids", trajectoryIds: ids } });
    const claims = await Promise.all(claimers.map((u) => claimNext(t.prisma, campaignId, u)));
    expect(claims.filter(Boolean)).toHaveLength(6);
    const live = await t.sql.query(
      `SELECT "itemId", count(*)::int AS n FROM "Assignment" WHERE "campaignId" = $1 AND status = 'CLAIMED' GROUP BY "itemId"`,
      [campaignId],
    );
    expect(live.rows.map((r) => r.n)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("skips need a reason and hand the item to someone else; locked campaigns refuse changes; revisions are audited", async () => {
    const [u1, u2] = [users[3]!, users[4]!];
    const trajectory = await t.prisma.trajectory.findFirstOrThrow({ select: { id: true }, skip: 1 });
    const { id: campaignId } = await createCampaign(t.prisma, null, { name: "skip", k: 1, seed: 2, annotatorIds: [u1, u2], selection: { kind: "ids", trajectoryIds: [trajectory.id] } });
    const c1 = await claimNext(t.prisma, campaignId, u1);
    await skipItem(t.prisma, u1, c1!.assignmentId, "unreadable");
    expect(await claimNext(t.prisma, campaignId, u1)).toBeNull();
    const c2 = await claimNext(t.prisma, campaignId, u2);
    expect(c2?.itemId).toBe(c1!.itemId);
    await submitLabel(t.prisma, u2, c2!.assignmentId, VALID, 10);
    const revised = await submitLabel(t.prisma, u2, c2!.assignmentId, { ...VALID, safety: "certain_no_risk" }, 20);
    expect(revised.status).toBe("revised");
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { action: "label.revise", entityId: c2!.assignmentId } });
    expect(audit.before).toMatchObject({ safety: "possible_severe_risk" });
    expect(audit.after).toMatchObject({ safety: "certain_no_risk" });
    await setCampaignLocked(t.prisma, "ann0", campaignId, true);
    expect((await submitLabel(t.prisma, u2, c2!.assignmentId, VALID, 30).catch((e) => e)).status).toBe(409);
  });

  it("refuses people who are not invited, and incomplete or unknown values", async () => {
    const trajectory = await t.prisma.trajectory.findFirstOrThrow({ select: { id: true }, skip: 2 });
    const { id: campaignId } = await createCampaign(t.prisma, null, { name: "invite", k: 1, seed: 3, annotatorIds: [users[5]!], selection: { kind: "ids", trajectoryIds: [trajectory.id] } });
    expect((await claimNext(t.prisma, campaignId, users[6]!).catch((e) => e)).status).toBe(403);
    const c = await claimNext(t.prisma, campaignId, users[5]!);
    expect((await submitLabel(t.prisma, users[5]!, c!.assignmentId, { safety: "certain_no_risk" }, 1).catch((e) => e)).status).toBe(400);
    expect((await submitLabel(t.prisma, users[5]!, c!.assignmentId, { ...VALID, safety: "very_risky" }, 1).catch((e) => e)).status).toBe(400);
    expect((await submitLabel(t.prisma, users[6]!, c!.assignmentId, VALID, 1).catch((e) => e)).status).toBe(404);
  });
});

describe("claim with the item, and callers that leave the user check to the statement", () => {
  it("claimNextItem hands out what claimNext + loadBlindedItem give, resumes it, and keeps drafts", async () => {
    const [u1, u2] = [users[8]!, users[9]!];
    const ids = (await t.prisma.trajectory.findMany({ where: { steps: { some: {} } }, select: { id: true }, orderBy: { id: "asc" }, take: 3, skip: 30 })).map((x) => x.id);
    const { id: campaignId } = await createCampaign(t.prisma, null, { name: "with item", k: 1, seed: 11, annotatorIds: [u1, u2], selection: { kind: "ids", trajectoryIds: ids } });
    const now = new Date();
    const item = await claimNextItem(t.prisma, campaignId, u1, now);
    expect(item).not.toBeNull();
    expect(item).toEqual(await loadBlindedItem(t.prisma, u1, item!.assignment.id));
    expect(item!.assignment).toMatchObject({ status: "CLAIMED", draft: null, values: null, timeSpentMs: 0, leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString() });
    expect(item!.steps.length).toBeGreaterThan(0);
    expect(item!.steps.map((s) => s.index)).toEqual([...item!.steps.map((s) => s.index)].sort((a, b) => a - b));
    // The same order as claimNext's.
    expect((await claimNext(t.prisma, campaignId, u1, now))?.assignmentId).toBe(item!.assignment.id);
    await saveDraft(t.prisma, u1, item!.assignment.id, { safety: "likely_mild_risk" }, 900, now);
    const resumed = await claimNextItem(t.prisma, campaignId, u1, now);
    expect(resumed!.assignment).toMatchObject({ id: item!.assignment.id, draft: { safety: "likely_mild_risk" }, timeSpentMs: 900, draftUpdatedAt: now.toISOString() });
    expect(resumed).toEqual(await loadBlindedItem(t.prisma, u1, item!.assignment.id));
    await submitLabel(t.prisma, u1, item!.assignment.id, VALID, 1000, now);
    const next = await claimNextItem(t.prisma, campaignId, u1, now);
    expect(next!.itemId).not.toBe(item!.itemId);
    expect(await claimNextItem(t.prisma, campaignId, u2, now)).not.toBeNull();
  });

  it("under the guard's deferred check, a disabled user is refused in the first statement and nothing changes", async () => {
    const u = users[10]!;
    const trajectory = await t.prisma.trajectory.findFirstOrThrow({ select: { id: true }, skip: 40 });
    const { id: campaignId } = await createCampaign(t.prisma, null, { name: "verify", k: 1, seed: 12, annotatorIds: [u, users[11]!], selection: { kind: "ids", trajectoryIds: [trajectory.id] } });
    // The caller the guard hands a handler under `userCheck: "deferred"`.
    const caller = (id: string, sv: number, sid: string, roles: readonly ("ADMIN" | "ANNOTATOR")[] = ["ANNOTATOR"]): Caller => ({
      id,
      session: { sub: id, sv, sid },
      deferredCheck: { roles },
    });
    const roles = caller(u, 0, "session-1");
    const as = (id: string, r: readonly ("ADMIN" | "ANNOTATOR")[]) => caller(id, 0, `session-${id}`, r);
    const item = await claimNextItem(t.prisma, campaignId, roles);
    expect(item).not.toBeNull();
    await t.prisma.user.update({ where: { id: u }, data: { disabled: true } });
    try {
      await expect(claimNextItem(t.prisma, campaignId, roles)).rejects.toBeInstanceOf(UserNotVerified);
      await expect(submitLabel(t.prisma, roles, item!.assignment.id, VALID, 1)).rejects.toBeInstanceOf(UserNotVerified);
      await expect(saveDraft(t.prisma, roles, item!.assignment.id, {}, 1)).rejects.toBeInstanceOf(UserNotVerified);
      await expect(skipItem(t.prisma, roles, item!.assignment.id, "no")).rejects.toBeInstanceOf(UserNotVerified);
      // A role outside the list is refused too, even for someone else's assignment or an unknown one.
      await expect(submitLabel(t.prisma, as(users[11]!, ["ADMIN"]), item!.assignment.id, VALID, 1)).rejects.toBeInstanceOf(UserNotVerified);
      await expect(submitLabel(t.prisma, as(users[11]!, ["ADMIN"]), "no-such-assignment", VALID, 1)).rejects.toBeInstanceOf(UserNotVerified);
      const row = await t.prisma.assignment.findUniqueOrThrow({ where: { id: item!.assignment.id } });
      expect(row.status).toBe("CLAIMED");
      expect(row.values).toBeNull();
    } finally {
      await t.prisma.user.update({ where: { id: u }, data: { disabled: false } });
    }
    // Enabled again: the ordinary answers (404 for an unknown assignment, 403 when not invited).
    expect((await submitLabel(t.prisma, roles, "no-such-assignment", VALID, 1).catch((e) => e)).status).toBe(404);
    expect((await claimNextItem(t.prisma, campaignId, { ...roles, id: users[12]! }).catch((e) => e)).status).toBe(403);
    // The same statement refuses a session that was ended: signed out, or an older session version.
    await t.prisma.revokedSession.create({ data: { sid: "session-1", userId: u, expiresAt: new Date(Date.now() + 60_000) } });
    await expect(saveDraft(t.prisma, roles, item!.assignment.id, {}, 1)).rejects.toBeInstanceOf(UserNotVerified);
    const other = caller(u, 0, "session-2");
    await t.prisma.user.update({ where: { id: u }, data: { sessionVersion: 1 } });
    await expect(saveDraft(t.prisma, other, item!.assignment.id, {}, 1)).rejects.toBeInstanceOf(UserNotVerified);
    const current = caller(u, 1, "session-2");
    expect((await submitLabel(t.prisma, current, item!.assignment.id, VALID, 1)).status).toBe("submitted");
  });
});

describe("blinding", () => {
  it("nothing an annotator receives names the models, the mode, the evaluators, the source or the trajectory", async () => {
    const u = users[7]!;
    const { id: campaignId } = await createCampaign(t.prisma, null, { name: "blind", k: 1, seed: 4, annotatorIds: [u], selection: { kind: "sample", filter: {}, n: 10, seed: 5, stratify: true } });
    const forbidden = new Set<string>(["ADVERSARIAL", "STANDARD", "Qwen2.5", "Qwen3-8B", "Qwen3-32B", "gpt-5-mini", "judge-q32", "judge-gpt5m", ".jsonl", "_eval_", "ToolCallRisk", "Evaluator Thought"]);
    const seen: string[] = [JSON.stringify(await listMyCampaigns(t.prisma, u))];
    for (let i = 0; i < 10; i++) {
      const claim = await claimNext(t.prisma, campaignId, u);
      const item = await loadBlindedItem(t.prisma, u, claim!.assignmentId);
      const row = await t.prisma.campaignItem.findUniqueOrThrow({ where: { id: item.itemId }, include: { trajectory: { include: { evaluations: true, steps: true } } } });
      const tr = row.trajectory!;
      forbidden.add(tr.id);
      forbidden.add(tr.contentHash);
      for (const e of tr.evaluations) if (e.summary) forbidden.add(e.summary.slice(0, 60));
      for (const s of tr.steps) if (s.emulatorSummary) forbidden.add(s.emulatorSummary.slice(0, 60));
      seen.push(JSON.stringify(item), JSON.stringify(claim), JSON.stringify(await submitLabel(t.prisma, u, claim!.assignmentId, VALID, 1)));
    }
    const all = seen.join("\n");
    for (const f of forbidden) expect(all.includes(f), `annotator data contains "${f}"`).toBe(false);
  });
});
