// Evaluator vs evaluator (multi-judge agreement), server only.
//
//   loadEvaluatorsPanel(db, filter) → everything /dashboards/evaluators shows
//   evaluatorPairCells(db, filter, kind, a, b) → the 4×4 label-pair counts (SQL GROUP BY)
//   evaluatorsCsv(db, filter) → the rows of the panel's CSV (registered in ./csv.ts)
//
// The counting happens in the database: Evaluation a JOIN Evaluation b on the same trajectory and
// kind, filtered by the trajectory filter, GROUP BY (a.score, b.score). κ, raw agreement,
// marginals, mean bias and their bootstrap CIs are then computed from those ≤ 16 counts
// (lib/metrics), whatever the number of trajectories.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  agreementIntervals,
  agreementSummary,
  confusionFromCells,
  SCORE_LABELS,
  type AgreementIntervals,
  type AgreementSummary,
  type ConfusionMatrix,
} from "@/lib/metrics";
import type { DashboardFilter, FilterOption, KindValue } from "./filters";
import { loadFilterOptions, type FilterOptions } from "./options";
import { dashboardWhere, kindSql, toInt } from "./sql";
import { cachedByData } from "./data-version";
import type { CsvRow } from "./csv";

export const EVALUATOR_RESAMPLES = 1000;

export interface PairCells {
  /** Label-pair counts of trajectories both scored (a's score = rater1, b's = rater2). */
  cells: { rater1: number; rater2: number; count: number }[];
  /** Trajectories both evaluated but at least one score could not be parsed (left out). */
  unparsed: number;
}

/** The 4×4 label-pair counts of evaluators a and b for one kind, under the filter. */
export async function evaluatorPairCells(db: Db, filter: DashboardFilter, kind: KindValue, a: string, b: string): Promise<PairCells> {
  const rows = await db.$queryRaw<{ r1: number | null; r2: number | null; n: bigint }[]>`
    SELECT ea.score AS r1, eb.score AS r2, count(*) AS n
    FROM "Evaluation" ea
    JOIN "Evaluation" eb ON eb."trajectoryId" = ea."trajectoryId" AND eb.kind = ea.kind AND eb."evaluatorModel" = ${b}
    JOIN "Trajectory" t ON t.id = ea."trajectoryId"
    WHERE ea.kind = ${kindSql(kind)} AND ea."evaluatorModel" = ${a} AND ${dashboardWhere(filter)}
    GROUP BY ea.score, eb.score`;
  const cells: PairCells["cells"] = [];
  let unparsed = 0;
  for (const r of rows) {
    if (r.r1 === null || r.r2 === null) unparsed += toInt(r.n);
    else cells.push({ rater1: Number(r.r1), rater2: Number(r.r2), count: toInt(r.n) });
  }
  return { cells, unparsed };
}

export interface EvaluatorCount {
  model: string;
  /** Trajectories (under the filter) this evaluator gave a parsed score of this kind. */
  scored: number;
}

/** Evaluators with a score of this kind under the filter, most first. */
async function evaluatorCounts(db: Db, filter: DashboardFilter, kind: KindValue): Promise<EvaluatorCount[]> {
  const rows = await db.$queryRaw<{ model: string; n: bigint }[]>`
    SELECT e."evaluatorModel" AS model, count(*) AS n
    FROM "Evaluation" e JOIN "Trajectory" t ON t.id = e."trajectoryId"
    WHERE e.kind = ${kindSql(kind)} AND e.score IS NOT NULL AND ${dashboardWhere(filter)}
    GROUP BY 1 ORDER BY 2 DESC, 1`;
  return rows.map((r) => ({ model: r.model, scored: toInt(r.n) }));
}

/**
 * Pairs of evaluators by the number of trajectories both scored (this kind, under the filter),
 * most shared first. With `with`, only pairs that include it.
 */
