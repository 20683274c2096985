// Gold items (issue 18 #7): a trajectory with a known answer, added to a campaign as an item like
// any other (same opaque id format, same blinded view) plus a GoldAnswer row that only staff see.
// The answer comes from an adjudication in another campaign (copied, with where it came from)
// or from staff filling in the campaign's form.
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseLabelSchema, stepAnswerProblems, valuesValidator, type LabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";

/** The same format as campaigns.ts gives real items, so an id never tells gold from real. */
function newItemId(): string {
  return `it_${randomBytes(12).toString("base64url")}`;
}

/** The values checked against the campaign's form, or an AppError naming the problem. */
function checkedValues(schema: LabelSchema, values: LabelValues, stepCount: number): LabelValues {
  const parsed = valuesValidator(schema, { partial: false }).safeParse(values);
  if (!parsed.success) throw new AppError(parsed.error.issues.map((i) => i.message).join(" "), 400);
  const steps = stepAnswerProblems(schema, parsed.data as LabelValues, stepCount, { partial: false });
  if (steps.length) throw new AppError(steps.join(" "), 400);
  return parsed.data as LabelValues;
}

async function addGold(db: Db, actorId: string, campaignId: string, trajectoryId: string, values: LabelValues, source: { kind: "adjudication" | "form"; itemId?: string }) {
  return db.$transaction(async (tx) => {
    const campaign = await tx.campaign.findUnique({ where: { id: campaignId }, select: { labelSchema: true, status: true } });
    if (!campaign) throw new AppError("No such campaign.", 404);
    if (campaign.status === "LOCKED") throw new AppError("This campaign is locked.", 409);
    const trajectory = await tx.trajectory.findUnique({ where: { id: trajectoryId }, select: { stepCount: true } });
    if (!trajectory) throw new AppError("No such trajectory.", 404);
    if (await tx.campaignItem.findFirst({ where: { campaignId, trajectoryId }, select: { id: true } })) {
      throw new AppError("This trajectory is already an item of this campaign; a gold item must be new to the annotators.", 409);
    }
    const clean = checkedValues(parseLabelSchema(campaign.labelSchema), values, trajectory.stepCount);
    const id = newItemId();
    await tx.campaignItem.create({ data: { id, campaignId, trajectoryId } });
    await tx.goldAnswer.create({ data: { itemId: id, values: clean as Prisma.InputJsonValue, source: source.kind, sourceItemId: source.itemId ?? null, createdById: actorId } });
    await recordAudit(tx, { actorId, action: "gold.add", entityType: "CampaignItem", entityId: id, after: { campaignId, trajectoryId, values: clean, source: source.kind, sourceItemId: source.itemId ?? null } });
    return { itemId: id };
  });
}

/** A gold item whose answer is the adjudicated label of an item of another campaign. */
export async function addGoldFromAdjudication(db: Db, actorId: string, campaignId: string, sourceItemId: string) {
  const adj = await db.adjudication.findUnique({ where: { itemId: sourceItemId }, select: { values: true, item: { select: { campaignId: true, trajectoryId: true } } } });
  if (!adj) throw new AppError("That item has no adjudication.", 404);
  if (!adj.item.trajectoryId) throw new AppError("Only trajectory items can be gold items.", 400);
  return addGold(db, actorId, campaignId, adj.item.trajectoryId, adj.values as LabelValues, { kind: "adjudication", itemId: sourceItemId });
}

/** A gold item whose answer staff enter with the campaign's form. */
export async function addGoldByForm(db: Db, actorId: string, campaignId: string, trajectoryId: string, values: LabelValues) {
  return addGold(db, actorId, campaignId, trajectoryId, values, { kind: "form" });
}

/** Takes a gold item out again, only while nobody has opened it (labels are never deleted). */
export async function removeGold(db: Db, actorId: string, campaignId: string, itemId: string) {
  return db.$transaction(async (tx) => {
    const item = await tx.campaignItem.findFirst({ where: { id: itemId, campaignId }, select: { trajectoryId: true, gold: true, _count: { select: { assignments: true } } } });
    if (!item?.gold) throw new AppError("No such gold item in this campaign.", 404);
    if (item._count.assignments > 0) throw new AppError("Annotators have opened this gold item; it stays so their answers keep their meaning.", 409);
    await tx.campaignItem.delete({ where: { id: itemId } });
    await recordAudit(tx, { actorId, action: "gold.remove", entityType: "CampaignItem", entityId: itemId, before: { campaignId, trajectoryId: item.trajectoryId, values: item.gold.values } });
    return { removed: true };
  });
}

export interface GoldCandidate {
  sourceItemId: string;
  campaignName: string;
  trajectoryId: string;
  caseName: string;
  values: LabelValues;
  /** Why it cannot be used here, if it cannot. */
  problem: string | null;
}

/** Adjudicated items of other campaigns that could become gold items of this one (newest first). */
export async function goldCandidates(db: Db, campaignId: string, limit = 200): Promise<GoldCandidate[]> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { labelSchema: true } });
  if (!campaign) throw new AppError("No such campaign.", 404);
  const schema = parseLabelSchema(campaign.labelSchema);
  const here = new Set((await db.campaignItem.findMany({ where: { campaignId }, select: { trajectoryId: true } })).map((i) => i.trajectoryId));
  const rows = await db.adjudication.findMany({
    where: { item: { campaignId: { not: campaignId } } },
    orderBy: { updatedAt: "desc" },
    take: limit,
    select: { itemId: true, values: true, item: { select: { campaign: { select: { name: true } }, trajectory: { select: { id: true, stepCount: true, case: { select: { name: true } } } } } } },
  });
  return rows.flatMap((r) => {
    const t = r.item.trajectory;
    if (!t) return [];
    let problem: string | null = here.has(t.id) ? "already an item of this campaign" : null;
    if (!problem) {
      try {
        checkedValues(schema, r.values as LabelValues, t.stepCount);
      } catch (e) {
        problem = `its label does not fit this campaign's form (${e instanceof Error ? e.message : "invalid"})`;
      }
    }
    return [{ sourceItemId: r.itemId, campaignName: r.item.campaign.name, trajectoryId: t.id, caseName: t.case?.name ?? "", values: r.values as LabelValues, problem }];
  });
}

export interface GoldItemRow {
  itemId: string;
  trajectoryId: string;
  caseName: string;
  values: LabelValues;
  source: string;
  sourceItemId: string | null;
  createdAt: Date;
  labels: number;
  opened: number;
}

/** The campaign's gold items, with how many answers they have. */
export async function listGold(db: Db, campaignId: string): Promise<GoldItemRow[]> {
  const rows = await db.goldAnswer.findMany({
    where: { item: { campaignId } },
    orderBy: { createdAt: "asc" },
    select: {
      itemId: true, values: true, source: true, sourceItemId: true, createdAt: true,
      item: { select: { trajectoryId: true, trajectory: { select: { case: { select: { name: true } } } }, assignments: { select: { status: true } } } },
    },
  });
  return rows.map((r) => ({
    itemId: r.itemId,
    trajectoryId: r.item.trajectoryId ?? "",
    caseName: r.item.trajectory?.case?.name ?? "",
    values: r.values as LabelValues,
    source: r.source,
    sourceItemId: r.sourceItemId,
    createdAt: r.createdAt,
    labels: r.item.assignments.filter((a) => a.status === "SUBMITTED").length,
    opened: r.item.assignments.length,
  }));
}
