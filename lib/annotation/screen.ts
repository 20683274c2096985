// What the annotation page loads: the annotator's current item (claimed if needed) or the
// revision of one they already submitted, with their progress and their finished items (for
// "previous item" and the list with content hints, my-items.ts). Blinded throughout.
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { claimNextItem } from "./assignments";
import { loadBlindedItem, type BlindedItem } from "./blinded";
import { listMyFinishedItems, submitNotice, type FinishedItem, type SubmitResult } from "./my-items";
import { listMyCampaigns, type MyCampaign } from "./queries";

export type AnnotationScreen =
  | { kind: "item"; item: BlindedItem; progress: MyCampaign; firstVisit: boolean; finished: FinishedItem[] }
  | { kind: "done"; progress: MyCampaign; finished: FinishedItem[] };

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
    return { kind: "item", item, progress: before, firstVisit: false, finished: await listMyFinishedItems(db, userId, campaignId) };
  }
  const item = before.locked ? null : await claimNextItem(db, campaignId, userId);
  const finished = await listMyFinishedItems(db, userId, campaignId);
  if (!item) return { kind: "done", progress: before, finished };
  return { kind: "item", item, progress: await progressOf(), firstVisit: before.submitted === 0 && before.skipped === 0 && !item.assignment.draft, finished };
}

/** The confirmation shown after a submit (`?after=<assignment>&result=<submitted|revised|unchanged>`), if it is the user's own. */
export async function loadSubmitNotice(db: Db, userId: string, campaignId: string, after?: string, result?: string): Promise<{ result: SubmitResult; hint: string; position: number } | null> {
  if (!after || !result) return null;
  return submitNotice(db, userId, campaignId, after, result);
}
