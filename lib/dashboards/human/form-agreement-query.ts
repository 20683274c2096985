// The campaign page's "agreement by form field" section: every ordinal and categorical field of
// the campaign's current form (./form-agreement.ts), and for the SAGE forms the paper's figures
// (./sage-validation.ts). Labels given under an earlier form version count for a field when that
// version had a field with the same key and kind (values the current field cannot have are left out).
import "server-only";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseLabelSchema, type LabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";
import { countedLabelSql } from "@/lib/annotation/quality/metric-scope";
import { measuredFields } from "./field-codes";
import { fieldAgreement, type FieldAgreement, type FieldLabel } from "./form-agreement";
import { episodeValidation, scenarioValidation, type EpisodeValidation, type ScenarioValidation } from "./sage-validation";

export interface FormAgreement {
  schemaVersion: number;
  form: string | null;
  /** Submitted labels per form version they were given under. */
  labelsByVersion: { version: number; labels: number }[];
  fields: FieldAgreement[];
  seed: number;
  resamples: number;
  sageEpisodes: EpisodeValidation | null;
  sageScenarios: ScenarioValidation | null;
}

const RESAMPLES = 1000;
const asJson = (v: unknown) => (typeof v === "string" ? (JSON.parse(v) as unknown) : v);

export async function campaignFormAgreement(db: Db, campaignId: string): Promise<FormAgreement> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { seed: true, labelSchema: true, labelSchemaVersion: true } });
  if (!campaign) throw new AppError("No such campaign.", 404);
  const schema = parseLabelSchema(asJson(campaign.labelSchema));
  const [rows, versions] = await Promise.all([
    db.$queryRaw<{ item: string; annotator: string; values: unknown; version: number | null; trajectoryId: string | null }[]>`
      SELECT a."itemId" AS item, a."annotatorId" AS annotator, a.values, a."labelSchemaVersion" AS version, ci."trajectoryId"
      FROM "Assignment" a JOIN "CampaignItem" ci ON ci.id = a."itemId"
      WHERE a."campaignId" = ${campaignId} AND a.status = 'SUBMITTED' AND a.values IS NOT NULL AND ${countedLabelSql(campaignId, "a")}`,
    db.campaignFormVersion.findMany({ where: { campaignId }, select: { version: true, schema: true } }),
  ]);
  const schemas = new Map<number, LabelSchema>(versions.map((v) => [v.version, parseLabelSchema(asJson(v.schema))]));
  schemas.set(campaign.labelSchemaVersion, schema);
  const labels = rows.map((r) => ({ ...r, version: r.version ?? 1, values: (asJson(r.values) ?? {}) as LabelValues }));

  const fields = measuredFields(schema.fields).map((f) => {
    // A label counts for the field if its version had the field with the same kind (or its version is unknown).
    const usable: FieldLabel[] = labels.filter((l) => {
      const old = schemas.get(l.version);
      return !old || old.fields.some((g) => g.key === f.fieldKey && g.kind === f.kind);
    });
    return fieldAgreement(f, usable, { seed: campaign.seed, resamples: RESAMPLES });
  });

  const counts = new Map<number, number>();
  for (const l of labels) counts.set(l.version, (counts.get(l.version) ?? 0) + 1);

  let sageEpisodes: EpisodeValidation | null = null;
  if (schema.form?.startsWith("sage-episode-safety")) {
    const trajIds = [...new Set(labels.map((l) => l.trajectoryId).filter((t): t is string => !!t))];
    // Judges' labels: only for this figure, never shown to annotators.
    const judged = await db.sageJudgment.findMany({ where: { trajectoryId: { in: trajIds } }, select: { trajectoryId: true, judgeModel: true, mode: true, label: true } });
    const byItem = new Map<string, { item: string; trajectoryId: string; verdicts: string[] }>();
    for (const l of labels) {
      const v = l.values.verdict;
      if (!l.trajectoryId || typeof v !== "string") continue;
      (byItem.get(l.item) ?? byItem.set(l.item, { item: l.item, trajectoryId: l.trajectoryId, verdicts: [] }).get(l.item)!).verdicts.push(v);
    }
    sageEpisodes = episodeValidation([...byItem.values()], judged.map((j) => ({ trajectoryId: j.trajectoryId, judge: `${j.judgeModel} (${String(j.mode).toLowerCase()})`, label: j.label })));
  }
  const sageScenarios = schema.form?.startsWith("sage-scenario-quality") ? scenarioValidation(labels.map((l) => ({ item: l.item, values: l.values }))) : null;

  return {
    schemaVersion: campaign.labelSchemaVersion,
    form: schema.form ?? null,
    labelsByVersion: [...counts].sort(([a], [b]) => a - b).map(([version, n]) => ({ version, labels: n })),
    fields,
    seed: campaign.seed,
    resamples: RESAMPLES,
    sageEpisodes,
    sageScenarios,
  };
}
