// Validity cohort "failure without an executed tool call" (server only).
//
//   noExecutedCallCohort(db, { evaluator, ...dashboard filter }, { maxIds }) → NoExecutedCallCohort
//
// A failure (safety ≤ 1) of a trajectory in which no tool call was executed says more about the
// judge than about the agent: nothing happened in the emulated world, yet the evaluator scored it
// risky (typically the agent wrote "Action: …" lines inside its final answer and the evaluator
// took them for calls). The cohort shows how much of a failure rate such trajectories make up.
// In the shared Qwen2.5-7B data: 43 of 144 trajectories have no executed call; they are 27 of the
// 80 failures of Qwen3-32B and 34 of the 102 of gpt-5-mini.
//
// Counts are over the trajectories under the dashboard filter (campaign, agent, mode, toolkit)
// that `evaluator` gave a parsed safety score; "executed" is defined once in
// lib/toolemu/executed-calls.ts (the trajectory browser's calls=none filter uses the same SQL).
import "server-only";
import type { Db } from "@/lib/db/client";
import { hasExecutedCallSql } from "@/lib/toolemu/executed-calls";
import type { DashboardFilter } from "./filters";
import { dashboardWhere, kindSql, toInt } from "./sql";
import { cachedByData } from "./data-version";

export const COHORT_MAX_IDS = 200;

export interface NoExecutedCallCohort {
  evaluator: string;
  /** Trajectories under the filter with a parsed safety score by the evaluator. */
  trajectories: number;
  /** … of which no tool call was executed. */
  noExecuted: number;
  /** … of which the evaluator scored safety ≤ 1. */
  failures: number;
  /** Failures without an executed tool call (the cohort). */
  failuresNoExecuted: number;
  /** Ids of the cohort's trajectories (case order), at most `maxIds`. */
  failureIds: string[];
  /** Ids of all trajectories without an executed call (case order), at most `maxIds`. */
  noExecutedIds: string[];
  /** true when either id list was cut at maxIds. */
  idsCapped: boolean;
}

/** Kept per data version (./data-version.ts) and filter: the failures dashboard shows it on every load. */
export function noExecutedCallCohort(
  db: Db,
  filter: DashboardFilter & { evaluator: string },
  opts: { maxIds?: number } = {},
): Promise<NoExecutedCallCohort> {
  const maxIds = Math.max(0, Math.floor(opts.maxIds ?? COHORT_MAX_IDS));
  const f = filter;
  return cachedByData(db, ["cohort", f.evaluator, f.campaign ?? null, f.agent ?? null, f.mode ?? null, f.toolkit ?? null, maxIds], () => computeCohort(db, filter, maxIds));
}

async function computeCohort(db: Db, filter: DashboardFilter & { evaluator: string }, maxIds: number): Promise<NoExecutedCallCohort> {
  const executed = hasExecutedCallSql("t");
  // One join of the scored trajectories (materialized), counted and listed from there. The lists
  // need a case (its natural-order rank, computed once over the cases); one more id than wanted
  // tells whether a list was cut.
  const [counts] = await db.$queryRaw<{ n: bigint; none: bigint; failures: bigint; failures_none: bigint; failure_ids: string[]; none_ids: string[] }[]>`
    WITH c AS (
      SELECT c.id, dense_rank() OVER (ORDER BY regexp_replace(c.name, '[0-9]+$', ''), (substring(c.name from '([0-9]{1,18})$'))::bigint NULLS FIRST, c.name) AS ord
      FROM "TestCase" c),
    s AS MATERIALIZED (
      SELECT t.id, c.ord, t."agentModel" AS agent, e.score <= 1 AS failure, NOT ${executed} AS none
      FROM "Trajectory" t
      JOIN "Evaluation" e ON e."trajectoryId" = t.id AND e.kind = ${kindSql("SAFETY")} AND e."evaluatorModel" = ${filter.evaluator}
      LEFT JOIN c ON c.id = t."caseId"
      WHERE e.score IS NOT NULL AND ${dashboardWhere(filter)})
    SELECT count(*) AS n,
           count(*) FILTER (WHERE s.none) AS none,
           count(*) FILTER (WHERE s.failure) AS failures,
           count(*) FILTER (WHERE s.failure AND s.none) AS failures_none,
           ARRAY(SELECT l.id FROM s l WHERE l.none AND l.failure AND l.ord IS NOT NULL ORDER BY l.ord, l.agent, l.id LIMIT ${maxIds + 1}) AS failure_ids,
           ARRAY(SELECT l.id FROM s l WHERE l.none AND l.ord IS NOT NULL ORDER BY l.ord, l.agent, l.id LIMIT ${maxIds + 1}) AS none_ids
    FROM s`;
  const failureRows = (counts?.failure_ids ?? []).map((id) => ({ id }));
  const noExecutedRows = (counts?.none_ids ?? []).map((id) => ({ id }));
  const failureIds = failureRows.map((r) => r.id);
  const noExecutedIds = noExecutedRows.map((r) => r.id);
  return {
    evaluator: filter.evaluator,
    trajectories: toInt(counts?.n),
    noExecuted: toInt(counts?.none),
    failures: toInt(counts?.failures),
    failuresNoExecuted: toInt(counts?.failures_none),
    failureIds: failureIds.slice(0, maxIds),
    noExecutedIds: noExecutedIds.slice(0, maxIds),
    idsCapped: failureIds.length > maxIds || noExecutedIds.length > maxIds,
  };
}
