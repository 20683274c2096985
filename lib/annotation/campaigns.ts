// Creating, locking and listing campaigns.
import { randomBytes, randomInt } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { OFFLINE_MODEL_ID } from "@/lib/offline-label";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { orderedTrajectoryIds } from "@/lib/toolemu/queries/trajectories";
import { parseLabelForm } from "@/lib/trajectory/label-form";
import { isPerStep, LABEL_FORMS, type ItemKind, type LabelSchema } from "@/lib/trajectory/label-schema";
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

type TrajectorySelection = Exclude<Selection, { kind: "scenarios" | "sage-episodes" }>;

/** SAGE scenarios: all of the chosen subcategories (none = all), or a seeded sample stratified by subcategory. */
async function selectScenarios(db: Db, s: Extract<Selection, { kind: "scenarios" }>): Promise<string[]> {
  const rows = await db.sageScenario.findMany({
    where: s.subcategories.length ? { subcategory: { key: { in: s.subcategories } } } : {},
    select: { id: true, subcategory: { select: { key: true } } },
    orderBy: { instanceId: "asc" },
  });
  if (s.n === undefined) return rows.map((r) => r.id);
  return seededSample(rows.map((r) => ({ id: r.id, stratum: r.subcategory.key })), s.n, s.seed, s.stratify);
}

/** SAGE episodes (trajectories of a scenario), optionally of one run; a seeded sample stratified by authority context. */
async function selectSageEpisodes(db: Db, s: Extract<Selection, { kind: "sage-episodes" }>, includeOffline: boolean): Promise<string[]> {
  const rows = await db.trajectory.findMany({
    where: { scenarioId: { not: null }, ...(s.runId ? { runId: s.runId } : {}) },
    select: { id: true, authorityContext: true },
    orderBy: { id: "asc" },
  });
  const offline = includeOffline ? new Set<string>() : await offlineTrajectoryIds(db, rows.map((r) => r.id));
  if (rows.length > 0 && offline.size === rows.length) {
    throw new AppError(`All ${offline.size} matching SAGE episodes come from the offline heuristic model (not an LLM). Tick "Include offline-model trajectories" to label them anyway.`, 400);
  }
  const kept = rows.filter((r) => !offline.has(r.id));
  if (s.n === undefined) return kept.map((r) => r.id);
  return seededSample(kept.map((r) => ({ id: r.id, stratum: String(r.authorityContext) })), s.n, s.seed, true);
}

async function selectTrajectories(db: Db, s: TrajectorySelection, includeOffline: boolean): Promise<string[]> {
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

/** What a selection picks: "scenarios", "sage-episodes", or trajectories (ToolEmu, or any by id/filter). */
export function selectionItemKind(s: Selection): ItemKind {
  return s.kind === "scenarios" ? "scenarios" : s.kind === "sage-episodes" ? "sage-episodes" : "trajectories";
}

/**
 * The campaign's form (a built-in one, or the custom one checked with located errors) and
 * whether it fits the items: a built-in form names what it labels; a scenario has no steps.
 */
export function resolveLabelForm(labelForm: string, customForm: unknown, items: ItemKind): LabelSchema {
  let schema: LabelSchema;
  if (labelForm === "custom") {
    const parsed = parseLabelForm(customForm);
    if (!parsed.ok) throw new AppError(`The custom form has ${parsed.issues.length} problem${parsed.issues.length === 1 ? "" : "s"}: ${parsed.issues.map((i) => `${i.path || "form"}: ${i.message}`).join("; ")}`, 400);
    schema = { ...parsed.schema, form: "custom", version: 1 };
  } else {
    const form = LABEL_FORMS.find((f) => f.id === labelForm);
    if (!form) throw new AppError(`No built-in label form "${labelForm}".`, 400);
    const wanted = form.items === "sage-episodes" ? ["sage-episodes", "trajectories"] : [form.items];
    if (!wanted.includes(items)) {
      const what = { trajectories: "trajectories", "sage-episodes": "SAGE episodes", scenarios: "SAGE scenarios" } as const;
      throw new AppError(`The form "${form.name}" labels ${what[form.items]}, but the selection picks ${what[items]}.`, 400);
    }
    schema = { ...form.schema, form: form.id };
  }
  const perStep = schema.fields.find(isPerStep);
  if (items === "scenarios" && perStep) throw new AppError(`"${perStep.label}" is answered per step of a trajectory, but scenario items have no steps: take it out of the form.`, 400);
  return schema;
}

export async function createCampaign(db: Db, actorId: string | null, raw: CreateCampaignInput) {
  const input = createCampaignSchema.parse(raw);
  const items = selectionItemKind(input.selection);
  const labelSchema = resolveLabelForm(input.labelForm, input.customForm, items);
  const s = input.selection;
  let ids: string[];
  if (s.kind === "scenarios") ids = await selectScenarios(db, s);
  else if (s.kind === "sage-episodes") ids = await selectSageEpisodes(db, s, input.includeOffline);
  else ids = await selectTrajectories(db, s, input.includeOffline);
  if (!ids.length) throw new AppError(items === "scenarios" ? "No SAGE scenarios match this selection." : items === "sage-episodes" ? "No SAGE episodes match this selection." : "No trajectories match this selection.", 400);
  const trajectoryIds = items === "scenarios" ? [] : ids;
  const scenarioIds = items === "scenarios" ? ids : [];
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
        includeOffline: input.includeOffline,
        redactModelNames: input.redactModelNames,
        ...input.quality,
        labelSchema: labelSchema as unknown as Prisma.InputJsonValue,
        labelSchemaVersion: labelSchema.version,
        createdById: actorId,
        members: { create: annotators.map((a) => ({ userId: a.id })) },
      },
    });
    await tx.campaignItem.createMany({
      data: [
        ...trajectoryIds.map((trajectoryId) => ({ id: newItemId(), campaignId: campaign.id, trajectoryId })),
        ...scenarioIds.map((scenarioId) => ({ id: newItemId(), campaignId: campaign.id, scenarioId })),
      ],
    });
    await tx.campaignFormVersion.create({ data: { campaignId: campaign.id, version: labelSchema.version, schema: labelSchema as unknown as Prisma.InputJsonValue, createdById: actorId } });
    await recordAudit(tx, {
      actorId,
      action: "campaign.create",
      entityType: "Campaign",
      entityId: campaign.id,
      after: {
        name: campaign.name, k: campaign.k, seed, items: ids.length, itemKind: items, labelForm: labelSchema.form ?? input.labelForm, annotators: annotators.length, selection: input.selection,
        includeOffline: input.includeOffline, redactModelNames: input.redactModelNames, quality: input.quality ?? null,
      },
    });
    return { id: campaign.id, items: ids.length };
  });
}

