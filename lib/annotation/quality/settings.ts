// A campaign's annotator-quality settings: gold rate, qualification round, blind adjudication.
// Set at creation (the new-campaign form's quality section) or later on the quality page.
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { MAX_GOLD_RATE } from "./gold-slots";

export const qualitySettingsSchema = z.object({
  /** Share of each annotator's items that are gold items (0 = none). */
  goldRate: z.number().min(0).max(MAX_GOLD_RATE, { message: `At most ${MAX_GOLD_RATE * 100}% of the items can be gold.` }).default(0),
  /** Gold items every annotator answers before any real item (0 = no qualification round). */
  qualificationItems: z.number().int().min(0).max(50, { message: "At most 50 qualification items." }).default(0),
  /** Share of the round's compared answers that must match the gold. */
  qualificationPass: z.number().min(0).max(1).default(0.8),
  /** Adjudicators see "Annotator 1, 2, …" instead of names. */
  blindAdjudication: z.boolean().default(false),
});
export type QualitySettings = z.infer<typeof qualitySettingsSchema>;
export const DEFAULT_QUALITY: QualitySettings = { goldRate: 0, qualificationItems: 0, qualificationPass: 0.8, blindAdjudication: false };

export const setQualitySchema = qualitySettingsSchema.extend({ campaignId: z.string().min(1) });

export async function setQualitySettings(db: Db, actorId: string, campaignId: string, raw: z.input<typeof qualitySettingsSchema>) {
  const settings = qualitySettingsSchema.parse(raw);
  return db.$transaction(async (tx) => {
    const before = await tx.campaign.findUnique({ where: { id: campaignId }, select: { goldRate: true, qualificationItems: true, qualificationPass: true, blindAdjudication: true } });
    if (!before) throw new AppError("No such campaign.", 404);
    await tx.campaign.update({ where: { id: campaignId }, data: settings });
    await recordAudit(tx, { actorId, action: "campaign.quality", entityType: "Campaign", entityId: campaignId, before, after: settings });
    return settings;
  });
}
