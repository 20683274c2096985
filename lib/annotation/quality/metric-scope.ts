// Which submitted labels count for metrics and exports: not those of an annotator whose labels
// are excluded from the campaign (exclusion.ts), and not those on gold items (quality control,
// labelled by everyone, never part of the sample). Every agreement query narrows by this.
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";

/** SQL condition on an "Assignment" row aliased `alias` (default a). */
export function countedLabelSql(alias = "a"): Prisma.Sql {
  const a = Prisma.raw(`"${alias.replace(/"/g, "")}"`);
  return Prisma.sql`NOT EXISTS (SELECT 1 FROM "LabelExclusion" lx WHERE lx."campaignId" = ${a}."campaignId" AND lx."annotatorId" = ${a}."annotatorId" AND lx."restoredAt" IS NULL)
    AND NOT EXISTS (SELECT 1 FROM "GoldAnswer" gx WHERE gx."itemId" = ${a}."itemId")`;
}

/** The same, as a Prisma where clause on Assignment, for a campaign's excluded annotators. */
export async function countedLabelWhere(db: Db, campaignId: string) {
  const excluded = await db.labelExclusion.findMany({ where: { campaignId, restoredAt: null }, select: { annotatorId: true } });
  return { annotatorId: { notIn: excluded.map((x) => x.annotatorId) }, item: { gold: null } } as const;
}
