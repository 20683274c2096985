// What the campaign's quality page loads: its settings, gold items and gold candidates.
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseLabelSchema } from "@/lib/trajectory/label-schema";
import { goldCandidates, listGold } from "./gold";

export async function qualityPageData(db: Db, campaignId: string) {
  const c = await db.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, name: true, status: true, labelSchema: true, goldRate: true, qualificationItems: true, qualificationPass: true, blindAdjudication: true },
  });
  if (!c) throw new AppError("No such campaign.", 404);
  const [gold, candidates, results] = await Promise.all([
    listGold(db, campaignId),
    goldCandidates(db, campaignId),
    db.qualificationResult.groupBy({ by: ["passed"], where: { campaignId }, _count: { _all: true } }),
  ]);
  return {
    campaign: { id: c.id, name: c.name, locked: c.status === "LOCKED", schema: parseLabelSchema(c.labelSchema) },
    settings: { goldRate: c.goldRate, qualificationItems: c.qualificationItems, qualificationPass: c.qualificationPass, blindAdjudication: c.blindAdjudication },
    gold,
    candidates,
    qualification: { passed: results.find((r) => r.passed)?._count._all ?? 0, failed: results.find((r) => !r.passed)?._count._all ?? 0 },
  };
}
