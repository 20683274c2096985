// What the adjudication screen loads besides the labels (manage-queries.ts adjudicationItem):
// the item exactly as annotators see it (the blinded view, built by blinded.ts), the evaluators'
// scores only when asked for, the neighbouring disagreements for "next disagreement", and whether
// identities are hidden (blind adjudication: a campaign setting, or the adjudicator's choice).
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { parseLabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";
import { ITEM_CONTENT_COLUMNS, ITEM_CONTENT_JOINS, toBlindedItem, type BlindedItem, type ItemContentRow } from "./blinded";
import { redactIfAsked } from "./redact";
import { campaignSchema, schemaColumn } from "./schema-cache";
import { answerOf, comparedFields } from "./quality/answers";

type Row = ItemContentRow & { campaignId: string; campaignName: string; guidelines: string; campaignStatus: string; redactModelNames: boolean; schemaVersion: number; labelSchema: unknown };

/** The item as an annotator sees it (no assignment of anyone's: an empty one stands in). */
export async function staffItemView(db: Db | Prisma.TransactionClient, campaignId: string, itemId: string): Promise<BlindedItem | null> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT c.id AS "campaignId", c.name AS "campaignName", c.guidelines, c.status::text AS "campaignStatus", c."redactModelNames",
           c."labelSchemaVersion" AS "schemaVersion", ${schemaColumn()} AS "labelSchema",
           ${ITEM_CONTENT_COLUMNS}
    FROM "CampaignItem" ci
    JOIN "Campaign" c ON c.id = ci."campaignId"
    ${ITEM_CONTENT_JOINS}
    WHERE ci.id = ${itemId} AND ci."campaignId" = ${campaignId}`;
  const r = rows[0];
  if (!r) return null;
  const schema = await campaignSchema(db, r.campaignId, r.schemaVersion, r.labelSchema);
  const none = { id: "", status: "SUBMITTED", draft: null, values: null, timeSpentMs: 0, leaseUntil: null, draftUpdatedAt: null };
  const item = toBlindedItem(r, none, { id: r.campaignId, name: r.campaignName, guidelines: r.guidelines, status: r.campaignStatus, redactModelNames: r.redactModelNames }, schema);
  return redactIfAsked(db, item);
}

export interface EvaluatorScore {
  kind: string;
  evaluator: string;
  score: number | null;
  label: string | null;
  summary: string | null;
}

/** The evaluators' scores of the item's trajectory (only loaded when the adjudicator asks). */
export async function itemEvaluations(db: Db, itemId: string): Promise<EvaluatorScore[]> {
  const item = await db.campaignItem.findUnique({ where: { id: itemId }, select: { trajectoryId: true } });
  if (!item?.trajectoryId) return [];
  const rows = await db.evaluation.findMany({ where: { trajectoryId: item.trajectoryId }, orderBy: [{ kind: "asc" }, { evaluatorModel: "asc" }], select: { kind: true, evaluatorModel: true, score: true, label: true, summary: true } });
  return rows.map((e) => ({ kind: e.kind, evaluator: e.evaluatorModel, score: e.score, label: e.label, summary: e.summary }));
}

export interface DisagreementNav {
  /** 1-based place of this item among the campaign's disagreements, or null when it is none. */
  position: number | null;
  total: number;
  adjudicated: number;
  previous: string | null;
  next: string | null;
}

/**
 * The campaign's items whose submitted labels differ on any compared field (choice or yes/no),
 * most disagreeing fields first, then by id; gold items are not adjudicated here.
 */
export async function disagreementNav(db: Db, campaignId: string, itemId: string): Promise<DisagreementNav> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { labelSchema: true } });
  if (!campaign) return { position: null, total: 0, adjudicated: 0, previous: null, next: null };
  const fields = comparedFields(parseLabelSchema(campaign.labelSchema));
  const rows = await db.assignment.findMany({ where: { campaignId, status: "SUBMITTED", item: { gold: null } }, select: { itemId: true, values: true } });
  const byItem = new Map<string, LabelValues[]>();
  for (const r of rows) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), (r.values as LabelValues) ?? {}]);
  const scored = [...byItem].flatMap(([id, labels]) => {
    const differing = fields.filter((f) => new Set(labels.map((l) => answerOf(f, l[f.key])).filter((x) => x !== null)).size > 1).length;
    return differing > 0 ? [{ id, differing }] : [];
  });
  scored.sort((a, b) => b.differing - a.differing || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = scored.map((s) => s.id);
  const adjudicated = ids.length ? await db.adjudication.count({ where: { itemId: { in: ids } } }) : 0;
  const i = ids.indexOf(itemId);
  return {
    position: i >= 0 ? i + 1 : null,
    total: ids.length,
    adjudicated,
    previous: i > 0 ? ids[i - 1]! : null,
    next: i >= 0 ? (ids[i + 1] ?? null) : (ids[0] ?? null),
  };
}

/** Whether the campaign asks for blind adjudication (then the adjudicator cannot unblind). */
export async function campaignAdjudicationMode(db: Db, campaignId: string, itemId: string): Promise<{ forcedBlind: boolean; lastBlind: boolean | null }> {
  const [c, a] = await Promise.all([
    db.campaign.findUnique({ where: { id: campaignId }, select: { blindAdjudication: true } }),
    db.adjudication.findUnique({ where: { itemId }, select: { blind: true } }),
  ]);
  return { forcedBlind: c?.blindAdjudication ?? false, lastBlind: a?.blind ?? null };
}

/** "Annotator 1, 2, …" in the order the labels were submitted, for a blind adjudication. */
export function blindNames<T extends { annotator: string }>(labels: T[]): (T & { email: string })[] {
  return labels.map((l, i) => ({ ...l, annotator: `Annotator ${i + 1}`, email: "identity hidden" }));
}
