// What the annotation page loads: the annotator's current item (claimed if needed) or the
// revision of one they already submitted, with their progress. Blinded throughout.
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { claimNextItem } from "./assignments";
import { loadBlindedItem, type BlindedItem } from "./blinded";
import { listMyCampaigns, type MyCampaign } from "./queries";

export type AnnotationScreen =
  | { kind: "item"; item: BlindedItem; progress: MyCampaign; firstVisit: boolean }
  | { kind: "done"; progress: MyCampaign; submitted: { assignmentId: string; itemId: string; submittedAt: string | null }[] };

export async function loadAnnotationScreen(db: Db, userId: string, campaignId: string, revise?: string): Promise<AnnotationScreen> {
  const progressOf = async () => {
    const p = (await listMyCampaigns(db, userId)).find((c) => c.id === campaignId);
    if (!p) throw new AppError("You are not invited to this campaign.", 403);
    return p;
  };
  const before = await progressOf();
  if (revise) {
    const item = await loadBlindedItem(db, userId, revise);
    if (item.campaign.id !== campaignId) throw new AppError("No such item in your queue.", 404);
    return { kind: "item", item, progress: before, firstVisit: false };
  }
  const item = before.locked ? null : await claimNextItem(db, campaignId, userId);
  if (!item) {
    const submitted = await db.assignment.findMany({
      where: { campaignId, annotatorId: userId, status: "SUBMITTED" },
      orderBy: { submittedAt: "desc" },
      select: { id: true, itemId: true, submittedAt: true },
    });
    return { kind: "done", progress: before, submitted: submitted.map((s) => ({ assignmentId: s.id, itemId: s.itemId, submittedAt: s.submittedAt?.toISOString() ?? null })) };
  }
  return { kind: "item", item, progress: await progressOf(), firstVisit: before.submitted === 0 && before.skipped === 0 && !item.assignment.draft };
}
