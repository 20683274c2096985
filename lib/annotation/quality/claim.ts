// The gold side of claiming (issue 18 #7), called by assignments.ts before it takes a real item:
//   * qualification round: an annotator's first q = min(qualificationItems, gold items) items are
//     gold items; when the last is submitted the round is decided (decideQualification); failing
//     it means no real items;
//   * afterwards, in the slots gold-slots.ts picks (seeded), the next unseen gold item instead
//     of a real one — only while real items remain, so gold never pads the end of the queue.
// Gold items are drawn in a seeded per-annotator order. Nothing here reaches the annotator: a gold
// item is claimed and shown exactly like a real one.
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { parseLabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";
import { goldMatch } from "./answers";
import { isGoldSlot } from "./gold-slots";

type Tx = Prisma.TransactionClient;

export interface QualityCampaign {
  id: string;
  seed: number;
  goldRate: number;
  qualificationItems: number;
}

export type GoldPick = { itemId: string; qualification: boolean } | "blocked" | null;

interface StateRow {
  pool: bigint;
  qualDone: bigint;
  slots: bigint;
  passed: boolean | null;
  nextGold: string | null;
}

/** The annotator's place in the round and the sequence, and their next unseen gold item. */
async function goldState(tx: Tx, c: QualityCampaign, userId: string): Promise<StateRow> {
  const [r] = await tx.$queryRaw<StateRow[]>`
    SELECT
      (SELECT count(*) FROM "GoldAnswer" g JOIN "CampaignItem" ci ON ci.id = g."itemId" WHERE ci."campaignId" = ${c.id}) AS pool,
      (SELECT count(*) FROM "Assignment" a WHERE a."campaignId" = ${c.id} AND a."annotatorId" = ${userId} AND a.qualification) AS "qualDone",
      (SELECT count(*) FROM "Assignment" a WHERE a."campaignId" = ${c.id} AND a."annotatorId" = ${userId} AND NOT a.qualification) AS slots,
      (SELECT q.passed FROM "QualificationResult" q WHERE q."campaignId" = ${c.id} AND q."annotatorId" = ${userId}) AS passed,
      (SELECT ci.id FROM "CampaignItem" ci JOIN "GoldAnswer" g ON g."itemId" = ci.id
        WHERE ci."campaignId" = ${c.id}
          AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = ci.id AND a."annotatorId" = ${userId})
        ORDER BY md5(${String(c.seed)} || ':gold:' || ${userId} || ':' || ci.id) LIMIT 1) AS "nextGold"`;
  return r!;
}

/** How many qualification items this campaign asks of everyone (0 = no round). */
export const roundSize = (qualificationItems: number, pool: number) => Math.min(qualificationItems, pool);

/**
 * The gold item to claim now, "blocked" when the annotator failed the qualification round, or
 * null to claim a real item. `realLeft`: a real item is free for this annotator.
 */
export async function pickGold(tx: Tx, c: QualityCampaign, userId: string, realLeft: boolean): Promise<GoldPick> {
  if (c.goldRate <= 0 && c.qualificationItems <= 0) return null;
  const s = await goldState(tx, c, userId);
  if (s.passed === false) return "blocked";
  const q = roundSize(c.qualificationItems, Number(s.pool));
  // The round comes before real items; someone who already labelled real items is not asked.
  if (q > 0 && s.passed === null && Number(s.slots) === 0) {
    if (Number(s.qualDone) < q && s.nextGold) return { itemId: s.nextGold, qualification: true };
    const passed = await decideQualification(tx, c.id, userId);
    if (passed === false) return "blocked";
  }
  if (realLeft && s.nextGold && isGoldSlot(c.seed, userId, Number(s.slots), c.goldRate)) return { itemId: s.nextGold, qualification: false };
  return null;
}

/**
 * Decides the round once all its items are submitted: the share of compared answers that match
 * the gold against the campaign's pass mark. Returns the result, or null while items remain.
 */
export async function decideQualification(tx: Tx, campaignId: string, userId: string): Promise<boolean | null> {
  const existing = await tx.qualificationResult.findUnique({ where: { campaignId_annotatorId: { campaignId, annotatorId: userId } }, select: { passed: true } });
  if (existing) return existing.passed;
  const campaign = await tx.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { labelSchema: true, qualificationItems: true, qualificationPass: true } });
  const pool = await tx.goldAnswer.count({ where: { item: { campaignId } } });
  const q = roundSize(campaign.qualificationItems, pool);
  const done = await tx.assignment.findMany({
    where: { campaignId, annotatorId: userId, qualification: true, status: "SUBMITTED" },
    select: { values: true, item: { select: { gold: { select: { values: true } } } } },
  });
  if (q === 0 || done.length < q) return null;
  const schema = parseLabelSchema(campaign.labelSchema);
  let matched = 0;
  let compared = 0;
  for (const d of done) {
    if (!d.item.gold) continue;
    const m = goldMatch(schema, (d.values as LabelValues) ?? {}, d.item.gold.values as LabelValues);
    matched += m.matched;
    compared += m.compared;
  }
  const score = compared ? matched / compared : 0;
  const passed = score >= campaign.qualificationPass;
  await tx.qualificationResult.create({ data: { campaignId, annotatorId: userId, passed, score, items: done.length } });
  await recordAudit(tx, { actorId: userId, action: passed ? "annotator.qualify" : "annotator.disqualify", entityType: "Campaign", entityId: campaignId, after: { annotatorId: userId, score, items: done.length, pass: campaign.qualificationPass } });
  return passed;
}

export interface QualificationState {
  /** Items in the round (0 = no round for this annotator). */
  size: number;
  /** Round items submitted so far. */
  done: number;
  result: { passed: boolean; score: number; items: number; pass: number } | null;
}

/** What the annotate screen says about the round (never which items are gold outside it). */
export async function qualificationState(db: Tx | Db, campaignId: string, userId: string): Promise<QualificationState> {
  const [campaign, pool, done, slots, result] = await Promise.all([
    db.campaign.findUnique({ where: { id: campaignId }, select: { qualificationItems: true, qualificationPass: true } }),
    db.goldAnswer.count({ where: { item: { campaignId } } }),
    db.assignment.count({ where: { campaignId, annotatorId: userId, qualification: true, status: "SUBMITTED" } }),
    db.assignment.count({ where: { campaignId, annotatorId: userId, qualification: false } }),
    db.qualificationResult.findUnique({ where: { campaignId_annotatorId: { campaignId, annotatorId: userId } } }),
  ]);
  const size = campaign && (result || slots === 0) ? roundSize(campaign.qualificationItems, pool) : 0;
  return { size, done, result: result && campaign ? { passed: result.passed, score: result.score, items: result.items, pass: campaign.qualificationPass } : null };
}