/**
 * A new version of a campaign's form (issue 18 item 6): the campaign row gets it, the history
 * keeps every version, and labels already given keep the version they were given under
 * (Assignment.labelSchemaVersion). Field keys kept with the same kind stay comparable in metrics.
 */
export async function reviseCampaignForm(db: Db, actorId: string, campaignId: string, form: unknown) {
  const parsed = parseLabelForm(form);
  if (!parsed.ok) throw new AppError(`The form has ${parsed.issues.length} problem${parsed.issues.length === 1 ? "" : "s"}: ${parsed.issues.map((i) => `${i.path || "form"}: ${i.message}`).join("; ")}`, 400);
  return db.$transaction(async (tx) => {
    const [c] = await tx.$queryRaw<{ labelSchemaVersion: number; labelSchema: unknown; scenarios: boolean }[]>`
      SELECT c."labelSchemaVersion", c."labelSchema", EXISTS (SELECT 1 FROM "CampaignItem" ci WHERE ci."campaignId" = c.id AND ci."scenarioId" IS NOT NULL) AS scenarios
      FROM "Campaign" c WHERE c.id = ${campaignId} FOR UPDATE`;
    if (!c) throw new AppError("No such campaign.", 404);
    const old = (typeof c.labelSchema === "string" ? JSON.parse(c.labelSchema) : c.labelSchema) as LabelSchema;
    const perStep = parsed.schema.fields.find(isPerStep);
    if (c.scenarios && perStep) throw new AppError(`"${perStep.label}" is answered per step of a trajectory, but this campaign's items are scenarios.`, 400);
    const version = c.labelSchemaVersion + 1;
    const schema: LabelSchema = { ...parsed.schema, version, form: old.form === "custom" || !old.form ? "custom" : `${old.form}+edited` };
    // Campaigns made before versions were kept have no history row for their first version.
    await tx.campaignFormVersion.upsert({
      where: { campaignId_version: { campaignId, version: c.labelSchemaVersion } },
      create: { campaignId, version: c.labelSchemaVersion, schema: old as unknown as Prisma.InputJsonValue },
      update: {},
    });
    await tx.campaignFormVersion.create({ data: { campaignId, version, schema: schema as unknown as Prisma.InputJsonValue, createdById: actorId } });
    await tx.campaign.update({ where: { id: campaignId }, data: { labelSchema: schema as unknown as Prisma.InputJsonValue, labelSchemaVersion: version } });
    await recordAudit(tx, { actorId, action: "campaign.form.revise", entityType: "Campaign", entityId: campaignId, before: { version: c.labelSchemaVersion }, after: { version, fields: schema.fields.map((f) => f.key) } });
    return { version };
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
