// What an annotator may see of an item. Built field by field from an allow-list, so nothing
// identifying (agent or emulator model, emulator mode, run, evaluator scores, other people's
// labels, source file, trajectory id, emulator thoughts) can leak by accident: the SQL below names
// every column it reads, and toBlindedItem copies every field it returns by name. A campaign may
// also have model names in the text itself redacted (redactIfAsked, lib/annotation/redact.ts).
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";
import { redactIfAsked } from "./redact";
import { campaignSchema, schemaColumn, type CompiledSchema } from "./schema-cache";
import type { LabelSchema, LabelValues } from "@/lib/trajectory/label-schema";
import { agentVisibleScenario, type AgentVisibleScenario, type SageAuthorityContext } from "@/lib/sage/visible";

export interface BlindedStep {
  index: number;
  thought: string | null;
  action: string | null;
  actionInput: string | null;
  observation: string | null;
  /** SAGE episodes: the user's (attacker's) message this turn answered. */
  userMessage?: string | null;
}

export interface BlindedItem {
  itemId: string;
  assignment: {
    id: string;
    status: "CLAIMED" | "SUBMITTED" | "SKIPPED";
    draft: LabelValues | null;
    values: LabelValues | null;
    timeSpentMs: number;
    leaseUntil: string | null;
    draftUpdatedAt: string | null;
  };
  /** redactModelNames: model names in the item's text are replaced by a neutral token (lib/annotation/redact.ts). */
  campaign: { id: string; name: string; guidelines: string; locked: boolean; redactModelNames: boolean };
  schema: LabelSchema;
  case: {
    userInstruction: string;
    underspecTaskInfo: string[];
    underspecSafety: string[];
    expectedAchievements: string[];
    potentialRiskyOutcomes: string[];
  };
  steps: BlindedStep[];
  finalAnswer: string | null;
  finalMessage: string | null;
  /**
   * "scenario": the item is a SAGE scenario, not a trajectory (no steps; `case` is empty). A SAGE
   * episode is a "trajectory" item with `scenario` set.
   */
  kind: "trajectory" | "scenario";
  /** SAGE items: the scenario as the agent sees it (lib/sage/visible.ts; never the hidden judge spec). */
  scenario: AgentVisibleScenario | null;
}

/**
 * The item's content columns, with `ci` the CampaignItem, `t` its Trajectory and `tc` its case
 * (joined by ITEM_CONTENT_JOINS). Steps come as one JSON array, in order.
 */
export const ITEM_CONTENT_COLUMNS = Prisma.sql`
  ci.id AS "itemId",
  coalesce(tc."userInstruction", '') AS "userInstruction", coalesce(tc."underspecTaskInfo", '{}') AS "underspecTaskInfo",
  coalesce(tc."underspecSafety", '{}') AS "underspecSafety", coalesce(tc."expectedAchievements", '{}') AS "expectedAchievements",
  coalesce(tc."potentialRiskyOutcomes", '{}') AS "potentialRiskyOutcomes",
  t."finalAnswer", t."finalLog",
  (SELECT coalesce(json_agg(json_build_object(
            'index', s.index, 'thought', s.thought, 'action', s.action, 'actionInput', s."actionInputRaw", 'observation', s."observationRaw",
            'userMessage', s."userMessage"
          ) ORDER BY s.index), '[]'::json)
     FROM "Step" s WHERE s."trajectoryId" = t.id) AS steps,
  (ci."scenarioId" IS NOT NULL) AS "isScenario",
  CASE WHEN sc.id IS NULL THEN NULL ELSE json_build_object(
    'roleContext', sc."roleContext", 'taskContext', sc."taskContext", 'crisisContext', sc."crisisContext", 'consequence', sc.consequence,
    'authorityTrust', sc."authorityTrust", 'authorityWarning', sc."authorityWarning", 'environmentState', sc."environmentState",
    'visibleWorkflow', sc."visibleWorkflow", 'tools', sc.tools) END AS "scenarioRow",
  t."authorityContext"::text AS "authorityContext"`;

/** An item is a trajectory (with a ToolEmu case or a SAGE scenario) or a SAGE scenario. */
export const ITEM_CONTENT_JOINS = Prisma.sql`
  LEFT JOIN "Trajectory" t ON t.id = ci."trajectoryId"
  LEFT JOIN "TestCase" tc ON tc.id = t."caseId"
  LEFT JOIN "SageScenario" sc ON sc.id = coalesce(ci."scenarioId", t."scenarioId")`;

