// Read models for the annotation screens and the campaign pages.
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseLabelSchema, scoreOf, type LabelValues } from "@/lib/trajectory/label-schema";

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

/** Unblinded: for researchers and PIs. Items sorted by the spread of safety scores. */
export async function campaignOverview(db: Db, campaignId: string) {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: {
      id: true, name: true, guidelines: true, status: true, k: true, seed: true, pseudonymize: true, includeOffline: true, redactModelNames: true, labelSchema: true, createdAt: true,
      members: { select: { user: { select: { id: true, name: true, email: true } } } },
    },
  });
  if (!campaign) throw new AppError("No such campaign.", 404);
  const schema = parseLabelSchema(campaign.labelSchema);
  // Gold items live on the quality page, outside the campaign's items and totals.
  const items = await db.campaignItem.findMany({
    where: { campaignId, gold: null },
    select: {
      id: true,
      trajectory: { select: { id: true, agentModel: true, emulatorMode: true, case: { select: { name: true } }, scenario: { select: { instanceId: true } } } },
      scenario: { select: { instanceId: true } },
      assignments: { where: { status: "SUBMITTED" }, select: { id: true, annotatorId: true, values: true, submittedAt: true, timeSpentMs: true, annotator: { select: { name: true } } } },
      adjudication: { select: { values: true, reason: true, createdAt: true, adjudicator: { select: { name: true } } } },
    },
  });
  const perAnnotator = await db.assignment.groupBy({ by: ["annotatorId", "status"], where: { campaignId }, _count: { _all: true } });
  const itemLabels: ItemLabels[] = items.map((it) => {
    const scores = it.assignments.map((a) => scoreOf(schema, "safety", (a.values as LabelValues | null)?.safety)).filter((s): s is number => s !== null);
    return {
      itemId: it.id,
      // A scenario item has no trajectory: its scenario's instance id stands for the case.
      trajectoryId: it.trajectory?.id ?? "",
      caseName: it.trajectory?.case?.name ?? it.trajectory?.scenario?.instanceId ?? it.scenario?.instanceId ?? "",
      agentModel: it.trajectory?.agentModel ?? "",
      emulatorMode: it.trajectory?.emulatorMode ?? "",
      labels: it.assignments.map((a) => ({ assignmentId: a.id, annotatorId: a.annotatorId, annotator: a.annotator.name, values: (a.values as LabelValues) ?? {}, submittedAt: a.submittedAt, timeSpentMs: a.timeSpentMs })),
      safetySpread: scores.length >= 2 ? Math.max(...scores) - Math.min(...scores) : null,
      adjudication: it.adjudication ? { values: it.adjudication.values as LabelValues, reason: it.adjudication.reason, adjudicator: it.adjudication.adjudicator?.name ?? null, at: it.adjudication.createdAt } : null,
    };
  });
  itemLabels.sort((a, b) => (b.safetySpread ?? -1) - (a.safetySpread ?? -1) || a.caseName.localeCompare(b.caseName));
  const progress = campaign.members.map(({ user }) => {
    const count = (status: string) => perAnnotator.find((p) => p.annotatorId === user.id && p.status === status)?._count._all ?? 0;
    return { userId: user.id, name: user.name, email: user.email, submitted: count("SUBMITTED"), claimed: count("CLAIMED"), skipped: count("SKIPPED") };
  });
  const submitted = itemLabels.reduce((n, i) => n + i.labels.length, 0);
  return {
    campaign: { ...campaign, schema, locked: campaign.status === "LOCKED" },
    progress,
    items: itemLabels,
    totals: { items: items.length, labelsNeeded: items.length * campaign.k, labelsSubmitted: submitted, complete: itemLabels.filter((i) => i.labels.length >= campaign.k).length },
  };
}
