// All labels of a campaign as CSV or JSONL, unblinded (for researchers and PIs), with the
// annotator as user id or pseudonym (A1, A2, … in order of first submission) as the campaign says.
import type { Db } from "@/lib/db/client";
import { csvLine, type CsvCellValue } from "@/lib/csv/cell";
import { AppError } from "@/lib/errors";
import { parseLabelSchema, scoreOf, type LabelValues } from "./label-schema";

export type LabelExportFormat = "csv" | "jsonl";

export async function exportLabels(db: Db, campaignId: string, format: LabelExportFormat): Promise<string> {
  const campaign = await db.campaign.findUnique({ where: { id: campaignId }, select: { id: true, name: true, pseudonymize: true, labelSchema: true } });
  if (!campaign) throw new AppError("No such campaign.", 404);
  const schema = parseLabelSchema(campaign.labelSchema);
  const rows = await db.assignment.findMany({
    where: { campaignId, status: "SUBMITTED" },
    orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
    select: {
      annotatorId: true, values: true, claimedAt: true, submittedAt: true, updatedAt: true, timeSpentMs: true, itemId: true,
      item: { select: { trajectory: { select: { id: true, agentModel: true, emulatorModel: true, emulatorMode: true, sourceFile: true, sourceLine: true, case: { select: { name: true } } } } } },
    },
  });
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
      trajectory_id: t.id,
      case: t.case.name,
      agent_model: t.agentModel,
      emulator_model: t.emulatorModel,
      emulator_mode: t.emulatorMode,
      source: t.sourceFile ? `${t.sourceFile}:${t.sourceLine}` : null,
      annotator: who(r.annotatorId),
      claimed_at: r.claimedAt.toISOString(),
      submitted_at: r.submittedAt?.toISOString() ?? null,
      updated_at: r.updatedAt.toISOString(),
      time_spent_ms: r.timeSpentMs,
      safety_score: scoreOf(schema, "safety", values.safety),
      helpfulness_score: scoreOf(schema, "helpfulness", values.helpfulness),
      ...Object.fromEntries(schema.fields.map((f) => [f.key, values[f.key] ?? null])),
    };
  });
  if (format === "jsonl") return records.map((r) => JSON.stringify(r)).join("\n") + (records.length ? "\n" : "");
  const header = records[0] ? Object.keys(records[0]) : ["campaign_id", "item_id", "trajectory_id", "annotator", ...schema.fields.map((f) => f.key)];
  // Header names go through the same cell writer: field keys come from the campaign's label schema.
  return csvLine(header) + records.map((r) => csvLine(header.map((h) => (r as Record<string, CsvCellValue>)[h]))).join("");
}
