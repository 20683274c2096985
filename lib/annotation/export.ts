// All labels of a campaign as CSV or JSONL, unblinded (for researchers and PIs), with the
// annotator as user id or pseudonym (A1, A2, … in order of first submission) as the campaign says.
// Each row also carries its ITEM's ground truth per field (lib/metrics/ground-truth.ts: the
// adjudicated label, else the strict majority, else a tie — exported as a tie, never drawn), the
// same definition every dashboard panel uses: ground_truth_<field> and ground_truth_<field>_from
// ("adjudicated", "majority", or "tie: a|b").
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { csvLine, type CsvCellValue } from "@/lib/csv/cell";
import { AppError } from "@/lib/errors";
import { groundTruth } from "@/lib/metrics/ground-truth";
import { parseLabelSchema, scoreOf, type LabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";
import { onTrackBeforeStep } from "./per-step";
import { countedLabelWhere } from "./quality/metric-scope";

/** The fields the dashboards take a ground truth of; safety and helpfulness by score. */
const TRUTH_FIELDS = ["safety", "helpfulness", "true_failure", "emulator_input_validation", "emulator_realism", "emulator_consistency"] as const;

function truthValue(schema: LabelSchema, field: string, values: LabelValues | null | undefined): string | null {
  if (!values) return null;
  if (field === "safety" || field === "helpfulness") {
    const s = scoreOf(schema, field, values[field]);
    return s === null || s === undefined ? null : String(s);
  }
  const v = values[field];
  return v === null || v === undefined || v === "" ? null : String(v);
}

/** Per item and field: the ground truth and where it came from. */
function groundTruthColumns(schema: LabelSchema, labels: LabelValues[], adjudicated: LabelValues | undefined): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const field of TRUTH_FIELDS) {
    if (!schema.fields.some((f) => f.key === field)) continue;
    // Votes as indexes into the distinct values, so the numeric groundTruth() serves every field.
    const seen = labels.map((l) => truthValue(schema, field, l)).filter((v): v is string => v !== null);
    const adj = truthValue(schema, field, adjudicated);
    const distinct = [...new Set([...seen, ...(adj === null ? [] : [adj])])].sort();
    const g = groundTruth(seen.map((v) => distinct.indexOf(v)), adj === null ? undefined : distinct.indexOf(adj));
    const key = `ground_truth_${field}`;
    if (g.kind === "none") [out[key], out[`${key}_from`]] = [null, null];
    else if (g.kind === "tie") [out[key], out[`${key}_from`]] = [null, `tie: ${g.tiedBetween.map((i) => distinct[i]).join("|")}`];
    else [out[key], out[`${key}_from`]] = [distinct[g.label]!, g.kind];
  }
  return out;
}

export type LabelExportFormat = "csv" | "jsonl";

export async function exportLabels(db: Db, campaignId: string, format: LabelExportFormat): Promise<string> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { id: true, name: true, pseudonymize: true, labelSchema: true } });
  if (!campaign) throw new AppError("No such campaign.", 404);
  const schema = parseLabelSchema(campaign.labelSchema);
  // Excluded annotators' labels and gold items' labels are not part of the data (quality/metric-scope.ts).
  const rows = await db.assignment.findMany({
    where: { campaignId, status: "SUBMITTED", ...(await countedLabelWhere(db, campaignId)) },
    orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
    select: {
      annotatorId: true, values: true, claimedAt: true, submittedAt: true, updatedAt: true, timeSpentMs: true, itemId: true, labelSchemaVersion: true,
      item: { select: { scenario: { select: { instanceId: true } }, trajectory: { select: { id: true, agentModel: true, emulatorModel: true, emulatorMode: true, sourceFile: true, sourceLine: true, case: { select: { name: true } } } } } },
    },
  });
  const adjudications = new Map(
    (await db.adjudication.findMany({ where: { item: { campaignId } }, select: { itemId: true, values: true } })).map((a) => [a.itemId, a.values as LabelValues]),
  );
  const byItem = new Map<string, LabelValues[]>();
  for (const r of rows) byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), (r.values as LabelValues) ?? {}]);
  const truth = new Map([...byItem].map(([item, labels]) => [item, groundTruthColumns(schema, labels, adjudications.get(item))]));
  const pseudonyms = new Map<string, string>();
  const who = (id: string) => {
    if (!campaign.pseudonymize) return id;
    if (!pseudonyms.has(id)) pseudonyms.set(id, `A${pseudonyms.size + 1}`);
    return pseudonyms.get(id)!;
  };
  const records = rows.map((r) => {
    const values = (r.values as LabelValues) ?? {};
    const t = r.item.trajectory;
    return {
      campaign_id: campaign.id,
      item_id: r.itemId,
      // A scenario item (SAGE scenario quality) has no trajectory.
      trajectory_id: t?.id ?? null,
      scenario: r.item.scenario?.instanceId ?? null,
      label_schema_version: r.labelSchemaVersion ?? 1,
      case: t?.case?.name ?? null,
      agent_model: t?.agentModel ?? null,
      emulator_model: t?.emulatorModel ?? null,
      emulator_mode: t?.emulatorMode ?? null,
      // Rows imported before source names were made relative may hold a server path: its file name only.
      source: t?.sourceFile ? `${path.isAbsolute(t.sourceFile) ? path.basename(t.sourceFile) : t.sourceFile}:${t.sourceLine}` : null,
      annotator: who(r.annotatorId),
      claimed_at: r.claimedAt.toISOString(),
      submitted_at: r.submittedAt?.toISOString() ?? null,
      updated_at: r.updatedAt.toISOString(),
      time_spent_ms: r.timeSpentMs,
      safety_score: scoreOf(schema, "safety", values.safety),
      helpfulness_score: scoreOf(schema, "helpfulness", values.helpfulness),
      ...Object.fromEntries(schema.fields.map((f) => [f.key, values[f.key] ?? null])),
      // A per-step field also as a list per step: true (on track), false (not), null (unsure).
      ...Object.fromEntries(schema.fields.filter((f) => f.kind === "steps").map((f) => [`${f.key}_by_step`, format === "jsonl" ? onTrackBeforeStep(values, f.key) : JSON.stringify(onTrackBeforeStep(values, f.key))])),
      ...truth.get(r.itemId),
    };
  });
  if (format === "jsonl") return records.map((r) => JSON.stringify(r)).join("\n") + (records.length ? "\n" : "");
  const header = records[0] ? Object.keys(records[0]) : ["campaign_id", "item_id", "trajectory_id", "annotator", ...schema.fields.map((f) => f.key)];
  // Header names go through the same cell writer: field keys come from the campaign's label schema.
  return csvLine(header) + records.map((r) => csvLine(header.map((h) => (r as Record<string, CsvCellValue>)[h]))).join("");
}
