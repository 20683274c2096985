// What the dashboard filter bars offer, and what data exists (server only).
//
// API:
//   loadFilterOptions(db)  → { agents, toolkits, campaigns, evaluators }  FilterOption[] each
//       (value + label + count of trajectories / evaluations), in a stable order. Counts are
//       over all data, not the current filter, so a choice never disappears under another.
//       Kept per data version (./data-version.ts): every dashboard shows them.
//   loadDataOverview(db)   → counts of trajectories, cases, evaluators, evaluations, campaigns,
//       human labels (submitted assignments), agents, per emulator mode. Kept per data version
//       and every campaign's label counter (a submit, revision or un-submit changes the counts).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { FilterOption } from "./filters";
import { toInt } from "./sql";
import { cachedByData } from "./data-version";

type Option = FilterOption;

export interface FilterOptions {
  agents: Option[];
  toolkits: Option[];
  campaigns: Option[];
  /** Evaluator models with the number of trajectories each scored (either kind). */
  evaluators: Option[];
}

export function loadFilterOptions(db: Db): Promise<FilterOptions> {
  return cachedByData(db, ["filterOptions"], () => computeFilterOptions(db));
}

async function computeFilterOptions(db: Db): Promise<FilterOptions> {
  const [agents, toolkits, campaigns, evaluators] = await Promise.all([
    db.$queryRaw<{ value: string; n: bigint }[]>`
      SELECT t."agentModel" AS value, count(*) AS n FROM "Trajectory" t GROUP BY 1 ORDER BY 2 DESC, 1`,
    db.$queryRaw<{ value: string; n: bigint }[]>`
      SELECT k.name AS value, count(t.id) AS n
      FROM "Toolkit" k JOIN "TestCaseToolkit" tc ON tc."toolkitId" = k.id JOIN "Trajectory" t ON t."caseId" = tc."caseId"
      GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ value: string; label: string; n: bigint }[]>`
      SELECT c.id AS value, c.name AS label, count(ci.id) AS n
      FROM "Campaign" c LEFT JOIN "CampaignItem" ci ON ci."campaignId" = c.id
      GROUP BY c.id, c.name, c."createdAt" ORDER BY c."createdAt" DESC, c.id`,
    // Distinct (evaluator, trajectory) pairs by hashing, then counted: count(DISTINCT …) would sort
    // every evaluation, on disk once there are many.
    db.$queryRaw<{ value: string; n: bigint }[]>`
      SELECT x."evaluatorModel" AS value, count(*) AS n
      FROM (SELECT e."evaluatorModel", e."trajectoryId" FROM "Evaluation" e GROUP BY 1, 2) x
      GROUP BY 1 ORDER BY 2 DESC, 1`,
  ]);
  return {
    agents: agents.map((r) => ({ value: r.value, count: toInt(r.n) })),
    toolkits: toolkits.map((r) => ({ value: r.value, count: toInt(r.n) })),
    campaigns: campaigns.map((r) => ({ value: r.value, label: r.label, count: toInt(r.n) })),
    evaluators: evaluators.map((r) => ({ value: r.value, count: toInt(r.n) })),
  };
}

export interface DataOverview {
  trajectories: number;
  cases: number;
  agents: number;
  byMode: { mode: string; trajectories: number }[];
  evaluators: { model: string; safety: number; helpfulness: number }[];
  evaluations: number;
  campaigns: number;
  campaignItems: number;
  /** Submitted human labels (one per annotator per item). */
  humanLabels: number;
  /** Items with at least one submitted human label. */
  labelledItems: number;
}

export function loadDataOverview(db: Db): Promise<DataOverview> {
  return cachedByData(db, ["dataOverview"], () => computeDataOverview(db), ["labels"]);
}

/** The overview as the database has it now (uncached; the test compares the kept value with it). */
export async function computeDataOverview(db: Db): Promise<DataOverview> {
  const [counts, byMode, evaluators, labels] = await Promise.all([
    db.$queryRaw<{ trajectories: bigint; cases: bigint; agents: bigint; evaluations: bigint; campaigns: bigint; items: bigint }[]>`
      SELECT (SELECT count(*) FROM "Trajectory") AS trajectories,
             (SELECT count(DISTINCT "caseId") FROM "Trajectory") AS cases,
             (SELECT count(DISTINCT "agentModel") FROM "Trajectory") AS agents,
             (SELECT count(*) FROM "Evaluation") AS evaluations,
             (SELECT count(*) FROM "Campaign") AS campaigns,
             (SELECT count(*) FROM "CampaignItem") AS items`,
    db.$queryRaw<{ mode: string; n: bigint }[]>`
      SELECT t."emulatorMode"::text AS mode, count(*) AS n FROM "Trajectory" t GROUP BY 1 ORDER BY 1 DESC`,
    db.$queryRaw<{ model: string; safety: bigint; helpfulness: bigint }[]>`
      SELECT e."evaluatorModel" AS model,
             count(*) FILTER (WHERE e.kind = 'SAFETY') AS safety,
             count(*) FILTER (WHERE e.kind = 'HELPFULNESS') AS helpfulness
      FROM "Evaluation" e GROUP BY 1 ORDER BY count(*) DESC, 1`,
    db.$queryRaw<{ labels: bigint; items: bigint }[]>`
      SELECT count(*) AS labels, count(DISTINCT a."itemId") AS items FROM "Assignment" a WHERE a.status = 'SUBMITTED'`,
  ]);
  const c = counts[0];
  return {
    trajectories: toInt(c?.trajectories),
    cases: toInt(c?.cases),
    agents: toInt(c?.agents),
    byMode: byMode.map((r) => ({ mode: r.mode, trajectories: toInt(r.n) })),
    evaluators: evaluators.map((r) => ({ model: r.model, safety: toInt(r.safety), helpfulness: toInt(r.helpfulness) })),
    evaluations: toInt(c?.evaluations),
    campaigns: toInt(c?.campaigns),
    campaignItems: toInt(c?.items),
    humanLabels: toInt(labels[0]?.labels),
    labelledItems: toInt(labels[0]?.items),
  };
}
