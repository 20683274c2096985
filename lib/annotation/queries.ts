// Read models for the annotation screens and the campaign pages.
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { parseLabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";

export interface MyCampaign {
  id: string;
  name: string;
  locked: boolean;
  items: number;
  k: number;
  submitted: number;
  skipped: number;
  /** Items × k ÷ invited annotators: the share one person is expected to label. */
  expected: number;
  /** Items this person could still claim. */
  available: number;
}

/** Campaigns the user is invited to, with their own progress. No trajectory data. */
export async function listMyCampaigns(db: Db, userId: string, now = new Date()): Promise<MyCampaign[]> {
  const rows = await db.$queryRaw<{ id: string; name: string; status: string; k: number; items: bigint; members: bigint; submitted: bigint; skipped: bigint; available: bigint }[]>`
    SELECT c.id, c.name, c.status::text AS status, c.k,
      -- Gold items (quality/) are not counted: they are never shown as such.
      (SELECT count(*) FROM "CampaignItem" ci WHERE ci."campaignId" = c.id AND NOT EXISTS (SELECT 1 FROM "GoldAnswer" g WHERE g."itemId" = ci.id)) AS items,
      (SELECT count(*) FROM "CampaignMember" cm WHERE cm."campaignId" = c.id) AS members,
      (SELECT count(*) FROM "Assignment" a WHERE a."campaignId" = c.id AND a."annotatorId" = ${userId} AND a.status = 'SUBMITTED') AS submitted,
      (SELECT count(*) FROM "Assignment" a WHERE a."campaignId" = c.id AND a."annotatorId" = ${userId} AND a.status = 'SKIPPED') AS skipped,
      (SELECT count(*) FROM "CampaignItem" ci WHERE ci."campaignId" = c.id
         AND NOT EXISTS (SELECT 1 FROM "GoldAnswer" g WHERE g."itemId" = ci.id)
         AND NOT EXISTS (SELECT 1 FROM "QualificationResult" q WHERE q."campaignId" = c.id AND q."annotatorId" = ${userId} AND NOT q.passed)
         AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = ci.id AND a."annotatorId" = ${userId})
         AND (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = ci.id AND (a.status = 'SUBMITTED' OR (a.status = 'CLAIMED' AND a."leaseUntil" > ${now}))) < c.k) AS available
    FROM "Campaign" c JOIN "CampaignMember" m ON m."campaignId" = c.id AND m."userId" = ${userId}
    ORDER BY c."createdAt" DESC`;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    locked: r.status === "LOCKED",
    k: r.k,
    items: Number(r.items),
    submitted: Number(r.submitted),
    skipped: Number(r.skipped),
    expected: Math.ceil((Number(r.items) * r.k) / Math.max(1, Number(r.members))),
    available: Number(r.available),
  }));
}

export async function listCampaigns(db: Db) {
  const campaigns = await db.campaign.findMany({
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, status: true, k: true, createdAt: true, createdBy: { select: { name: true } }, _count: { select: { items: true, members: true } } },
  });
  const submitted = await db.assignment.groupBy({ by: ["campaignId"], where: { status: "SUBMITTED" }, _count: { _all: true } });
  const done = new Map(submitted.map((s) => [s.campaignId, s._count._all]));
  return campaigns.map((c) => ({
    id: c.id,
    name: c.name,
    locked: c.status === "LOCKED",
    k: c.k,
    createdAt: c.createdAt,
    createdBy: c.createdBy?.name ?? "—",
    items: c._count.items,
    annotators: c._count.members,
    labels: done.get(c.id) ?? 0,
    needed: c._count.items * c.k,
  }));
}

export interface ItemLabels {
  itemId: string;
  trajectoryId: string;
  caseName: string;
  agentModel: string;
  emulatorMode: string;
  labels: { assignmentId: string; annotatorId: string; annotator: string; values: LabelValues; submittedAt: Date | null; timeSpentMs: number }[];
  safetySpread: number | null;
  adjudication: { values: LabelValues; reason: string; adjudicator: string | null; at: Date } | null;
}

/** Items per page of the campaign page's "items by disagreement". */
export const CAMPAIGN_ITEMS_PAGE_SIZE = 50;

/**
 * What the campaign page shows above its numbers: the campaign's settings, its parsed form and its
 * members (both the page's query and campaignOverview read it here). 404 for an unknown campaign.
 */
export async function campaignHeader(db: Db, campaignId: string) {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: {
      id: true, name: true, guidelines: true, status: true, k: true, seed: true, pseudonymize: true, includeOffline: true, redactModelNames: true, labelSchema: true, createdAt: true,
      members: { select: { user: { select: { id: true, name: true, email: true } } } },
    },
  });
  if (!campaign) throw new AppError("No such campaign.", 404);
  return { ...campaign, schema: parseLabelSchema(campaign.labelSchema), locked: campaign.status === "LOCKED" };
}

