// Claiming, drafting, submitting and skipping items. The invariants:
//   * one assignment per (item, annotator) — a unique index;
//   * an item never has more than k submitted labels, or k live claims plus submissions —
//     claims lock the item row (FOR UPDATE SKIP LOCKED), submissions re-check under that lock;
//   * a claim holds a lease; an expired lease frees the place for someone else.
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { canonicalJson } from "@/lib/toolemu/canonical";
import { parseLabelSchema, valuesValidator, type LabelValues } from "./label-schema";

export const LEASE_MS = 30 * 60_000;

type Tx = Prisma.TransactionClient;

async function openCampaignFor(tx: Tx, campaignId: string, userId: string) {
  const campaign = await tx.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, k: true, seed: true, status: true, members: { where: { userId }, select: { userId: true } } },
  });
  if (!campaign || !campaign.members.length) throw new AppError("You are not invited to this campaign.", 403);
  return campaign;
}

/**
 * The annotator's current item: their live claim if they have one (a reload or a second tab
 * resumes it), otherwise a newly claimed item, or null when nothing is left for them.
 */
export async function claimNext(db: Db, campaignId: string, userId: string, now = new Date()): Promise<{ assignmentId: string; itemId: string } | null> {
  return db.$transaction(async (tx) => {
    const campaign = await openCampaignFor(tx, campaignId, userId);
    if (campaign.status === "LOCKED") throw new AppError("This campaign is locked; labels can no longer be added.", 409);
    const lease = new Date(now.getTime() + LEASE_MS);

    const mine = await tx.assignment.findMany({
      where: { campaignId, annotatorId: userId, status: "CLAIMED" },
      orderBy: { claimedAt: "asc" },
      select: { id: true, itemId: true, leaseUntil: true },
    });
    for (const a of mine) {
      if (a.leaseUntil && a.leaseUntil > now) {
        await tx.assignment.update({ where: { id: a.id }, data: { leaseUntil: lease } });
        return { assignmentId: a.id, itemId: a.itemId };
      }
      // An expired claim of mine: resume it if the item still needs labels, else let it go.
      const taken = await liveCount(tx, a.itemId, now, a.id);
      if (taken < campaign.k) {
        await tx.assignment.update({ where: { id: a.id }, data: { leaseUntil: lease } });
        return { assignmentId: a.id, itemId: a.itemId };
      }
      await tx.assignment.update({ where: { id: a.id }, data: { status: "SKIPPED", skipReason: "lease expired; the item was completed by others", leaseUntil: null } });
    }

    // Candidates in this annotator's seeded order. The count in this statement sees the snapshot
    // from its start, so after taking a row's lock the count is checked again (a new statement
    // sees what other transactions committed meanwhile) before the claim is made.
    const skipped: string[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      const rows = await tx.$queryRaw<{ id: string }[]>`
        SELECT ci.id FROM "CampaignItem" ci
        WHERE ci."campaignId" = ${campaignId}
          AND NOT (ci.id = ANY(${skipped}::text[]))
          AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = ci.id AND a."annotatorId" = ${userId})
          AND (SELECT count(*) FROM "Assignment" a
                WHERE a."itemId" = ci.id
                  AND (a.status = 'SUBMITTED' OR (a.status = 'CLAIMED' AND a."leaseUntil" > ${now}))) < ${campaign.k}
        ORDER BY md5(${String(campaign.seed)} || ':' || ${userId} || ':' || ci.id)
        LIMIT 1
        FOR UPDATE OF ci SKIP LOCKED`;
      const itemId = rows[0]?.id;
      if (!itemId) return null;
      if ((await liveCount(tx, itemId, now)) >= campaign.k) {
        skipped.push(itemId);
        continue;
      }
      const created = await tx.assignment.create({ data: { campaignId, itemId, annotatorId: userId, status: "CLAIMED", leaseUntil: lease, claimedAt: now } });
      return { assignmentId: created.id, itemId };
    }
    return null;
  });
}

/** Submitted labels plus live claims on an item, leaving one assignment out. */
async function liveCount(tx: Tx, itemId: string, now: Date, exceptAssignmentId?: string): Promise<number> {
  return tx.assignment.count({
    where: {
      itemId,
      ...(exceptAssignmentId ? { id: { not: exceptAssignmentId } } : {}),
      OR: [{ status: "SUBMITTED" }, { status: "CLAIMED", leaseUntil: { gt: now } }],
    },
  });
}

async function ownAssignment(tx: Tx, assignmentId: string, userId: string) {
  // Row lock: a double click or a retried request runs after the first, not beside it.
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Assignment" WHERE id = ${assignmentId} FOR UPDATE`;
  const a = locked.length
    ? await tx.assignment.findUnique({
        where: { id: assignmentId },
        include: { campaign: { select: { id: true, k: true, status: true, labelSchema: true } } },
      })
    : null;
  if (!a || a.annotatorId !== userId) throw new AppError("No such item in your queue.", 404);
  if (a.campaign.status === "LOCKED") throw new AppError("This campaign is locked; labels can no longer be changed.", 409);
  return a;
}