async function sharedPairs(db: Db, filter: DashboardFilter, kind: KindValue, withModel?: string): Promise<{ a: string; b: string; shared: number }[]> {
  const only = withModel === undefined ? Prisma.empty : Prisma.sql` AND (ea."evaluatorModel" = ${withModel} OR eb."evaluatorModel" = ${withModel})`;
  const rows = await db.$queryRaw<{ a: string; b: string; n: bigint }[]>`
    SELECT ea."evaluatorModel" AS a, eb."evaluatorModel" AS b, count(*) AS n
    FROM "Evaluation" ea
    JOIN "Evaluation" eb ON eb."trajectoryId" = ea."trajectoryId" AND eb.kind = ea.kind AND eb."evaluatorModel" > ea."evaluatorModel"
    JOIN "Trajectory" t ON t.id = ea."trajectoryId"
    WHERE ea.kind = ${kindSql(kind)} AND ea.score IS NOT NULL AND eb.score IS NOT NULL AND ${dashboardWhere(filter)}${only}
    GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 50`;
  return rows.map((r) => ({ a: r.a, b: r.b, shared: toInt(r.n) }));
}

/** Code-unit order, independent of the database collation. */
const byName = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

export interface ChosenPair {
  a: string;
  b: string;
  /** "url": both given; "partly": one given, the other defaulted; "default": the most shared pair. */
  source: "url" | "partly" | "default";
}

/** The two evaluators to compare: the URL's, else (the rest of) the pair with most shared trajectories. */
export async function choosePair(db: Db, filter: DashboardFilter, kind: KindValue): Promise<ChosenPair | { reason: string }> {
  const { evaluator: a, evaluatorB: b } = filter;
  if (a !== undefined && b !== undefined) {
    if (a === b) return { reason: "the two evaluators are the same model; choose two different ones" };
    return { a, b, source: "url" };
  }
  const given = a ?? b;
  const pairs = await sharedPairs(db, filter, kind, given);
  const best = pairs[0];
  if (!best) {
    return {
      reason: given
        ? `no other evaluator scored the same trajectories as ${given} (${kind.toLowerCase()}, under this filter)`
        : `no two evaluators scored the same trajectories (${kind.toLowerCase()}, under this filter)`,
    };
  }
  if (given !== undefined) {
    const other = best.a === given ? best.b : best.a;
    return a !== undefined ? { a, b: other, source: "partly" } : { a: other, b: given, source: "partly" };
  }
  const [x, y] = [best.a, best.b].sort(byName) as [string, string];
  return { a: x, b: y, source: "default" };
}

export interface EvaluatorComparison {
  a: string;
  b: string;
  kind: KindValue;
  matrix: ConfusionMatrix;
  summary: AgreementSummary;
  intervals: AgreementIntervals;
  unparsed: number;
  seed: number;
  resamples: number;
}

/** κ variants, raw agreement, marginals, mean bias and CIs for a and b — from SQL counts. */
export async function compareEvaluators(db: Db, filter: DashboardFilter, kind: KindValue, a: string, b: string): Promise<EvaluatorComparison> {
  const { cells, unparsed } = await evaluatorPairCells(db, filter, kind, a, b);
  const matrix = confusionFromCells(cells, SCORE_LABELS);
  return {
    a,
    b,
    kind,
    matrix,
    summary: agreementSummary(matrix),
    intervals: agreementIntervals(matrix, { seed: filter.seed, resamples: EVALUATOR_RESAMPLES }),
    unparsed,
    seed: filter.seed,
    resamples: EVALUATOR_RESAMPLES,
  };
}

export interface EvaluatorsPanel {
  filter: DashboardFilter;
  kind: KindValue;
  options: FilterOptions;
  /** Evaluators with scores of this kind under the filter (for the A / B selects). */
  evaluators: FilterOption[];
  /** Trajectories under the filter (any evaluator, scored or not). */
  trajectories: number;
  pair: ChosenPair | null;
  /** Why there is no comparison (no pair, same model, …). */
  reason?: string;
  comparison: EvaluatorComparison | null;
}

