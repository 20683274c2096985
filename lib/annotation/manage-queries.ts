// Read models for the staff side of campaigns (create form, adjudication view, export name).
// Unblinded: only for callers that hold campaign:manage.
import type { Db } from "@/lib/db/client";
import type { Role } from "@/lib/auth/permissions";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { countTrajectories, orderedTrajectoryIds } from "@/lib/toolemu/queries/trajectories";
import { trajectoryFacets } from "@/lib/toolemu/queries/trajectory-facets";
import { offlineTrajectoryIds } from "./campaigns";
import { parseLabelSchema, scoreOf, type LabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";

export interface InvitableUser {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** Active users who can be invited to label (every role may label when invited), annotators first. */
async function listInvitableUsers(db: Db): Promise<InvitableUser[]> {
  const users = await db.user.findMany({ where: { disabled: false }, select: { id: true, name: true, email: true, role: true } });
  const rank: Record<Role, number> = { ANNOTATOR: 0, RESEARCHER: 1, PI: 2, ADMIN: 3 };
  return users.sort((a, b) => rank[a.role] - rank[b.role] || a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
}

/** What the "new campaign" form needs: invitable users and the option lists of the trajectory filter. */
export async function newCampaignFormData(db: Db) {
  const [users, facets, total, subcategories, sageEpisodes] = await Promise.all([
    listInvitableUsers(db),
    trajectoryFacets(db, { sort: "newest", page: 1 }),
    countTrajectories(db, { sort: "newest", page: 1 }),
    // SAGE: scenario and episode campaigns (issue 14 item 7).
    db.sageSubcategory.findMany({ orderBy: [{ dimension: { position: "asc" } }, { position: "asc" }], select: { key: true, name: true, _count: { select: { scenarios: true } } } }),
    db.trajectory.count({ where: { scenarioId: { not: null } } }),
  ]);
  return {
    users,
    facets: { agents: facets.agents, modes: facets.modes, toolkits: facets.toolkits },
    totalTrajectories: total,
    sage: { subcategories: subcategories.map((s) => ({ key: s.key, name: s.name, scenarios: s._count.scenarios })), episodes: sageEpisodes },
  };
}

export interface SelectionPreview {
  /** Trajectories the campaign would draw from (offline-model ones left out unless included). */
  matching: number;
  /** Offline-model trajectories the filter matched and the campaign leaves out (0 when included). */
  offlineExcluded: number;
  /** Agent model × emulator mode cells of the matching trajectories (the strata of a stratified sample). */
  strata: { agentModel: string; emulatorMode: string; count: number }[];
}

/**
 * How many trajectories a filter (URL-style params) matches, and how they split into strata —
 * computed exactly as createCampaign selects them (same filter parsing, same id list).
 */
export async function previewSelection(db: Db, params: Record<string, string>, includeOffline = false): Promise<SelectionPreview> {
  const all = await orderedTrajectoryIds(db, parseTrajectoryFilter(params));
  const offline = includeOffline ? new Set<string>() : await offlineTrajectoryIds(db, all);
  const ids = offline.size ? all.filter((id) => !offline.has(id)) : all;
  if (ids.length === 0) return { matching: 0, offlineExcluded: offline.size, strata: [] };
  const strata = await db.trajectory.groupBy({
    by: ["agentModel", "emulatorMode"],
    where: { id: { in: ids } },
    _count: { _all: true },
    orderBy: [{ agentModel: "asc" }, { emulatorMode: "asc" }],
  });
  return { matching: ids.length, offlineExcluded: offline.size, strata: strata.map((s) => ({ agentModel: s.agentModel, emulatorMode: s.emulatorMode, count: s._count._all })) };
}

/** The campaign's name (for download file names), or null. */
export async function campaignName(db: Db, campaignId: string): Promise<string | null> {
  const c = await db.campaign.findUnique({ where: { id: campaignId }, select: { name: true } });
  return c?.name ?? null;
}

export interface AdjudicationItem {
  campaign: { id: string; name: string; locked: boolean; k: number; schema: LabelSchema };
  item: {
    id: string;
    trajectoryId: string;
    caseName: string;
    instruction: string;
    agentModel: string;
    emulatorModel: string;
    emulatorMode: string;
  };
  labels: { assignmentId: string; annotator: string; email: string; values: LabelValues; submittedAt: Date | null; updatedAt: Date; timeSpentMs: number }[];
  skipped: { assignmentId: string; annotator: string; reason: string | null; at: Date }[];
  inProgress: number;
  safetySpread: number | null;
  adjudication: { values: LabelValues; reason: string; adjudicator: string | null; createdAt: Date; updatedAt: Date } | null;
}

/** One item of a campaign with every submitted label, unblinded; null when the item is not in that campaign. */
export async function adjudicationItem(db: Db, campaignId: string, itemId: string): Promise<AdjudicationItem | null> {
  const it = await db.campaignItem.findFirst({
    where: { id: itemId, campaignId },
    select: {
      id: true,
      campaign: { select: { id: true, name: true, status: true, k: true, labelSchema: true } },
      trajectory: { select: { id: true, agentModel: true, emulatorModel: true, emulatorMode: true, case: { select: { name: true, userInstruction: true } }, scenario: { select: { instanceId: true, taskContext: true } } } },
      scenario: { select: { instanceId: true, taskContext: true } },
      assignments: {
        orderBy: [{ submittedAt: "asc" }, { claimedAt: "asc" }],
        select: { id: true, status: true, values: true, submittedAt: true, updatedAt: true, timeSpentMs: true, skipReason: true, annotator: { select: { name: true, email: true } } },
      },
      adjudication: { select: { values: true, reason: true, createdAt: true, updatedAt: true, adjudicator: { select: { name: true } } } },
    },
  });
  if (!it) return null;
  const schema = parseLabelSchema(it.campaign.labelSchema);
  const submitted = it.assignments.filter((a) => a.status === "SUBMITTED");
  const scores = submitted.map((a) => scoreOf(schema, "safety", (a.values as LabelValues | null)?.safety)).filter((s): s is number => s !== null);
  return {
    campaign: { id: it.campaign.id, name: it.campaign.name, locked: it.campaign.status === "LOCKED", k: it.campaign.k, schema },
    item: {
      id: it.id,
      // A scenario item has no trajectory: its scenario stands for the case.
      trajectoryId: it.trajectory?.id ?? "",
      caseName: it.trajectory?.case?.name ?? it.trajectory?.scenario?.instanceId ?? it.scenario?.instanceId ?? "",
      instruction: it.trajectory?.case?.userInstruction ?? it.trajectory?.scenario?.taskContext ?? it.scenario?.taskContext ?? "",
      agentModel: it.trajectory?.agentModel ?? "",
      emulatorModel: it.trajectory?.emulatorModel ?? "",
      emulatorMode: it.trajectory?.emulatorMode ?? "",
    },
    labels: submitted.map((a) => ({
      assignmentId: a.id,
      annotator: a.annotator.name,
      email: a.annotator.email,
      values: (a.values as LabelValues | null) ?? {},
      submittedAt: a.submittedAt,
      updatedAt: a.updatedAt,
      timeSpentMs: a.timeSpentMs,
    })),
    skipped: it.assignments.filter((a) => a.status === "SKIPPED").map((a) => ({ assignmentId: a.id, annotator: a.annotator.name, reason: a.skipReason, at: a.updatedAt })),
    inProgress: it.assignments.filter((a) => a.status === "CLAIMED").length,
    safetySpread: scores.length >= 2 ? Math.max(...scores) - Math.min(...scores) : null,
    adjudication: it.adjudication
      ? { values: it.adjudication.values as LabelValues, reason: it.adjudication.reason, adjudicator: it.adjudication.adjudicator?.name ?? null, createdAt: it.adjudication.createdAt, updatedAt: it.adjudication.updatedAt }
      : null,
  };
}
