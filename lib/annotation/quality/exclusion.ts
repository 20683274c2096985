// Excluding an annotator's labels from a campaign's metrics and exports, and restoring them.
// The labels themselves stay; each exclusion is a row (who, when, why) closed by a restore
// (who, when, why), so the history is kept, and both are audited.
import type { Db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";

export async function excludeAnnotator(db: Db, actorId: string, campaignId: string, annotatorId: string, reason: string) {
  return db.$transaction(async (tx) => {
    const member = await tx.campaignMember.findUnique({ where: { campaignId_userId: { campaignId, userId: annotatorId } }, select: { userId: true } });
    if (!member) throw new AppError("That annotator is not in this campaign.", 404);
    const open = await tx.labelExclusion.findFirst({ where: { campaignId, annotatorId, restoredAt: null }, select: { id: true } });
    if (open) throw new AppError("This annotator's labels are already excluded.", 409);
    const row = await tx.labelExclusion.create({ data: { campaignId, annotatorId, reason, excludedById: actorId } });
    await recordAudit(tx, { actorId, action: "annotator.exclude", entityType: "Campaign", entityId: campaignId, after: { annotatorId, reason, exclusionId: row.id } });
    return { id: row.id };
  });
}

export async function restoreAnnotator(db: Db, actorId: string, campaignId: string, annotatorId: string, reason: string) {
  return db.$transaction(async (tx) => {
    const open = await tx.labelExclusion.findFirst({ where: { campaignId, annotatorId, restoredAt: null }, select: { id: true, reason: true } });
    if (!open) throw new AppError("This annotator's labels are not excluded.", 409);
    await tx.labelExclusion.update({ where: { id: open.id }, data: { restoredAt: new Date(), restoredById: actorId, restoreReason: reason } });
    await recordAudit(tx, { actorId, action: "annotator.restore", entityType: "Campaign", entityId: campaignId, before: { annotatorId, reason: open.reason }, after: { annotatorId, reason, exclusionId: open.id } });
    return { id: open.id };
  });
}

export interface ExclusionRecord {
  id: string;
  annotatorId: string;
  annotator: string;
  reason: string;
  excludedBy: string | null;
  excludedAt: Date;
  restoredBy: string | null;
  restoredAt: Date | null;
  restoreReason: string | null;
}

/** Every exclusion of the campaign, newest first, with names. */
export async function exclusionHistory(db: Db, campaignId: string): Promise<ExclusionRecord[]> {
  const rows = await db.labelExclusion.findMany({ where: { campaignId }, orderBy: { excludedAt: "desc" } });
  const ids = [...new Set(rows.flatMap((r) => [r.annotatorId, r.excludedById, r.restoredById]).filter((x): x is string => !!x))];
  const names = new Map((await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })).map((u) => [u.id, u.name]));
  return rows.map((r) => ({
    id: r.id,
    annotatorId: r.annotatorId,
    annotator: names.get(r.annotatorId) ?? "a former user",
    reason: r.reason,
    excludedBy: r.excludedById ? (names.get(r.excludedById) ?? null) : null,
    excludedAt: r.excludedAt,
    restoredBy: r.restoredById ? (names.get(r.restoredById) ?? null) : null,
    restoredAt: r.restoredAt,
    restoreReason: r.restoreReason,
  }));
}
