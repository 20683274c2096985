// Which submitted labels count for metrics and exports: not those of an annotator whose labels
// are excluded from the campaign (exclusion.ts), and not those on gold items (quality control,
// labelled by everyone, never part of the sample). Every agreement query narrows by this.
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";

/**
 * SQL condition on an "Assignment" row aliased `alias` (default a) of the campaign `campaignId`:
 * its excluded annotators and its gold items are each read once (hashed NOT IN: both columns are
 * NOT NULL), not probed per label — a correlated NOT EXISTS made the planner loop per row.
 */
export function countedLabelSql(campaignId: string, alias = "a"): Prisma.Sql {
  const a = Prisma.raw(`"${alias.replace(/"/g, "")}"`);
  return Prisma.sql`${a}."annotatorId" NOT IN (SELECT lx."annotatorId" FROM "LabelExclusion" lx WHERE lx."campaignId" = ${campaignId} AND lx."restoredAt" IS NULL)
    AND ${a}."itemId" NOT IN (SELECT gx."itemId" FROM "GoldAnswer" gx JOIN "CampaignItem" gi ON gi.id = gx."itemId" WHERE gi."campaignId" = ${campaignId})`;
}

/** The same, as a Prisma where clause on Assignment, for a campaign's excluded annotators. */
export async function countedLabelWhere(db: Db, campaignId: string) {
  const excluded = await db.labelExclusion.findMany({ where: { campaignId, restoredAt: null }, select: { annotatorId: true } });
  return { annotatorId: { notIn: excluded.map((x) => x.annotatorId) }, item: { gold: null } } as const;
}
