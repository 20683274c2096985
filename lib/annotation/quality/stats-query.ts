// Loads a campaign's labels for the per-annotator statistics page (stats.ts computes them).
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseLabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";
import { answerOf, comparedFields, labelSetOf, type ComparedField } from "./answers";
import { annotatorStats, type AnnotatorStats, type StatLabel } from "./stats";
import { exclusionHistory } from "./exclusion";

export interface AnnotatorRow extends AnnotatorStats {
  name: string;
  excluded: { reason: string; at: Date } | null;
  qualification: { passed: boolean; score: number; items: number } | null;
}

export interface AnnotatorStatsPage {
  campaign: { id: string; name: string; goldRate: number; qualificationItems: number; qualificationPass: number };
  fields: { key: string; label: string }[];
  field: { key: string; label: string };
  rows: AnnotatorRow[];
  goldItems: number;
}

export async function loadAnnotatorStats(db: Db, campaignId: string, fieldKey?: string): Promise<AnnotatorStatsPage> {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, name: true, labelSchema: true, goldRate: true, qualificationItems: true, qualificationPass: true, members: { select: { user: { select: { id: true, name: true } } } } },
  });
  if (!campaign) throw new AppError("No such campaign.", 404);
  const fields = comparedFields(parseLabelSchema(campaign.labelSchema));
  if (!fields.length) throw new AppError("This campaign's form has no choice or yes/no field to compare.", 400);
  const field: ComparedField = fields.find((f) => f.key === fieldKey) ?? fields[0]!;
  const [labels, exclusions, results, goldItems] = await Promise.all([
    db.assignment.findMany({
      where: { campaignId, status: "SUBMITTED" },
      select: { annotatorId: true, itemId: true, values: true, timeSpentMs: true, submittedAt: true, updatedAt: true, item: { select: { gold: { select: { values: true } } } } },
    }),
    db.labelExclusion.findMany({ where: { campaignId, restoredAt: null }, select: { annotatorId: true, reason: true, excludedAt: true } }),
    db.qualificationResult.findMany({ where: { campaignId } }),
    db.goldAnswer.count({ where: { item: { campaignId } } }),
  ]);
  const excluded = new Map(exclusions.map((x) => [x.annotatorId, { reason: x.reason, at: x.excludedAt }]));
  const input: StatLabel[] = labels.map((l) => ({
    annotatorId: l.annotatorId,
    itemId: l.itemId,
    answer: answerOf(field, ((l.values as LabelValues) ?? {})[field.key]),
    timeSpentMs: l.timeSpentMs,
    submittedAt: l.submittedAt ?? l.updatedAt,
    gold: l.item.gold ? answerOf(field, (l.item.gold.values as LabelValues)[field.key]) : undefined,
  }));
  const stats = new Map(annotatorStats(input, labelSetOf(field), (id) => !excluded.has(id)).map((s) => [s.annotatorId, s]));
  const names = new Map(campaign.members.map((m) => [m.user.id, m.user.name]));
  const ids = [...new Set([...names.keys(), ...stats.keys()])];
  const empty = (id: string): AnnotatorStats => ({ annotatorId: id, labels: 0, gold: { agree: 0, n: 0, value: null }, majority: { agree: 0, n: 0, value: null }, kappa: { value: null, others: 0, n: 0 }, medianSeconds: null, drift: Array.from({ length: 10 }, () => ({ agree: 0, n: 0, value: null })) });
  const rows = ids
    .map((id) => {
      const q = results.find((r) => r.annotatorId === id);
      return { ...(stats.get(id) ?? empty(id)), name: names.get(id) ?? "a former member", excluded: excluded.get(id) ?? null, qualification: q ? { passed: q.passed, score: q.score, items: q.items } : null };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.annotatorId.localeCompare(b.annotatorId));
  return {
    campaign: { id: campaign.id, name: campaign.name, goldRate: campaign.goldRate, qualificationItems: campaign.qualificationItems, qualificationPass: campaign.qualificationPass },
    fields: fields.map((f) => ({ key: f.key, label: f.label })),
    field: { key: field.key, label: field.label },
    rows,
    goldItems,
  };
}

/** The annotators page: the statistics on one field and the campaign's exclusion history. */
export async function annotatorsPageData(db: Db, campaignId: string, fieldKey?: string) {
  const [stats, history] = await Promise.all([loadAnnotatorStats(db, campaignId, fieldKey), exclusionHistory(db, campaignId)]);
  return { ...stats, history };
}