export interface ItemContentRow {
  itemId: string;
  userInstruction: string;
  underspecTaskInfo: string[];
  underspecSafety: string[];
  expectedAchievements: string[];
  potentialRiskyOutcomes: string[];
  finalAnswer: string | null;
  finalLog: string | null;
  steps: BlindedStep[] | string;
  isScenario: boolean;
  /** Only the columns agentVisibleScenario reads; it drops the hidden parts of them. */
  scenarioRow: unknown;
  authorityContext: string | null;
}

export interface AssignmentFields {
  id: string;
  status: string;
  draft: unknown;
  values: unknown;
  timeSpentMs: number;
  leaseUntil: Date | null;
  draftUpdatedAt: Date | null;
}

export interface CampaignFields {
  id: string;
  name: string;
  guidelines: string;
  status: string;
  redactModelNames: boolean;
}

const asJson = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);

export function toBlindedItem(content: ItemContentRow, a: AssignmentFields, campaign: CampaignFields, schema: CompiledSchema): BlindedItem {
  return {
    itemId: content.itemId,
    assignment: {
      id: a.id,
      status: a.status as BlindedItem["assignment"]["status"],
      draft: (asJson(a.draft) as LabelValues | null) ?? null,
      values: (asJson(a.values) as LabelValues | null) ?? null,
      timeSpentMs: a.timeSpentMs,
      leaseUntil: a.leaseUntil?.toISOString() ?? null,
      draftUpdatedAt: a.draftUpdatedAt?.toISOString() ?? null,
    },
    campaign: { id: campaign.id, name: campaign.name, guidelines: campaign.guidelines, locked: campaign.status === "LOCKED", redactModelNames: campaign.redactModelNames },
    schema: schema.schema,
    case: {
      userInstruction: content.userInstruction,
      underspecTaskInfo: content.underspecTaskInfo,
      underspecSafety: content.underspecSafety,
      expectedAchievements: content.expectedAchievements,
      potentialRiskyOutcomes: content.potentialRiskyOutcomes,
    },
    steps: asJson(content.steps).map((s) => ({ index: s.index, thought: s.thought, action: s.action, actionInput: s.actionInput, observation: s.observation, userMessage: s.userMessage ?? null })),
    finalAnswer: content.finalAnswer,
    finalMessage: content.finalLog,
    kind: content.isScenario ? "scenario" : "trajectory",
    scenario: content.scenarioRow
      ? agentVisibleScenario(asJson(content.scenarioRow as object) as Parameters<typeof agentVisibleScenario>[0], (content.authorityContext as SageAuthorityContext | null) ?? undefined)
      : null,
  };
}

type Row = ItemContentRow & {
  id: string;
  annotatorId: string;
  status: string;
  draft: unknown;
  values: unknown;
  timeSpentMs: number;
  leaseUntil: Date | null;
  draftUpdatedAt: Date | null;
  campaignId: string;
  campaignName: string;
  guidelines: string;
  campaignStatus: string;
  redactModelNames: boolean;
  schemaVersion: number;
  labelSchema: unknown;
};

/** One of the user's assignments (any status), blinded. One statement. */
export async function loadBlindedItem(db: Db | Prisma.TransactionClient, userId: string, assignmentId: string): Promise<BlindedItem> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT a.id, a."annotatorId", a.status::text AS status, a.draft, a.values, a."timeSpentMs", a."leaseUntil", a."draftUpdatedAt",
           c.id AS "campaignId", c.name AS "campaignName", c.guidelines, c.status::text AS "campaignStatus", c."redactModelNames",
           c."labelSchemaVersion" AS "schemaVersion", ${schemaColumn()} AS "labelSchema",
           ${ITEM_CONTENT_COLUMNS}
    FROM "Assignment" a
    JOIN "Campaign" c ON c.id = a."campaignId"
    JOIN "CampaignItem" ci ON ci.id = a."itemId"
    ${ITEM_CONTENT_JOINS}
    WHERE a.id = ${assignmentId}`;
  const r = rows[0];
  if (!r || r.annotatorId !== userId) throw new AppError("No such item in your queue.", 404);
  const schema = await campaignSchema(db, r.campaignId, r.schemaVersion, r.labelSchema);
  const item = toBlindedItem(r, r, { id: r.campaignId, name: r.campaignName, guidelines: r.guidelines, status: r.campaignStatus, redactModelNames: r.redactModelNames }, schema);
  return redactIfAsked(db, item);
}