/**
 * Unblinded: for researchers and PIs. The campaign, each member's progress, the totals, and one
 * page of its items sorted by the spread of their safety scores (largest first, then case name).
 *
 * Set-based: the totals and the order are one statement over the per-label safety scores the
 * database keeps (LabelVote.s, one row per SUBMITTED label, scored by the campaign's form), so a
 * campaign of 100,000 items × 3 labels costs one aggregate, not its labels in memory; only the
 * page's items' labels are read.
 */
export async function campaignOverview(
  db: Db,
  campaignId: string,
  opts: { page?: number; pageSize?: number; itemsPage?: (db: Db, campaignId: string, k: number, opts: { page?: number; pageSize?: number }) => Promise<CampaignItemsPage> } = {},
) {
  const campaign = await campaignHeader(db, campaignId);
  const [{ items, page, totals }, perAnnotator] = await Promise.all([
    (opts.itemsPage ?? campaignItemsPage)(db, campaignId, campaign.k, opts),
    db.assignment.groupBy({ by: ["annotatorId", "status"], where: { campaignId }, _count: { _all: true } }),
  ]);
  const progress = campaign.members.map(({ user }) => {
    const count = (status: string) => perAnnotator.find((p) => p.annotatorId === user.id && p.status === status)?._count._all ?? 0;
    return { userId: user.id, name: user.name, email: user.email, submitted: count("SUBMITTED"), claimed: count("CLAIMED"), skipped: count("SKIPPED") };
  });
  return { campaign, progress, items, page, totals };
}

export interface CampaignItemsPage {
  items: ItemLabels[];
  page: { page: number; pageSize: number; pageCount: number };
  totals: { items: number; labelsNeeded: number; labelsSubmitted: number; complete: number; disagreements: number; adjudicated: number };
}

/**
 * The campaign's totals and one page of its items by disagreement (see campaignOverview). Depends
 * only on the submitted labels, adjudications and gold answers: the campaign's version counter.
 */
export async function campaignItemsPage(db: Db, campaignId: string, k: number, opts: { page?: number; pageSize?: number } = {}): Promise<CampaignItemsPage> {
  const pageSize = Math.max(1, Math.floor(opts.pageSize ?? CAMPAIGN_ITEMS_PAGE_SIZE));
  const wanted = Math.max(1, Math.floor(opts.page ?? 1));
  // Gold items live on the quality page, outside the campaign's items and totals. The spread is
  // null with fewer than two safety scores (sorted last). Labels and spread count every submitted
  // label: while no annotator's labels are excluded, that is the item's vote vector the database
  // keeps ("ItemVote": n, safety slots 0–3 of sh, lib/dashboards/human/votes.ts), read in one pass
  // with the spread worked out once per distinct vector; otherwise the labels' votes ("LabelVote").
  const slot = (i: number) => Prisma.raw(`((d.sh >> ${5 * i}) & 31)`);
  const present = [0, 1, 2, 3].map((i) => Prisma.sql`CASE WHEN ${slot(i)} > 0 THEN ${Prisma.raw(String(i))} END`);
  const query = (page: number) => db.$queryRaw<ItemsPageRow[]>`
    WITH ex AS MATERIALIZED (SELECT EXISTS (SELECT 1 FROM "LabelExclusion" lx WHERE lx."campaignId" = ${campaignId} AND lx."restoredAt" IS NULL) AS excluded),
    fast AS (
      SELECT ci.id, ci."trajectoryId", ci."scenarioId", COALESCE(iv.n, 0) AS labels, COALESCE(iv.sh, 0) AS sh
      FROM "CampaignItem" ci LEFT JOIN "ItemVote" iv ON iv."itemId" = ci.id
      WHERE ci."campaignId" = ${campaignId} AND NOT EXISTS (SELECT 1 FROM "GoldAnswer" g WHERE g."itemId" = ci.id) AND NOT (SELECT excluded FROM ex)),
    spreads AS MATERIALIZED (
      SELECT d.sh, CASE WHEN ${Prisma.join([0, 1, 2, 3].map(slot), " + ")} >= 2 THEN GREATEST(${Prisma.join(present)}) - LEAST(${Prisma.join(present)}) END AS spread
      FROM (SELECT DISTINCT sh FROM fast) d),
    per AS (
      SELECT fast.id, fast."trajectoryId", fast."scenarioId", fast.labels::int AS labels, spreads.spread::int AS spread FROM fast JOIN spreads ON spreads.sh = fast.sh
      UNION ALL
      SELECT ci.id, ci."trajectoryId", ci."scenarioId", count(v."assignmentId")::int AS labels,
             CASE WHEN count(v.s) >= 2 THEN (max(v.s) - min(v.s))::int END AS spread
      FROM "CampaignItem" ci LEFT JOIN "LabelVote" v ON v."itemId" = ci.id
      WHERE ci."campaignId" = ${campaignId} AND NOT EXISTS (SELECT 1 FROM "GoldAnswer" g WHERE g."itemId" = ci.id) AND (SELECT excluded FROM ex)
      GROUP BY ci.id),
    named AS (
      SELECT per.*, t."agentModel" AS agent, t."emulatorMode"::text AS mode,
             -- A scenario item has no trajectory: its scenario's instance id stands for the case.
             COALESCE(tc.name, ts."instanceId", s."instanceId", '') AS case_name,
             EXISTS (SELECT 1 FROM "Adjudication" ad WHERE ad."itemId" = per.id) AS adjudicated
      FROM per
      LEFT JOIN "Trajectory" t ON t.id = per."trajectoryId"
      LEFT JOIN "TestCase" tc ON tc.id = t."caseId"
      LEFT JOIN "SageScenario" ts ON ts.id = t."scenarioId"
      LEFT JOIN "SageScenario" s ON s.id = per."scenarioId"),
    tot AS (
      SELECT count(*)::int AS items, COALESCE(sum(labels), 0)::int AS label_total, (count(*) FILTER (WHERE labels >= ${k}))::int AS complete,
             (count(*) FILTER (WHERE spread > 0))::int AS disagreements, (count(*) FILTER (WHERE adjudicated))::int AS adjudicated
      FROM named)
    SELECT tot.*, p.id AS item, p.labels, p.spread, p."trajectoryId" AS traj, p.case_name, p.agent, p.mode
    FROM tot LEFT JOIN LATERAL (
      SELECT * FROM named ORDER BY spread DESC NULLS LAST, case_name, id LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}) p ON true`;
  let rows = await query(wanted);
  const pageCount = Math.max(1, Math.ceil(rows[0]!.items / pageSize));
  // A page past the end shows the last one.
  const page = Math.min(wanted, pageCount);
  if (page !== wanted) rows = await query(page);
  return itemsPageFromRows(db, rows, { page, pageSize, pageCount }, k);
}

