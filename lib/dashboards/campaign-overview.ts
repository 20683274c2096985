// The campaign page's overview parts (server only): each member's progress, the totals and one
// page of items by disagreement — the same numbers and rows as campaignOverview
// (lib/annotation/queries.ts), read for a campaign of 100,000 items × 3 labels in a fraction of
// the time (issue 19 #4, the page's first view). ./campaign-page.ts puts them together.
//
//   campaignItemsPageFast(db, id, k, opts)  → CampaignItemsPage (the totals and one page of items)
//   campaignProgress(db, id, memberIds)     → per member: submitted, claimed, skipped
//   campaignVersionProbe(id)                → Prisma.Sql, the campaign's version counter
//
// Items by disagreement: the totals need only each item's label count and safety spread (one pass
// over the items and their vote vectors, "ItemVote"); the case names — a join of every item with
// its trajectory and case — are read only for the spread levels (3, 2, 1, 0, none) the asked page
// falls in, and the page is cut from those in the same order (spread, case name, item id).
//
// Progress: the SUBMITTED count of each annotator is the number of its label-vote rows
// ("LabelVote": one row per submitted label, kept by the database in the writing transaction,
// lib/dashboards/human/votes.ts), kept per campaign version — the counter the database bumps with
// every change of what is submitted (./human/cache.ts) — so neither a warm load nor an annotator
// claiming an item reads the campaign's labels. CLAIMED and SKIPPED, which no counter watches, are
// read live: one index probe per member and status ("Assignment" (campaignId, annotatorId, status)).
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { CAMPAIGN_ITEMS_PAGE_SIZE, itemsPageFromRows, type CampaignItemsPage, type ItemsPageRow } from "@/lib/annotation/queries";
import { cached } from "./human/cache";

/** The campaign's data version: its counter (0 before the first write). One index probe. */
export function campaignVersionProbe(campaignId: string): Prisma.Sql {
  return Prisma.sql`SELECT COALESCE((SELECT dv.version FROM "DashboardVersion" dv WHERE dv.key = ${`campaign:${campaignId}`}), 0)::text AS v`;
}

export interface AnnotatorProgressCounts {
  submitted: number;
  claimed: number;
  skipped: number;
}

/** Submitted labels per annotator of the campaign (members or not), kept per campaign version. */
async function submittedByAnnotator(db: Db, campaignId: string): Promise<Map<string, number>> {
  const { rows } = await cached(db, JSON.stringify(["campaignSubmittedByAnnotator", campaignId]), campaignVersionProbe(campaignId), async () => ({
    rows: await db.$queryRaw<{ annotator: string; n: number }[]>`
      SELECT lv."annotatorId" AS annotator, count(*)::int AS n FROM "LabelVote" lv WHERE lv."campaignId" = ${campaignId} GROUP BY lv."annotatorId"`,
  }));
  return new Map(rows.map((r) => [r.annotator, r.n]));
}

/** Each member's submitted (kept per version), claimed and skipped (live) assignments. */
export async function campaignProgress(db: Db, campaignId: string, memberIds: readonly string[]): Promise<Map<string, AnnotatorProgressCounts>> {
  const [submitted, open] = await Promise.all([
    submittedByAnnotator(db, campaignId),
    memberIds.length
      ? db.$queryRaw<{ annotator: string; claimed: number; skipped: number }[]>`
          SELECT m.id AS annotator,
                 (SELECT count(*) FROM "Assignment" a WHERE a."campaignId" = ${campaignId} AND a."annotatorId" = m.id AND a.status = 'CLAIMED')::int AS claimed,
                 (SELECT count(*) FROM "Assignment" a WHERE a."campaignId" = ${campaignId} AND a."annotatorId" = m.id AND a.status = 'SKIPPED')::int AS skipped
          FROM unnest(${[...new Set(memberIds)]}::text[]) m(id)`
      : Promise.resolve([]),
  ]);
  const openOf = new Map(open.map((r) => [r.annotator, r]));
  return new Map(memberIds.map((id) => [id, { submitted: submitted.get(id) ?? 0, claimed: openOf.get(id)?.claimed ?? 0, skipped: openOf.get(id)?.skipped ?? 0 }]));
}

/**
 * The campaign's totals and one page of its items by disagreement: campaignItemsPage's numbers and
 * rows (lib/annotation/queries.ts), with the case names read only for the page's spread levels.
 */
