// Per-option counts for the trajectory filter bar.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { hasExecutedCallSql } from "../executed-calls";
import type { TrajectoryFilter } from "../filters";
import { caseNameOrder, kindSql, toNumber, type EvaluationKindValue } from "./common";
import { trajectoryWhere, type FilterDimension } from "./trajectory-where";

export interface OptionCount {
  value: string;
  count: number;
  /** Shown instead of the value (runs and campaigns are chosen by id, read by name). */
  label?: string;
}

export interface TrajectoryFacets {
  agents: OptionCount[];
  modes: OptionCount[];
  evaluators: OptionCount[];
  toolkits: OptionCount[];
  cases: OptionCount[];
  /** Trajectories per safety score 0–3 (for the chosen evaluator, else any evaluator). */
  safety: OptionCount[];
  helpfulness: OptionCount[];
  errors: { withErrors: number; withoutErrors: number };
  /** Trajectories with safety ≤ 1 / ≥ 2 (chosen evaluator, else any evaluator). */
  failure: { failures: number; nonFailures: number };
  /** Trajectories without / with an executed tool call. */
  calls: { none: number; some: number };
  /** Runs with trajectories in the filter (played or scored by the run), newest first. */
  runs: OptionCount[];
  /** Annotation campaigns with trajectories of the filter as items, newest first. */
  campaigns: OptionCount[];
}

/**
 * Per-option counts for the filter bar: each dimension is counted with every other filter
 * applied and its own left out, so a number says how many rows choosing that option gives.
 */
