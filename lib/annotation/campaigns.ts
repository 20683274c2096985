// Creating, locking and listing campaigns.
import { randomBytes, randomInt } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { OFFLINE_MODEL_ID } from "@/lib/offline-label";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { orderedTrajectoryIds } from "@/lib/toolemu/queries/trajectories";
import { LABEL_FORMS } from "@/lib/trajectory/label-schema";
import { seededSample } from "./sample";
import { createCampaignSchema, type CreateCampaignInput, type Selection } from "./schemas";

/** Opaque item ids: annotators see these, never trajectory ids. */
function newItemId(): string {
  return `it_${randomBytes(12).toString("base64url")}`;
}

/**
 * Which of `ids` the offline heuristic model played or emulated (by model name or by an offline
 * endpoint). Their text says what made them, so campaigns leave them out unless asked.
 */
export async function offlineTrajectoryIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT t.id FROM "Trajectory" t
    LEFT JOIN "ModelEndpoint" ae ON ae.id = t."agentEndpointId"
    LEFT JOIN "ModelEndpoint" ee ON ee.id = t."emulatorEndpointId"
    WHERE t.id = ANY(${[...ids]}::text[])
      AND (t."agentModel" = ${OFFLINE_MODEL_ID} OR t."emulatorModel" = ${OFFLINE_MODEL_ID} OR coalesce(ae.offline, false) OR coalesce(ee.offline, false))`;
  return new Set(rows.map((r) => r.id));
}

async function selectTrajectories(db: Db, s: Selection, includeOffline: boolean): Promise<string[]> {
  if (s.kind === "ids") {
    const ids = [...new Set(s.trajectoryIds)];
    const found = await db.trajectory.findMany({ where: { id: { in: ids } }, select: { id: true } });
    if (found.length !== ids.length) throw new AppError("Some of the chosen trajectories do not exist.", 400);
    const offline = includeOffline ? new Set<string>() : await offlineTrajectoryIds(db, ids);
    if (offline.size > 0) {
      throw new AppError(
        `${offline.size} of the chosen trajectories ${offline.size === 1 ? "was" : "were"} played or emulated by the offline heuristic model (not an LLM), which un-blinds them. Leave ${offline.size === 1 ? "it" : "them"} out, or tick "Include offline-model trajectories".`,
        400,
      );
    }
    return ids;
  }
  const all = await orderedTrajectoryIds(db, parseTrajectoryFilter(s.filter));
  const offline = includeOffline ? new Set<string>() : await offlineTrajectoryIds(db, all);
  const ids = offline.size ? all.filter((id) => !offline.has(id)) : all;
  if (ids.length === 0 && offline.size > 0) {
    throw new AppError(`All ${offline.size} matching trajectories come from the offline heuristic model (not an LLM). Tick "Include offline-model trajectories" to label them anyway.`, 400);
  }
  if (s.kind === "filter") return s.limit ? ids.slice(0, s.limit) : ids;
  const strata = await db.trajectory.findMany({ where: { id: { in: ids } }, select: { id: true, agentModel: true, emulatorMode: true } });
  return seededSample(strata.map((t) => ({ id: t.id, stratum: `${t.agentModel}|${t.emulatorMode}` })), s.n, s.seed, s.stratify);
}

export async function createCampaign(db: Db, actorId: string | null, raw: CreateCampaignInput) {
  const input = createCampaignSchema.parse(raw);
  const trajectoryIds = await selectTrajectories(db, input.selection, input.includeOffline);
  if (!trajectoryIds.length) throw new AppError("No trajectories match this selection.", 400);
  const annotators = await db.user.findMany({ where: { id: { in: input.annotatorIds }, disabled: false }, select: { id: true } });
  if (annotators.length !== new Set(input.annotatorIds).size) throw new AppError("Some invited annotators do not exist or are disabled.", 400);
  const seed = input.seed ?? randomInt(0, 2 ** 31 - 1);
  const labelSchema = LABEL_FORMS.find((f) => f.id === input.labelForm)!.schema;
  return db.$transaction(async (tx) => {
    const campaign = await tx.campaign.create({
      data: {
        name: input.name,
        guidelines: input.guidelines,
        k: input.k,
        seed,
        pseudonymize: input.pseudonymize,
        includeOffline: input.includeOffline,
        redactModelNames: input.redactModelNames,
        labelSchema: labelSchema as unknown as Prisma.InputJsonValue,
        labelSchemaVersion: labelSchema.version,
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
      after: {
        name: campaign.name, k: campaign.k, seed, items: trajectoryIds.length, annotators: annotators.length, selection: input.selection,
        includeOffline: input.includeOffline, redactModelNames: input.redactModelNames,
      },
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