/** One row of a campaign items query: the campaign's totals beside one item of the page (or none). */
export type ItemsPageRow = { items: number; label_total: number; complete: number; disagreements: number; adjudicated: number } & {
  item: string | null; labels: number | null; spread: number | null; traj: string | null; case_name: string | null; agent: string | null; mode: string | null;
};

/** A page of items from its query's rows: their submitted labels and adjudications, and the totals. */
export async function itemsPageFromRows(db: Db, rows: ItemsPageRow[], pageInfo: CampaignItemsPage["page"], k: number): Promise<CampaignItemsPage> {
  const totalsRow = rows[0]!;
  const shown = rows.filter((r): r is ItemsPageRow & { item: string } => r.item !== null);
  const ids = shown.map((r) => r.item);
  const [labels, adjudications] = await Promise.all([
    db.assignment.findMany({
      where: { itemId: { in: ids }, status: "SUBMITTED" },
      orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
      select: { id: true, itemId: true, annotatorId: true, values: true, submittedAt: true, timeSpentMs: true, annotator: { select: { name: true } } },
    }),
    db.adjudication.findMany({ where: { itemId: { in: ids } }, select: { itemId: true, values: true, reason: true, createdAt: true, adjudicator: { select: { name: true } } } }),
  ]);
  const adjudicationOf = new Map(adjudications.map((a) => [a.itemId, a]));
  const items: ItemLabels[] = shown.map((r) => {
    const adj = adjudicationOf.get(r.item);
    return {
      itemId: r.item,
      trajectoryId: r.traj ?? "",
      caseName: r.case_name ?? "",
      agentModel: r.agent ?? "",
      emulatorMode: r.mode ?? "",
      labels: labels
        .filter((a) => a.itemId === r.item)
        .map((a) => ({ assignmentId: a.id, annotatorId: a.annotatorId, annotator: a.annotator.name, values: (a.values as LabelValues) ?? {}, submittedAt: a.submittedAt, timeSpentMs: a.timeSpentMs })),
      safetySpread: r.spread,
      adjudication: adj ? { values: adj.values as LabelValues, reason: adj.reason, adjudicator: adj.adjudicator?.name ?? null, at: adj.createdAt } : null,
    };
  });
  return {
    items,
    page: pageInfo,
    totals: {
      items: totalsRow.items,
      labelsNeeded: totalsRow.items * k,
      labelsSubmitted: totalsRow.label_total,
      complete: totalsRow.complete,
      disagreements: totalsRow.disagreements,
      adjudicated: totalsRow.adjudicated,
    },
  };
}
