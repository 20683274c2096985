// A PI's adjudicated label for an item, stored beside the original labels (never over them).
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { dropHiddenValues, parseLabelSchema, stepAnswerProblems, valuesValidator, type LabelValues } from "@/lib/trajectory/label-schema";

/** `blind`: adjudicated with annotator identities hidden (always so when the campaign asks for it). */
export async function adjudicate(db: Db, actorId: string, itemId: string, values: LabelValues, reason: string, opts: { blind?: boolean } = {}) {
  return db.$transaction(async (tx) => {
    const item = await tx.campaignItem.findUnique({ where: { id: itemId }, select: { id: true, campaign: { select: { labelSchema: true, labelSchemaVersion: true, blindAdjudication: true } }, adjudication: true, trajectory: { select: { stepCount: true } } } });
    if (!item) throw new AppError("No such item.", 404);
    const schema = parseLabelSchema(item.campaign.labelSchema);
    const parsed = valuesValidator(schema, { partial: false }).safeParse(values);
    if (!parsed.success) throw new AppError(parsed.error.issues.map((i) => i.message).join(" "), 400);
    const steps = stepAnswerProblems(schema, parsed.data as LabelValues, item.trajectory?.stepCount ?? 0, { partial: false });
    if (steps.length) throw new AppError(steps.join(" "), 400);
    const data = { values: dropHiddenValues(schema, parsed.data as LabelValues) as Prisma.InputJsonValue, reason, adjudicatorId: actorId, labelSchemaVersion: item.campaign.labelSchemaVersion, blind: !!opts.blind || item.campaign.blindAdjudication };
    const saved = await tx.adjudication.upsert({ where: { itemId }, create: { itemId, ...data }, update: data });
    await recordAudit(tx, { actorId, action: "label.adjudicate", entityType: "CampaignItem", entityId: itemId, before: item.adjudication ?? undefined, after: { values: parsed.data, reason, blind: data.blind } });
    return { id: saved.id };
  });
}
