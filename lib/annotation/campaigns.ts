// Creating, locking and listing campaigns.
import { randomBytes, randomInt } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { orderedTrajectoryIds } from "@/lib/toolemu/queries";
import { TOOLEMU_LABEL_SCHEMA } from "./label-schema";
import { seededSample } from "./sample";
import { createCampaignSchema, type CreateCampaignInput, type Selection } from "./schemas";

/** Opaque item ids: annotators see these, never trajectory ids. */
export function newItemId(): string {
  return `it_${randomBytes(12).toString("base64url")}`;
}

async function selectTrajectories(db: Db, s: Selection): Promise<string[]> {
  if (s.kind === "ids") {
    const found = await db.trajectory.findMany({ where: { id: { in: s.trajectoryIds } }, select: { id: true } });
    if (found.length !== new Set(s.trajectoryIds).size) throw new AppError("Some of the chosen trajectories do not exist.", 400);
    return [...new Set(s.trajectoryIds)];
  }
  const ids = await orderedTrajectoryIds(db, parseTrajectoryFilter(s.filter));
  if (s.kind === "filter") return s.limit ? ids.slice(0, s.limit) : ids;
  const strata = await db.trajectory.findMany({ where: { id: { in: ids } }, select: { id: true, agentModel: true, emulatorMode: true } });
  return seededSample(strata.map((t) => ({ id: t.id, stratum: `${t.agentModel}|${t.emulatorMode}` })), s.n, s.seed, s.stratify);
}

export async function createCampaign(db: Db, actorId: string | null, raw: CreateCampaignInput) {
  const input = createCampaignSchema.parse(raw);
  const trajectoryIds = await selectTrajectories(db, input.selection);
  if (!trajectoryIds.length) throw new AppError("No trajectories match this selection.", 400);
  const annotators = await db.user.findMany({ where: { id: { in: input.annotatorIds }, disabled: false }, select: { id: true } });
  if (annotators.length !== new Set(input.annotatorIds).size) throw new AppError("Some invited annotators do not exist or are disabled.", 400);
  const seed = input.seed ?? randomInt(0, 2 ** 31 - 1);
  return db.$transaction(async (tx) => {
    const campaign = await tx.campaign.create({
      data: {
        name: input.name,
        guidelines: input.guidelines,
        k: input.k,
        seed,
        pseudonymize: input.pseudonymize,
        labelSchema: TOOLEMU_LABEL_SCHEMA as unknown as Prisma.InputJsonValue,
        labelSchemaVersion: TOOLEMU_LABEL_SCHEMA.version,
        createdById: actorId,
        members: { create: annotators.map((a) => ({ userId: a.id })) },
      },
    });
    await tx.campaignItem.createMany({ data: trajectoryIds.map((trajectoryId) => ({ id: newItemId(), campaignId: campaign.id, trajectoryId })) });
    await recordAudit(tx, {
      actorId,
      action: "campaign.create",
      entityType: "Campaign",
      entityId: campaign.id,
      after: { name: campaign.name, k: campaign.k, seed, items: trajectoryIds.length, annotators: annotators.length, selection: input.selection },
    });
    return { id: campaign.id, items: trajectoryIds.length };
  });
}

export async function setCampaignLocked(db: Db, actorId: string, campaignId: string, locked: boolean) {
  return db.$transaction(async (tx) => {
    const before = await tx.campaign.findUnique({ where: { id: campaignId }, select: { status: true } });
    if (!before) throw new AppError("No such campaign.", 404);
    const after = await tx.campaign.update({ where: { id: campaignId }, data: { status: locked ? "LOCKED" : "OPEN" }, select: { status: true } });
    await recordAudit(tx, { actorId, action: locked ? "campaign.lock" : "campaign.unlock", entityType: "Campaign", entityId: campaignId, before, after });
    return after;
  });
}