/** The one query of /dashboards/evaluators, kept per data version and filter (./data-version.ts). */
export function loadEvaluatorsPanel(db: Db, filter: DashboardFilter): Promise<EvaluatorsPanel> {
  return cachedByData(db, ["evaluatorsPanel", filter], () => computeEvaluatorsPanel(db, filter));
}

async function computeEvaluatorsPanel(db: Db, filter: DashboardFilter): Promise<EvaluatorsPanel> {
  const kind: KindValue = filter.kind ?? "SAFETY";
  const [options, counts, pair, total] = await Promise.all([
    loadFilterOptions(db),
    evaluatorCounts(db, filter, kind),
    choosePair(db, filter, kind),
    db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "Trajectory" t WHERE ${dashboardWhere(filter)}`,
  ]);
  const evaluators = counts.map((c) => ({ value: c.model, count: c.scored }));
  const base = { filter, kind, options, evaluators, trajectories: toInt(total[0]?.n) };
  if ("reason" in pair) return { ...base, pair: null, reason: pair.reason, comparison: null };
  const comparison = await compareEvaluators(db, filter, kind, pair.a, pair.b);
  return { ...base, pair, comparison };
}

// ---------------------------------------------------------------------------------------------
// CSV: one long table — the statistics with their CIs, then the 16 confusion counts.

export const EVALUATORS_CSV_COLUMNS = [
  "section",
  "statistic",
  "kind",
  "evaluator_a",
  "evaluator_b",
  "score_a",
  "score_b",
  "value",
  "ci_lower",
  "ci_upper",
  "n",
  "seed",
  "resamples",
  "note",
] as const;

export async function evaluatorsCsv(db: Db, filter: DashboardFilter): Promise<CsvRow[]> {
  const kind: KindValue = filter.kind ?? "SAFETY";
  const pair = await choosePair(db, filter, kind);
  if ("reason" in pair) return [];
  const c = await compareEvaluators(db, filter, kind, pair.a, pair.b);
  const common = { kind, evaluator_a: c.a, evaluator_b: c.b };
  const rows: CsvRow[] = [];
  const stat = (statistic: string, e: { value?: number; undefined?: true; reason?: string }, ci: AgreementIntervals[keyof AgreementIntervals], n: number) =>
    rows.push({
      section: "agreement",
      statistic,
      ...common,
      value: e.undefined ? null : e.value,
      ci_lower: ci.undefined ? null : ci.lower,
      ci_upper: ci.undefined ? null : ci.upper,
      n,
      seed: c.seed,
      resamples: c.resamples,
      note: e.undefined ? `undefined: ${e.reason}` : ci.undefined ? `CI undefined: ${ci.reason}` : "",
    });
  for (const v of ["categorical", "linear", "quadratic", "binarized"] as const) stat(`kappa_${v}`, c.summary.kappa[v], c.intervals[v], c.summary.n);
  stat("raw_agreement", c.summary.rawAgreement, c.intervals.rawAgreement, c.summary.n);
  stat("mean_bias_b_minus_a", c.summary.meanBias, c.intervals.meanBias, c.summary.n);
  c.matrix.labels.forEach((la, i) =>
    c.matrix.labels.forEach((lb, j) => rows.push({ section: "confusion", statistic: "count", ...common, score_a: la, score_b: lb, value: c.matrix.counts[i]![j]!, n: c.summary.n })),
  );
  c.summary.marginals.labels.forEach((l, i) => {
    rows.push({ section: "marginal", statistic: "count_a", ...common, score_a: l, value: c.summary.marginals.rater1[i]!, n: c.summary.n });
    rows.push({ section: "marginal", statistic: "count_b", ...common, score_b: l, value: c.summary.marginals.rater2[i]!, n: c.summary.n });
  });
  if (c.unparsed > 0) rows.push({ section: "excluded", statistic: "unparsed_score", ...common, value: c.unparsed, note: "both evaluated, at least one score unparsable" });
  return rows;
}
