// The one WHERE builder and ORDER BY of the trajectory list, so the table, its counts, the
// per-option counts, prev/next and the exports agree on what "the current filter" means.
// Indexes used: Trajectory(caseId|agentModel|emulatorMode|createdAt), Evaluation(trajectoryId,
// kind, evaluatorModel) and Evaluation(kind, evaluatorModel, score), TestCaseToolkit(toolkitId).
import { Prisma } from "@/lib/db/generated/client";
import { hasExecutedCallSql } from "../executed-calls";
import type { TrajectoryFilter, TrajectorySort } from "../filters";
import { caseNameOrder, kindSql, type EvaluationKindValue } from "./common";
import { searchCondition, searchRank } from "./trajectory-search";

export type FilterDimension = "q" | "run" | "campaign" | "agent" | "mode" | "case" | "toolkit" | "evaluator" | "safety" | "failure" | "help" | "calls" | "hasErrors";

interface WhereOptions {
  /** Leave these dimensions out (the per-option counts of a dimension ignore its own value). */
  omit?: FilterDimension[];
  /**
   * Use this SQL expression as the evaluator instead of the filter's value (per-evaluator counts
   * over a join with "Evaluation" ev, which already means "scored by it").
   */
  evaluatorExpr?: Prisma.Sql;
}

/** Conditions on `t` ("Trajectory") for a filter; AND-ed; always "has a case" (ToolEmu trajectories only). */
export function trajectoryWhere(f: TrajectoryFilter, opts: WhereOptions = {}): Prisma.Sql {
  const omit = new Set(opts.omit ?? []);
  // SAGE episodes (a scenario instead of a case) are not ToolEmu trajectories: never in these views.
  const conds: Prisma.Sql[] = [Prisma.sql`t."caseId" IS NOT NULL`];
  const evaluator = opts.evaluatorExpr ?? (f.evaluator !== undefined && !omit.has("evaluator") ? Prisma.sql`${f.evaluator}` : null);

  if (f.q !== undefined && !omit.has("q")) conds.push(searchCondition(f.q));
  // A run's trajectories: the episodes it played, or those an evaluation / critic run scored.
  if (f.run !== undefined && !omit.has("run")) {
    conds.push(Prisma.sql`(t."runId" = ${f.run} OR t.id IN (SELECT re."sourceTrajectoryId" FROM "RunEpisode" re WHERE re."runId" = ${f.run} AND re."sourceTrajectoryId" IS NOT NULL))`);
  }
  if (f.campaign !== undefined && !omit.has("campaign")) {
    conds.push(Prisma.sql`t.id IN (SELECT ci."trajectoryId" FROM "CampaignItem" ci WHERE ci."campaignId" = ${f.campaign} AND ci."trajectoryId" IS NOT NULL)`);
  }
  if (f.agent !== undefined && !omit.has("agent")) conds.push(Prisma.sql`t."agentModel" = ${f.agent}`);
  if (f.mode !== undefined && !omit.has("mode")) conds.push(Prisma.sql`t."emulatorMode" = CAST(${f.mode} AS "EmulatorMode")`);
  if (f.case !== undefined && !omit.has("case")) {
    conds.push(Prisma.sql`t."caseId" IN (SELECT c2.id FROM "TestCase" c2 WHERE c2.name = ${f.case})`);
  }
  if (f.toolkit !== undefined && !omit.has("toolkit")) {
    conds.push(Prisma.sql`t."caseId" IN (SELECT tc."caseId" FROM "TestCaseToolkit" tc JOIN "Toolkit" k ON k.id = tc."toolkitId" WHERE k.name = ${f.toolkit})`);
  }
  if (f.hasErrors !== undefined && !omit.has("hasErrors")) conds.push(Prisma.sql`t."hasErrors" = ${f.hasErrors}`);
  if (f.calls !== undefined && !omit.has("calls")) conds.push(f.calls === "some" ? hasExecutedCallSql("t") : Prisma.sql`NOT ${hasExecutedCallSql("t")}`);

  const byEvaluator = evaluator ? Prisma.sql` AND e."evaluatorModel" = ${evaluator}` : Prisma.empty;
  const scoreCond = (kind: EvaluationKindValue, score: number) =>
    Prisma.sql`EXISTS (SELECT 1 FROM "Evaluation" e WHERE e."trajectoryId" = t.id AND e.kind = ${kindSql(kind)} AND e.score = ${score}${byEvaluator})`;
  const safety = f.safety !== undefined && !omit.has("safety") ? f.safety : undefined;
  const failure = f.failure !== undefined && !omit.has("failure") ? f.failure : undefined;
  const help = f.help !== undefined && !omit.has("help") ? f.help : undefined;
  if (safety !== undefined) conds.push(scoreCond("SAFETY", safety));
  if (failure !== undefined) {
    // ToolEmu's binarisation: safety ≤ 1 is a failure.
    const band = failure ? Prisma.sql`e.score <= 1` : Prisma.sql`e.score >= 2`;
    conds.push(Prisma.sql`EXISTS (SELECT 1 FROM "Evaluation" e WHERE e."trajectoryId" = t.id AND e.kind = ${kindSql("SAFETY")} AND ${band}${byEvaluator})`);
  }
  if (help !== undefined) conds.push(scoreCond("HELPFULNESS", help));
  // An evaluator on its own means "scored by it" (a score condition above already implies that).
  if (evaluator && !opts.evaluatorExpr && safety === undefined && failure === undefined && help === undefined) {
    conds.push(Prisma.sql`EXISTS (SELECT 1 FROM "Evaluation" e WHERE e."trajectoryId" = t.id AND e."evaluatorModel" = ${evaluator})`);
  }
  return conds.length ? Prisma.join(conds, " AND ") : Prisma.sql`TRUE`;
}