export async function saveDraft(db: Db, userId: string, assignmentId: string, draft: LabelValues, timeSpentMs: number, now = new Date()) {
  return db.$transaction(async (tx) => {
    const a = await ownAssignment(tx, assignmentId, userId);
    const schema = parseLabelSchema(a.campaign.labelSchema);
    const parsed = valuesValidator(schema, { partial: true }).safeParse(draft);
    if (!parsed.success) throw new AppError(parsed.error.issues[0]?.message ?? "Invalid draft.", 400);
    await tx.assignment.update({
      where: { id: a.id },
      data: {
        draft: parsed.data as Prisma.InputJsonValue,
        draftUpdatedAt: now,
        timeSpentMs: Math.max(a.timeSpentMs, timeSpentMs),
        // Working on it keeps the place.
        ...(a.status === "CLAIMED" ? { leaseUntil: new Date(now.getTime() + LEASE_MS) } : {}),
      },
    });
    return { savedAt: now.toISOString() };
  });
}

/**
 * Stores the label. Idempotent: submitting the same values again changes nothing. Submitting
 * other values for an already submitted item is a revision, written to the audit log.
 */
export async function submitLabel(db: Db, userId: string, assignmentId: string, values: LabelValues, timeSpentMs: number, now = new Date()) {
  const result = await submitInTransaction(db, userId, assignmentId, values, timeSpentMs, now);
  if (result.status === "completed_by_others") {
    throw new AppError("Your claim on this item expired and others completed it meanwhile; your answers are kept as a draft. Go on with the next item.", 409);
  }
  return result as { status: "submitted" | "unchanged" | "revised" };
}

function submitInTransaction(db: Db, userId: string, assignmentId: string, values: LabelValues, timeSpentMs: number, now: Date) {
  return db.$transaction(async (tx) => {
    const a = await ownAssignment(tx, assignmentId, userId);
    const schema = parseLabelSchema(a.campaign.labelSchema);
    const parsed = valuesValidator(schema, { partial: false }).safeParse(values);
    if (!parsed.success) throw new AppError(parsed.error.issues.map((i) => i.message).join(" "), 400);
    const clean = parsed.data as Prisma.InputJsonValue;
    if (a.status === "SUBMITTED") {
      // jsonb reorders keys, so compare canonical forms.
      if (canonicalJson(a.values) === canonicalJson(clean)) return { status: "unchanged" as const };
      await tx.assignment.update({ where: { id: a.id }, data: { values: clean, draft: undefined, timeSpentMs: Math.max(a.timeSpentMs, timeSpentMs) } });
      await recordAudit(tx, { actorId: userId, action: "label.revise", entityType: "Assignment", entityId: a.id, before: a.values, after: clean });
      return { status: "revised" as const };
    }
    if (a.status === "SKIPPED") throw new AppError("You skipped this item.", 409);
    // Under the item's lock, so two submissions can never both be the k-th.
    await tx.$queryRaw`SELECT id FROM "CampaignItem" WHERE id = ${a.itemId} FOR UPDATE`;
    const submitted = await tx.assignment.count({ where: { itemId: a.itemId, status: "SUBMITTED" } });
    if (submitted >= a.campaign.k) {
      // Committed (not thrown here, which would roll it back): the answers stay as a draft and the
      // claim is released, so the next claim gives this annotator another item.
      await tx.assignment.update({
        where: { id: a.id },
        data: { draft: clean, status: "SKIPPED", skipReason: "lease expired; the item was completed by others", leaseUntil: null },
      });
      return { status: "completed_by_others" as const };
    }
    await tx.assignment.update({
      where: { id: a.id },
      data: { status: "SUBMITTED", values: clean, submittedAt: now, leaseUntil: null, timeSpentMs: Math.max(a.timeSpentMs, timeSpentMs) },
    });
    await recordAudit(tx, { actorId: userId, action: "label.submit", entityType: "Assignment", entityId: a.id, after: clean });
    return { status: "submitted" as const };
  });
}

export async function skipItem(db: Db, userId: string, assignmentId: string, reason: string) {
  return db.$transaction(async (tx) => {
    const a = await ownAssignment(tx, assignmentId, userId);
    if (a.status !== "CLAIMED") throw new AppError("Only an item you are working on can be skipped.", 409);
    await tx.assignment.update({ where: { id: a.id }, data: { status: "SKIPPED", skipReason: reason, leaseUntil: null } });
    await recordAudit(tx, { actorId: userId, action: "label.skip", entityType: "Assignment", entityId: a.id, after: { reason } });
    return { skipped: true };
  });
}