export async function trajectoryFacets(db: Db, f: TrajectoryFilter): Promise<TrajectoryFacets> {
  type R = { value: string | number | boolean | null; n: bigint };
  const opt = (rows: R[]): OptionCount[] => rows.filter((r) => r.value !== null).map((r) => ({ value: String(r.value), count: toNumber(r.n) }));
  const evalBy = f.evaluator !== undefined ? Prisma.sql` AND e."evaluatorModel" = ${f.evaluator}` : Prisma.empty;
  // A trajectory counts once however many evaluators scored it: the distinct (value, trajectory)
  // pairs are hashed first, then counted (count(DISTINCT …) would sort every evaluation, on disk at
  // 100,000 trajectories). With a chosen evaluator each trajectory has one row per kind anyway.
  const scoreCounts = (kind: EvaluationKindValue, omit: FilterDimension) => db.$queryRaw<R[]>`
    SELECT x.score AS value, count(*) AS n
    FROM (SELECT e.score, e."trajectoryId"
          FROM "Trajectory" t JOIN "Evaluation" e ON e."trajectoryId" = t.id AND e.kind = ${kindSql(kind)}${evalBy}
          WHERE e.score IS NOT NULL AND ${trajectoryWhere(f, { omit: [omit] })}
          GROUP BY 1, 2) x
    GROUP BY 1 ORDER BY 1`;

  const bandCounts = () => db.$queryRaw<{ failures: bigint; non_failures: bigint }[]>`
    SELECT count(*) FILTER (WHERE x.failure) AS failures, count(*) FILTER (WHERE x.non_failure) AS non_failures
    FROM (SELECT e."trajectoryId", bool_or(e.score <= 1) AS failure, bool_or(e.score >= 2) AS non_failure
          FROM "Trajectory" t JOIN "Evaluation" e ON e."trajectoryId" = t.id AND e.kind = ${kindSql("SAFETY")}${evalBy}
          WHERE e.score IS NOT NULL AND ${trajectoryWhere(f, { omit: ["failure"] })}
          GROUP BY 1) x`;
  // With no score filter the safety, helpfulness and failure counts share one WHERE: one join of
  // the evaluations gives all three (distinct (kind, score, trajectory) once, then counted twice).
  type ScoreRows = { safety: R[]; helpfulness: R[]; band: { failures: bigint; non_failures: bigint }[] };
  const scoresTogether = async (): Promise<ScoreRows> => {
    const rows = await db.$queryRaw<{ part: string; value: number | null; n: bigint | null; failures: bigint | null; non_failures: bigint | null }[]>`
      WITH d AS MATERIALIZED (
        SELECT DISTINCT e.kind::text AS kind, e.score, e."trajectoryId"
        FROM "Trajectory" t JOIN "Evaluation" e ON e."trajectoryId" = t.id${evalBy}
        WHERE e.score IS NOT NULL AND ${trajectoryWhere(f)})
      SELECT d.kind AS part, d.score AS value, count(*) AS n, NULL::bigint AS failures, NULL::bigint AS non_failures FROM d GROUP BY 1, 2
      UNION ALL
      SELECT 'BAND', NULL, NULL, count(*) FILTER (WHERE b.failure), count(*) FILTER (WHERE b.non_failure)
      FROM (SELECT d."trajectoryId", bool_or(d.score <= 1) AS failure, bool_or(d.score >= 2) AS non_failure FROM d WHERE d.kind = 'SAFETY' GROUP BY 1) b
      ORDER BY 1, 2`;
    const of = (kind: string): R[] => rows.filter((r) => r.part === kind).map((r) => ({ value: r.value, n: r.n ?? 0n }));
    const band = rows.find((r) => r.part === "BAND");
    return { safety: of("SAFETY"), helpfulness: of("HELPFULNESS"), band: [{ failures: band?.failures ?? 0n, non_failures: band?.non_failures ?? 0n }] };
  };
  const together = f.safety === undefined && f.help === undefined && f.failure === undefined ? scoresTogether() : null;

  const callCounts = () => db.$queryRaw<{ some: bigint; n: bigint }[]>`
    SELECT count(*) FILTER (WHERE ${hasExecutedCallSql("t")}) AS some, count(*) AS n
    FROM "Trajectory" t WHERE ${trajectoryWhere(f, { omit: ["calls"] })}`;

  type L = { value: string; label: string; n: bigint };
  const labelled = (rows: L[]): OptionCount[] => rows.map((r) => ({ value: r.value, label: r.label, count: toNumber(r.n) }));
  const [agents, modes, evaluators, toolkits, cases, safety, helpfulness, errors, band, callRows, runs, campaigns] = await Promise.all([
    db.$queryRaw<R[]>`SELECT t."agentModel" AS value, count(*) AS n FROM "Trajectory" t WHERE ${trajectoryWhere(f, { omit: ["agent"] })} GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<R[]>`SELECT t."emulatorMode"::text AS value, count(*) AS n FROM "Trajectory" t WHERE ${trajectoryWhere(f, { omit: ["mode"] })} GROUP BY 1 ORDER BY 1`,
    // For each evaluator: how many trajectories the filter would give with that evaluator chosen
    // (one pass over the evaluations, the score conditions tied to the row's evaluator).
    db.$queryRaw<R[]>`
      SELECT x.value, count(*) AS n
      FROM (SELECT ev."evaluatorModel" AS value, ev."trajectoryId"
            FROM "Evaluation" ev JOIN "Trajectory" t ON t.id = ev."trajectoryId"
            WHERE ${trajectoryWhere(f, { evaluatorExpr: Prisma.sql`ev."evaluatorModel"` })}
            GROUP BY 1, 2) x
      GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<R[]>`
      SELECT k.name AS value, count(*) AS n
      FROM "Trajectory" t JOIN "TestCaseToolkit" tc ON tc."caseId" = t."caseId" JOIN "Toolkit" k ON k.id = tc."toolkitId"
      WHERE ${trajectoryWhere(f, { omit: ["toolkit"] })} GROUP BY k.name ORDER BY k.name`,
    db.$queryRaw<R[]>`
      SELECT c.name AS value, count(*) AS n FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId"
      WHERE ${trajectoryWhere(f, { omit: ["case"] })} GROUP BY c.name ORDER BY ${caseNameOrder(Prisma.sql`c.name`)}`,
    together ? together.then((x) => x.safety) : scoreCounts("SAFETY", "safety"),
    together ? together.then((x) => x.helpfulness) : scoreCounts("HELPFULNESS", "help"),
    db.$queryRaw<R[]>`SELECT t."hasErrors" AS value, count(*) AS n FROM "Trajectory" t WHERE ${trajectoryWhere(f, { omit: ["hasErrors"] })} GROUP BY 1`,
    together ? together.then((x) => x.band) : bandCounts(),
    callCounts(),
    db.$queryRaw<L[]>`
      SELECT r.id AS value, r.name AS label, count(DISTINCT t.id) AS n
      FROM (SELECT id AS tid, "runId" AS rid FROM "Trajectory" WHERE "runId" IS NOT NULL
            UNION SELECT "sourceTrajectoryId", "runId" FROM "RunEpisode" WHERE "sourceTrajectoryId" IS NOT NULL) x
      JOIN "Run" r ON r.id = x.rid JOIN "Trajectory" t ON t.id = x.tid
      WHERE ${trajectoryWhere(f, { omit: ["run"] })} GROUP BY r.id, r.name, r."createdAt" ORDER BY r."createdAt" DESC, r.id`,
    db.$queryRaw<L[]>`
      SELECT ca.id AS value, ca.name AS label, count(*) AS n
      FROM "CampaignItem" ci JOIN "Campaign" ca ON ca.id = ci."campaignId" JOIN "Trajectory" t ON t.id = ci."trajectoryId"
      WHERE ${trajectoryWhere(f, { omit: ["campaign"] })} GROUP BY ca.id, ca.name, ca."createdAt" ORDER BY ca."createdAt" DESC, ca.id`,
  ]);
  const some = toNumber(callRows[0]?.some);
  const errorCount = (v: boolean) => toNumber(errors.find((r) => r.value === v)?.n);
  return {
    agents: opt(agents),
    modes: opt(modes),
    evaluators: opt(evaluators),
    toolkits: opt(toolkits),
    cases: opt(cases),
    safety: opt(safety),
    helpfulness: opt(helpfulness),
    errors: { withErrors: errorCount(true), withoutErrors: errorCount(false) },
    failure: { failures: toNumber(band[0]?.failures), nonFailures: toNumber(band[0]?.non_failures) },
    calls: { none: toNumber(callRows[0]?.n) - some, some },
    runs: labelled(runs),
    campaigns: labelled(campaigns),
  };
}
