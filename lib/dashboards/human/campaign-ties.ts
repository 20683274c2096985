// The campaign page's "ties waiting for an adjudicator" (server only): items whose submitted labels
// tie for the most votes in a field the dashboards use — safety or helpfulness (by SCORE: the two
// score-1 safety labels agree), true failure, an emulator aspect — and that nobody adjudicated.
// An adjudication is the item's ground truth on every panel (lib/metrics/ground-truth.ts), so each
// listed item links to its adjudication page.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { parseLabelSchema } from "@/lib/trajectory/label-schema";
import { countedLabelSql } from "@/lib/annotation/quality/metric-scope";
import { EMULATOR_ASPECT_KEYS, TIE_FIELD_NAMES, type CampaignTies } from "./fields";
import { scoreCase } from "./sql";

export async function campaignTies(db: Db, campaignId: string, limit = 100): Promise<CampaignTies> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { labelSchema: true } });
  if (!campaign) return { total: 0, items: [] };
  const schema = parseLabelSchema(campaign.labelSchema);
  const keys = schema.fields.filter((f) => (f.kind === "choice" || f.kind === "boolean") && f.key in TIE_FIELD_NAMES).map((f) => f.key);
  if (!keys.length) return { total: 0, items: [] };
  // Per (item, field): one value per label — safety / helpfulness as their scores and, because the
  // binarized panels binarize before they vote, once more as "< 2" / "≥ 2"; the rest as given.
  const fields = keys.flatMap((key): { field: string; key: string; val: Prisma.Sql }[] =>
    key === "safety" || key === "helpfulness"
      ? [
          { field: key, key, val: Prisma.sql`(${scoreCase(schema, key)})::text` },
          { field: `${key}/binary`, key, val: Prisma.sql`(CASE WHEN ${scoreCase(schema, key)} >= 2 THEN '≥ 2' WHEN ${scoreCase(schema, key)} IS NOT NULL THEN '< 2' END)` },
        ]
      : [{ field: key, key, val: Prisma.sql`a."values"->>${key}::text` }],
  );
  const perField = fields.map(
    (f) => Prisma.sql`SELECT a."itemId" AS item, ${f.field}::text AS field, ${f.key}::text AS json_key, ${f.val} AS val FROM "Assignment" a WHERE a."campaignId" = ${campaignId} AND a.status = 'SUBMITTED' AND ${countedLabelSql("a")}`,
  );
  const rows = await db.$queryRaw<{ item: string; traj: string; case_name: string; fields: string[]; vals: string[]; total: number }[]>(Prisma.sql`
    WITH v AS (SELECT item, field, json_key, val, count(*) AS n FROM (${Prisma.join(perField, " UNION ALL ")}) x WHERE val IS NOT NULL GROUP BY 1, 2, 3, 4),
    top AS (SELECT item, field, max(n) AS m FROM v GROUP BY 1, 2),
    tied AS (
      SELECT v.item, v.field, v.json_key, string_agg(v.val, '|' ORDER BY v.val) AS vals
      FROM v JOIN top ON top.item = v.item AND top.field = v.field AND v.n = top.m
      GROUP BY 1, 2, 3 HAVING count(*) > 1),
    -- A field the item's adjudication decides is no tie (the panels read it the same way).
    items AS (
      SELECT t.item, array_agg(t.field ORDER BY t.field) AS fields, array_agg(t.vals ORDER BY t.field) AS vals
      FROM tied t WHERE NOT EXISTS (SELECT 1 FROM "Adjudication" ad WHERE ad."itemId" = t.item AND ad."values"->>t.json_key IS NOT NULL)
      GROUP BY t.item)
    SELECT i.item, ci."trajectoryId" AS traj, c.name AS case_name, i.fields, i.vals, (count(*) OVER ())::int AS total
    FROM items i JOIN "CampaignItem" ci ON ci.id = i.item JOIN "Trajectory" tr ON tr.id = ci."trajectoryId" JOIN "TestCase" c ON c.id = tr."caseId"
    ORDER BY regexp_replace(c.name, '[0-9]+$', ''), (substring(c.name from '([0-9]{1,18})$'))::bigint NULLS FIRST, c.name, i.item
    LIMIT ${limit}`);
  const order = [...Object.keys(TIE_FIELD_NAMES), ...EMULATOR_ASPECT_KEYS];
  return {
    total: rows[0]?.total ?? 0,
    items: rows.map((r) => ({
      itemId: r.item,
      trajectoryId: r.traj,
      caseName: r.case_name,
      fields: r.fields.map((field, i) => ({ field, values: r.vals[i]!.split("|") })).sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field)),
    })),
  };
}