export async function campaignItemsPageFast(db: Db, campaignId: string, k: number, opts: { page?: number; pageSize?: number } = {}): Promise<CampaignItemsPage> {
  const pageSize = Math.max(1, Math.floor(opts.pageSize ?? CAMPAIGN_ITEMS_PAGE_SIZE));
  const wanted = Math.max(1, Math.floor(opts.page ?? 1));
  const slot = (i: number) => Prisma.raw(`((d.sh >> ${5 * i}) & 31)`);
  const present = [0, 1, 2, 3].map((i) => Prisma.sql`CASE WHEN ${slot(i)} > 0 THEN ${Prisma.raw(String(i))} END`);
  // Gold items stay out (a hashed list: a campaign has a few). Spread -1 stands for "none" where
  // levels are matched (a spread is 0–3).
  const query = (page: number) => {
    const offset = (page - 1) * pageSize;
    return db.$queryRaw<ItemsPageRow[]>`
    WITH ex AS MATERIALIZED (SELECT EXISTS (SELECT 1 FROM "LabelExclusion" lx WHERE lx."campaignId" = ${campaignId} AND lx."restoredAt" IS NULL) AS excluded),
    gold AS MATERIALIZED (SELECT g."itemId" AS id FROM "GoldAnswer" g JOIN "CampaignItem" gi ON gi.id = g."itemId" WHERE gi."campaignId" = ${campaignId}),
    fast AS (
      SELECT ci.id, ci."trajectoryId", ci."scenarioId", COALESCE(iv.n, 0) AS labels, COALESCE(iv.sh, 0) AS sh
      FROM "CampaignItem" ci LEFT JOIN "ItemVote" iv ON iv."itemId" = ci.id
      WHERE ci."campaignId" = ${campaignId} AND ci.id NOT IN (SELECT id FROM gold) AND NOT (SELECT excluded FROM ex)),
    spreads AS MATERIALIZED (
      SELECT d.sh, CASE WHEN ${Prisma.join([0, 1, 2, 3].map(slot), " + ")} >= 2 THEN GREATEST(${Prisma.join(present)}) - LEAST(${Prisma.join(present)}) END AS spread
      FROM (SELECT DISTINCT sh FROM fast) d),
    per AS MATERIALIZED (
      SELECT fast.id, fast."trajectoryId", fast."scenarioId", fast.labels::int AS labels, spreads.spread::int AS spread FROM fast JOIN spreads ON spreads.sh = fast.sh
      UNION ALL
      SELECT ci.id, ci."trajectoryId", ci."scenarioId", count(v."assignmentId")::int AS labels,
             CASE WHEN count(v.s) >= 2 THEN (max(v.s) - min(v.s))::int END AS spread
      FROM "CampaignItem" ci LEFT JOIN "LabelVote" v ON v."itemId" = ci.id
      WHERE ci."campaignId" = ${campaignId} AND ci.id NOT IN (SELECT id FROM gold) AND (SELECT excluded FROM ex)
      GROUP BY ci.id),
    tot AS (
      SELECT count(*)::int AS items, COALESCE(sum(labels), 0)::int AS label_total, (count(*) FILTER (WHERE labels >= ${k}))::int AS complete,
             (count(*) FILTER (WHERE spread > 0))::int AS disagreements,
             (count(*) FILTER (WHERE per.id IN (SELECT ad."itemId" FROM "Adjudication" ad)))::int AS adjudicated
      FROM per),
    -- The spread levels in page order, where each starts, and those the page overlaps.
    lv AS (SELECT COALESCE(per.spread, -1) AS lvl, count(*)::int AS c FROM per GROUP BY 1),
    at AS (SELECT lvl, c, (sum(c) OVER (ORDER BY lvl DESC ROWS UNBOUNDED PRECEDING) - c)::int AS start FROM lv),
    want AS MATERIALIZED (SELECT lvl, start FROM at WHERE at.start < ${offset + pageSize} AND at.start + at.c > ${offset}),
    named AS (
      SELECT per.*, t."agentModel" AS agent, t."emulatorMode"::text AS mode,
             -- A scenario item has no trajectory: its scenario's instance id stands for the case.
             COALESCE(tc.name, ts."instanceId", s."instanceId", '') AS case_name
      FROM per
      JOIN want ON want.lvl = COALESCE(per.spread, -1)
      LEFT JOIN "Trajectory" t ON t.id = per."trajectoryId"
      LEFT JOIN "TestCase" tc ON tc.id = t."caseId"
      LEFT JOIN "SageScenario" ts ON ts.id = t."scenarioId"
      LEFT JOIN "SageScenario" s ON s.id = per."scenarioId")
    SELECT tot.*, p.id AS item, p.labels, p.spread, p."trajectoryId" AS traj, p.case_name, p.agent, p.mode
    FROM tot LEFT JOIN LATERAL (
      SELECT * FROM named ORDER BY spread DESC NULLS LAST, case_name, id
      LIMIT ${pageSize} OFFSET (SELECT ${offset}::int - COALESCE(min(want.start), 0) FROM want)) p ON true`;
  };
  let rows = await query(wanted);
  const pageCount = Math.max(1, Math.ceil(rows[0]!.items / pageSize));
  // A page past the end shows the last one.
  const page = Math.min(wanted, pageCount);
  if (page !== wanted) rows = await query(page);
  return itemsPageFromRows(db, rows, { page, pageSize, pageCount }, k);
}