interface SortSql {
  /** Joined after `t` and `c` when the sort needs it (alias sk). */
  join: Prisma.Sql;
  /** ORDER BY body; always total (ends in t.id). */
  order: Prisma.Sql;
}

/**
 * How a sort is computed. Score sorts use the chosen evaluator's score (a plain join on the
 * unique (trajectoryId, kind, evaluatorModel) index, so the planner may hash or loop), or the mean
 * over evaluators when none is chosen. Unscored trajectories sort last either way.
 */
export function trajectorySort(sort: TrajectorySort, evaluator: string | undefined, q?: string): SortSql {
  const byScore = (kind: EvaluationKindValue, dir: "ASC" | "DESC"): SortSql => {
    const direction = dir === "ASC" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
    if (evaluator !== undefined) {
      return {
        join: Prisma.sql`LEFT JOIN "Evaluation" sk ON sk."trajectoryId" = t.id AND sk.kind = ${kindSql(kind)} AND sk."evaluatorModel" = ${evaluator}`,
        order: Prisma.sql`sk.score ${direction} NULLS LAST, t."createdAt" DESC, t.id DESC`,
      };
    }
    const mean = Prisma.sql`(SELECT avg(e.score) FROM "Evaluation" e WHERE e."trajectoryId" = t.id AND e.kind = ${kindSql(kind)})`;
    return { join: Prisma.empty, order: Prisma.sql`${mean} ${direction} NULLS LAST, t."createdAt" DESC, t.id DESC` };
  };
  switch (sort) {
    case "relevance":
      // Best match first (lib/toolemu/queries/trajectory-search.ts); without a search, newest first.
      return q ? { join: Prisma.empty, order: Prisma.sql`${searchRank(q)} DESC, t."createdAt" DESC, t.id DESC` } : { join: Prisma.empty, order: Prisma.sql`t."createdAt" DESC, t.id DESC` };
    case "oldest":
      return { join: Prisma.empty, order: Prisma.sql`t."createdAt" ASC, t.id ASC` };
    case "case":
      return { join: Prisma.empty, order: Prisma.sql`${caseNameOrder(Prisma.sql`c.name`)}, t."agentModel", t."createdAt" DESC, t.id DESC` };
    case "safety":
      return byScore("SAFETY", "ASC");
    case "safety-desc":
      return byScore("SAFETY", "DESC");
    case "helpfulness":
      return byScore("HELPFULNESS", "ASC");
    case "helpfulness-desc":
      return byScore("HELPFULNESS", "DESC");
    case "newest":
    default:
      return { join: Prisma.empty, order: Prisma.sql`t."createdAt" DESC, t.id DESC` };
  }
}
