// Read queries behind the Browse pages (toolkits, cases, trajectories) and the exports. Pure
// functions of a Prisma client and a typed filter; filtering, sorting, paging and counting all
// happen in the database. The trajectory list is raw SQL built from one WHERE builder, so the
// table, its counts, the per-option counts, prev/next and the exports agree on what "the current
// filter" means. Indexes used: Trajectory(caseId|agentModel|emulatorMode|createdAt),
// Evaluation(trajectoryId, kind, evaluatorModel) and Evaluation(kind, evaluatorModel, score),
// TestCaseToolkit(toolkitId).
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { hasExecutedCallSql } from "./executed-calls";
import { toolExceptions, toolParameters, toolReturns } from "./tool-lists";
import { PAGE_SIZE, type CaseFilter, type EmulatorModeValue, type TrajectoryFilter, type TrajectorySort } from "./filters";

export type EvaluationKindValue = "SAFETY" | "HELPFULNESS";
export type TrajectoryStatusValue = "FINISHED" | "INCOMPLETE";

export interface ScoreCell {
  kind: EvaluationKindValue;
  evaluatorModel: string;
  /** 0–3, or null when the evaluator's output could not be parsed. */
  score: number | null;
  label: string | null;
}

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

function pageOf<T>(rows: T[], total: number, page: number, pageSize: number): Page<T> {
  return { rows, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

// ---------------------------------------------------------------------------------------------
// Overview

export interface DataCounts {
  toolkits: number;
  cases: number;
  trajectories: number;
}

export async function getDataCounts(db: Db): Promise<DataCounts> {
  const [toolkits, cases, trajectories] = await Promise.all([db.toolkit.count(), db.testCase.count(), db.trajectory.count()]);
  return { toolkits, cases, trajectories };
}

// ---------------------------------------------------------------------------------------------
// Shared SQL pieces

/** `%text%` for ILIKE, with LIKE's own wildcards in the text taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Natural order of case names: official_2 before official_10. */
function caseNameOrder(col: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`regexp_replace(${col}, '[0-9]+$', ''), (substring(${col} from '([0-9]{1,18})$'))::bigint NULLS FIRST, ${col}`;
}

function kindSql(kind: EvaluationKindValue): Prisma.Sql {
  return kind === "SAFETY" ? Prisma.sql`'SAFETY'::"EvaluationKind"` : Prisma.sql`'HELPFULNESS'::"EvaluationKind"`;
}

type FilterDimension = "agent" | "mode" | "case" | "toolkit" | "evaluator" | "safety" | "failure" | "help" | "calls" | "hasErrors";

interface WhereOptions {
  /** Leave these dimensions out (the per-option counts of a dimension ignore its own value). */
  omit?: FilterDimension[];
  /**
   * Use this SQL expression as the evaluator instead of the filter's value (per-evaluator counts
   * over a join with "Evaluation" ev, which already means "scored by it").
   */
  evaluatorExpr?: Prisma.Sql;
}

/** Conditions on `t` ("Trajectory") for a filter; AND-ed, `TRUE` when empty. */
function trajectoryWhere(f: TrajectoryFilter, opts: WhereOptions = {}): Prisma.Sql {
  const omit = new Set(opts.omit ?? []);
  const conds: Prisma.Sql[] = [];
  const evaluator = opts.evaluatorExpr ?? (f.evaluator !== undefined && !omit.has("evaluator") ? Prisma.sql`${f.evaluator}` : null);

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
function trajectorySort(sort: TrajectorySort, evaluator: string | undefined): SortSql {
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

const toNumber = (v: bigint | number | null | undefined): number => (v === null || v === undefined ? 0 : Number(v));

// ---------------------------------------------------------------------------------------------
// Trajectories

export interface TrajectoryRow {
  id: string;
  caseName: string;
  /** The case's user instruction, cut to 240 characters. */
  instruction: string;
  agentModel: string;
  emulatorModel: string;
  emulatorMode: EmulatorModeValue;
  status: TrajectoryStatusValue;
  stepCount: number;
  hasErrors: boolean;
  createdAt: Date;
  scores: ScoreCell[];
}

export async function countTrajectories(db: Db, filter: TrajectoryFilter): Promise<number> {
  const rows = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "Trajectory" t WHERE ${trajectoryWhere(filter)}`;
  return toNumber(rows[0]?.n);
}

/** Up to two distinct (agent, emulator) pairs in the filtered set: one pair names an export file. */
export async function modelPairs(db: Db, filter: TrajectoryFilter): Promise<{ agentModel: string; emulatorModel: string }[]> {
  return db.$queryRaw<{ agentModel: string; emulatorModel: string }[]>`
    SELECT DISTINCT t."agentModel", t."emulatorModel" FROM "Trajectory" t WHERE ${trajectoryWhere(filter)} LIMIT 2`;
}

/** One page (PAGE_SIZE) of the filtered, sorted trajectories, with the total. */
type RawTrajectoryRow = { id: string; caseName: string; instruction: string; agentModel: string; emulatorModel: string; emulatorMode: string; status: string; stepCount: number; hasErrors: boolean; createdAt: Date };

function trajectoryPageRows(db: Db, filter: TrajectoryFilter, page: number, pageSize: number): Promise<RawTrajectoryRow[]> {
  const sorted = trajectorySort(filter.sort, filter.evaluator);
  return db.$queryRaw<RawTrajectoryRow[]>`
    SELECT t.id, c.name AS "caseName", left(c."userInstruction", 240) AS instruction, t."agentModel", t."emulatorModel",
           t."emulatorMode"::text AS "emulatorMode", t.status::text AS status, t."stepCount", t."hasErrors", t."createdAt"
    FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" ${sorted.join}
    WHERE ${trajectoryWhere(filter)}
    ORDER BY ${sorted.order}
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
}

/** One page (PAGE_SIZE) of the filtered, sorted trajectories, with the total. */
export async function listTrajectories(db: Db, filter: TrajectoryFilter, pageSize = PAGE_SIZE): Promise<Page<TrajectoryRow>> {
  const wanted = Math.max(1, filter.page);
  // Count and page in parallel; only a page past the end needs a second look.
  const [total, firstTry] = await Promise.all([countTrajectories(db, filter), trajectoryPageRows(db, filter, wanted, pageSize)]);
  let rows = firstTry;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  // A page past the end shows the last page rather than nothing.
  const page = Math.min(wanted, pageCount);
  if (page !== wanted) rows = await trajectoryPageRows(db, filter, page, pageSize);
  const scores = await scoresFor(db, rows.map((r) => r.id));
  return pageOf(
    rows.map((r) => ({
      ...r,
      stepCount: Number(r.stepCount),
      emulatorMode: r.emulatorMode as EmulatorModeValue,
      status: r.status as TrajectoryStatusValue,
      scores: scores.get(r.id) ?? [],
    })),
    total,
    page,
    pageSize,
  );
}

/** Scores per trajectory, ordered by kind (safety first) then evaluator model. */
export async function scoresFor(db: Db, trajectoryIds: string[]): Promise<Map<string, ScoreCell[]>> {
  const out = new Map<string, ScoreCell[]>();
  if (trajectoryIds.length === 0) return out;
  const evals = await db.evaluation.findMany({
    where: { trajectoryId: { in: trajectoryIds } },
    select: { trajectoryId: true, kind: true, evaluatorModel: true, score: true, label: true },
    orderBy: [{ kind: "asc" }, { evaluatorModel: "asc" }],
  });
  for (const e of evals) {
    const list = out.get(e.trajectoryId) ?? [];
    list.push({ kind: e.kind, evaluatorModel: e.evaluatorModel, score: e.score, label: e.label });
    out.set(e.trajectoryId, list);
  }
  return out;
}

/** All ids of the filtered trajectories in the filter's order (for exports; ids are small). */
export async function orderedTrajectoryIds(db: Db, filter: TrajectoryFilter): Promise<string[]> {
  const sorted = trajectorySort(filter.sort, filter.evaluator);
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT t.id FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" ${sorted.join}
    WHERE ${trajectoryWhere(filter)}
    ORDER BY ${sorted.order}`;
  return rows.map((r) => r.id);
}

export interface OptionCount {
  value: string;
  count: number;
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
}

/**
 * Per-option counts for the filter bar: each dimension is counted with every other filter
 * applied and its own left out, so a number says how many rows choosing that option gives.
 */
export async function trajectoryFacets(db: Db, f: TrajectoryFilter): Promise<TrajectoryFacets> {
  type R = { value: string | number | boolean | null; n: bigint };
  const opt = (rows: R[]): OptionCount[] => rows.filter((r) => r.value !== null).map((r) => ({ value: String(r.value), count: toNumber(r.n) }));
  const evalBy = f.evaluator !== undefined ? Prisma.sql` AND e."evaluatorModel" = ${f.evaluator}` : Prisma.empty;
  const scoreCounts = (kind: EvaluationKindValue, omit: FilterDimension) => db.$queryRaw<R[]>`
    SELECT e.score AS value, ${f.evaluator !== undefined ? Prisma.sql`count(*)` : Prisma.sql`count(DISTINCT t.id)`} AS n
    FROM "Trajectory" t JOIN "Evaluation" e ON e."trajectoryId" = t.id AND e.kind = ${kindSql(kind)}${evalBy}
    WHERE e.score IS NOT NULL AND ${trajectoryWhere(f, { omit: [omit] })}
    GROUP BY e.score ORDER BY e.score`;

  const bandCounts = () => db.$queryRaw<{ failures: bigint; non_failures: bigint }[]>`
    SELECT ${f.evaluator !== undefined ? Prisma.sql`count(*) FILTER (WHERE e.score <= 1)` : Prisma.sql`count(DISTINCT t.id) FILTER (WHERE e.score <= 1)`} AS failures,
           ${f.evaluator !== undefined ? Prisma.sql`count(*) FILTER (WHERE e.score >= 2)` : Prisma.sql`count(DISTINCT t.id) FILTER (WHERE e.score >= 2)`} AS non_failures
    FROM "Trajectory" t JOIN "Evaluation" e ON e."trajectoryId" = t.id AND e.kind = ${kindSql("SAFETY")}${evalBy}
    WHERE e.score IS NOT NULL AND ${trajectoryWhere(f, { omit: ["failure"] })}`;
  const callCounts = () => db.$queryRaw<{ some: bigint; n: bigint }[]>`
    SELECT count(*) FILTER (WHERE ${hasExecutedCallSql("t")}) AS some, count(*) AS n
    FROM "Trajectory" t WHERE ${trajectoryWhere(f, { omit: ["calls"] })}`;

  const [agents, modes, evaluators, toolkits, cases, safety, helpfulness, errors, band, callRows] = await Promise.all([
    db.$queryRaw<R[]>`SELECT t."agentModel" AS value, count(*) AS n FROM "Trajectory" t WHERE ${trajectoryWhere(f, { omit: ["agent"] })} GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<R[]>`SELECT t."emulatorMode"::text AS value, count(*) AS n FROM "Trajectory" t WHERE ${trajectoryWhere(f, { omit: ["mode"] })} GROUP BY 1 ORDER BY 1`,
    // For each evaluator: how many trajectories the filter would give with that evaluator chosen
    // (one pass over the evaluations, the score conditions tied to the row's evaluator).
    db.$queryRaw<R[]>`
      SELECT ev."evaluatorModel" AS value, count(DISTINCT ev."trajectoryId") AS n
      FROM "Evaluation" ev JOIN "Trajectory" t ON t.id = ev."trajectoryId"
      WHERE ${trajectoryWhere(f, { evaluatorExpr: Prisma.sql`ev."evaluatorModel"` })}
      GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<R[]>`
      SELECT k.name AS value, count(*) AS n
      FROM "Trajectory" t JOIN "TestCaseToolkit" tc ON tc."caseId" = t."caseId" JOIN "Toolkit" k ON k.id = tc."toolkitId"
      WHERE ${trajectoryWhere(f, { omit: ["toolkit"] })} GROUP BY k.name ORDER BY k.name`,
    db.$queryRaw<R[]>`
      SELECT c.name AS value, count(*) AS n FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId"
      WHERE ${trajectoryWhere(f, { omit: ["case"] })} GROUP BY c.name ORDER BY ${caseNameOrder(Prisma.sql`c.name`)}`,
    scoreCounts("SAFETY", "safety"),
    scoreCounts("HELPFULNESS", "help"),
    db.$queryRaw<R[]>`SELECT t."hasErrors" AS value, count(*) AS n FROM "Trajectory" t WHERE ${trajectoryWhere(f, { omit: ["hasErrors"] })} GROUP BY 1`,
    bandCounts(),
    callCounts(),
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
  };
}

export interface Neighbours {
  /** 1-based position of the trajectory in the filtered, sorted list. */
  position: number;
  total: number;
  prevId: string | null;
  nextId: string | null;
}

/** Where a trajectory sits in the current filter, and its neighbours; null when the filter excludes it. */
export async function trajectoryNeighbours(db: Db, filter: TrajectoryFilter, id: string): Promise<Neighbours | null> {
  const sorted = trajectorySort(filter.sort, filter.evaluator);
  const rows = await db.$queryRaw<{ rn: bigint; total: bigint; prev: string | null; next: string | null }[]>`
    WITH ordered AS (
      SELECT t.id, row_number() OVER w AS rn, lag(t.id) OVER w AS prev, lead(t.id) OVER w AS next, count(*) OVER () AS total
      FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" ${sorted.join}
      WHERE ${trajectoryWhere(filter)}
      WINDOW w AS (ORDER BY ${sorted.order})
    )
    SELECT rn, total, prev, next FROM ordered WHERE id = ${id}`;
  const r = rows[0];
  if (!r) return null;
  return { position: toNumber(r.rn), total: toNumber(r.total), prevId: r.prev, nextId: r.next };
}

/** A trajectory's steps and evaluations as the step and evaluation cards show them. */
export const STEP_DETAIL = {
  orderBy: { index: "asc" },
  select: {
    id: true, index: true, thought: true, action: true, actionInputRaw: true, actionInput: true, observationRaw: true, observation: true, emulatorSummary: true, emulatorThought: true,
    parseError: true, inputInvalid: true, emulatorFailure: true, emulatorRounds: true, emulatorCritiques: true, inputTokens: true, outputTokens: true, costUsd: true, latencyMs: true,
  },
} satisfies Prisma.Trajectory$stepsArgs;

export const EVALUATION_DETAIL = {
  orderBy: [{ kind: "asc" }, { evaluatorModel: "asc" }],
  select: { id: true, kind: true, evaluatorModel: true, score: true, label: true, thought: true, summary: true, sourceFile: true, sourceLine: true, warning: true, promptVersion: true, inputTokens: true, outputTokens: true, costUsd: true, latencyMs: true },
} satisfies Prisma.Trajectory$evaluationsArgs;

export async function getTrajectory(db: Db, id: string) {
  return db.trajectory.findUnique({
    where: { id },
    select: {
      id: true,
      agentModel: true,
      emulatorModel: true,
      emulatorMode: true,
      finalAnswer: true,
      finalLog: true,
      status: true,
      stepCount: true,
      hasErrors: true,
      sourceFile: true,
      sourceLine: true,
      createdAt: true,
      origin: true,
      agentVariant: true,
      stopReason: true,
      stopDetail: true,
      settings: true,
      inputTokens: true,
      outputTokens: true,
      costUsd: true,
      startedAt: true,
      finishedAt: true,
      case: {
        select: {
          id: true,
          name: true,
          source: true,
          userInstruction: true,
          underspecTaskInfo: true,
          underspecSafety: true,
          potentialRiskyOutcomes: true,
          potentialRiskyActions: true,
          toolkits: { orderBy: { position: "asc" }, select: { toolkit: { select: { name: true, nameForHuman: true } } } },
        },
      },
      steps: STEP_DETAIL,
      evaluations: EVALUATION_DETAIL,
    },
  });
}

export type TrajectoryDetail = NonNullable<Awaited<ReturnType<typeof getTrajectory>>>;

// ---------------------------------------------------------------------------------------------
// Toolkits

export interface ToolkitListRow {
  name: string;
  nameForHuman: string;
  descriptionForHuman: string;
  category: string | null;
  toolCount: number;
  caseCount: number;
}

/** All toolkits (there are tens), optionally searched by name, description, category and tool names. */
export async function listToolkits(db: Db, opts: { q?: string } = {}): Promise<ToolkitListRow[]> {
  const q = opts.q?.trim();
  const contains = (field: string) => ({ [field]: { contains: q, mode: "insensitive" as const } });
  const rows = await db.toolkit.findMany({
    where: q
      ? {
          OR: [
            contains("name"),
            contains("nameForHuman"),
            contains("nameForModel"),
            contains("descriptionForHuman"),
            contains("descriptionForModel"),
            contains("category"),
            { tools: { some: { OR: [{ agentName: { contains: q, mode: "insensitive" } }, { name: { contains: q, mode: "insensitive" } }] } } },
          ],
        }
      : undefined,
    orderBy: { name: "asc" },
    select: { name: true, nameForHuman: true, descriptionForHuman: true, category: true, _count: { select: { tools: true, cases: true } } },
  });
  return rows.map(({ _count, ...r }) => ({ ...r, toolCount: _count.tools, caseCount: _count.cases }));
}

export async function listToolkitNames(db: Db): Promise<string[]> {
  const rows = await db.toolkit.findMany({ orderBy: { name: "asc" }, select: { name: true } });
  return rows.map((r) => r.name);
}

const CASES_ON_TOOLKIT_PAGE = 200;

export async function getToolkit(db: Db, name: string) {
  const tk = await db.toolkit.findUnique({
    where: { name },
    select: {
      id: true,
      name: true,
      nameForModel: true,
      nameForHuman: true,
      descriptionForModel: true,
      descriptionForHuman: true,
      category: true,
      source: true,
      tools: { orderBy: { position: "asc" }, select: { id: true, name: true, agentName: true, summary: true, parameters: true, returns: true, exceptions: true } },
      _count: { select: { cases: true } },
    },
  });
  if (!tk) return null;
  const links = await db.testCaseToolkit.findMany({
    where: { toolkitId: tk.id },
    select: { case: { select: { id: true, name: true, source: true, userInstruction: true, _count: { select: { trajectories: true } } } } },
  });
  const cases = links
    .map((l) => ({ id: l.case.id, name: l.case.name, source: l.case.source, userInstruction: l.case.userInstruction, trajectoryCount: l.case._count.trajectories }))
    .sort((a, b) => naturalCompare(a.name, b.name))
    .slice(0, CASES_ON_TOOLKIT_PAGE);
  const { _count, tools, ...rest } = tk;
  return {
    ...rest,
    caseCount: _count.cases,
    cases,
    tools: tools.map((t) => ({ ...t, parameters: toolParameters(t.parameters), returns: toolReturns(t.returns), exceptions: toolExceptions(t.exceptions) })),
  };
}

export type ToolkitDetail = NonNullable<Awaited<ReturnType<typeof getToolkit>>>;

/** official_2 < official_10, as in the database's case order. */
export function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true, sensitivity: "base" }) || (a < b ? -1 : a > b ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Cases

export const CASE_PAGE_SIZE = 50;

export interface CaseListRow {
  id: string;
  name: string;
  source: string;
  /** Cut to 300 characters. */
  instruction: string;
  toolkits: string[];
  trajectoryCount: number;
}

function caseWhere(f: CaseFilter): Prisma.Sql {
  const conds: Prisma.Sql[] = [];
  if (f.q) {
    const p = likePattern(f.q);
    conds.push(Prisma.sql`(c.name ILIKE ${p} OR c."userInstruction" ILIKE ${p}
      OR array_to_string(c."potentialRiskyOutcomes", E'\n') ILIKE ${p}
      OR array_to_string(c."potentialRiskyActions", E'\n') ILIKE ${p})`);
  }
  if (f.toolkit) {
    conds.push(Prisma.sql`EXISTS (SELECT 1 FROM "TestCaseToolkit" tc JOIN "Toolkit" k ON k.id = tc."toolkitId" WHERE tc."caseId" = c.id AND k.name = ${f.toolkit})`);
  }
  return conds.length ? Prisma.join(conds, " AND ") : Prisma.sql`TRUE`;
}

export async function listCases(db: Db, f: CaseFilter, pageSize = CASE_PAGE_SIZE): Promise<Page<CaseListRow>> {
  const counted = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM "TestCase" c WHERE ${caseWhere(f)}`;
  const total = toNumber(counted[0]?.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, f.page), pageCount);
  const rows = await db.$queryRaw<{ id: string; name: string; source: string; instruction: string; trajectoryCount: bigint }[]>`
    SELECT c.id, c.name, c.source, left(c."userInstruction", 300) AS instruction,
           (SELECT count(*) FROM "Trajectory" t WHERE t."caseId" = c.id) AS "trajectoryCount"
    FROM "TestCase" c
    WHERE ${caseWhere(f)}
    ORDER BY ${caseNameOrder(Prisma.sql`c.name`)}, c.source
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  const links = rows.length
    ? await db.testCaseToolkit.findMany({
        where: { caseId: { in: rows.map((r) => r.id) } },
        orderBy: { position: "asc" },
        select: { caseId: true, toolkit: { select: { name: true } } },
      })
    : [];
  const toolkitsOf = new Map<string, string[]>();
  for (const l of links) toolkitsOf.set(l.caseId, [...(toolkitsOf.get(l.caseId) ?? []), l.toolkit.name]);
  return pageOf(
    rows.map((r) => ({ ...r, trajectoryCount: toNumber(r.trajectoryCount), toolkits: toolkitsOf.get(r.id) ?? [] })),
    total,
    page,
    pageSize,
  );
}

const TRAJECTORIES_ON_CASE_PAGE = 100;

/** A case by name (with `source` when names repeat across sources), its toolkits and latest trajectories. */
export async function getCase(db: Db, name: string, source?: string) {
  const c = await db.testCase.findFirst({
    where: source ? { name, source } : { name },
    orderBy: { source: "asc" },
    select: {
      id: true,
      name: true,
      source: true,
      userInstruction: true,
      underspecTaskInfo: true,
      underspecSafety: true,
      expectedAchievements: true,
      potentialRiskyOutcomes: true,
      potentialRiskyActions: true,
      toolkits: { orderBy: { position: "asc" }, select: { toolkit: { select: { name: true, nameForHuman: true } } } },
      _count: { select: { trajectories: true } },
    },
  });
  if (!c) return null;
  const trajectories = await db.trajectory.findMany({
    where: { caseId: c.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: TRAJECTORIES_ON_CASE_PAGE,
    select: { id: true, agentModel: true, emulatorModel: true, emulatorMode: true, status: true, stepCount: true, hasErrors: true, createdAt: true },
  });
  const scores = await scoresFor(db, trajectories.map((t) => t.id));
  const { _count, toolkits, ...rest } = c;
  return {
    ...rest,
    toolkits: toolkits.map((t) => t.toolkit),
    trajectoryCount: _count.trajectories,
    trajectories: trajectories.map((t) => ({ ...t, scores: scores.get(t.id) ?? [] })),
  };
}

export type CaseDetail = NonNullable<Awaited<ReturnType<typeof getCase>>>;

// ---------------------------------------------------------------------------------------------
// One loader per page (a page loads through one query function)

export async function loadToolkitsPage(db: Db, opts: { q?: string }) {
  const [toolkits, totalInDb] = await Promise.all([listToolkits(db, opts), db.toolkit.count()]);
  return { toolkits, totalInDb };
}

export async function loadCasesPage(db: Db, filter: CaseFilter) {
  const [list, toolkitNames, totalInDb] = await Promise.all([listCases(db, filter), listToolkitNames(db), db.testCase.count()]);
  return { list, toolkitNames, totalInDb };
}

export async function loadTrajectoriesPage(db: Db, filter: TrajectoryFilter) {
  const totalInDb = await db.trajectory.count();
  if (totalInDb === 0) return { totalInDb, list: pageOf<TrajectoryRow>([], 0, 1, PAGE_SIZE), facets: null };
  const [list, facets] = await Promise.all([listTrajectories(db, filter), trajectoryFacets(db, filter)]);
  return { totalInDb, list, facets };
}

export async function loadTrajectoryPage(db: Db, id: string, filter: TrajectoryFilter) {
  const trajectory = await getTrajectory(db, id);
  if (!trajectory) return null;
  const neighbours = await trajectoryNeighbours(db, filter, id);
  return { trajectory, neighbours };
}

/** Evaluator models that scored any trajectory in the filter (sorted), e.g. for CSV columns. */
export async function evaluatorModelsFor(db: Db, filter: TrajectoryFilter): Promise<string[]> {
  const rows = await db.$queryRaw<{ m: string }[]>`
    SELECT DISTINCT e."evaluatorModel" AS m FROM "Evaluation" e
    WHERE e."trajectoryId" IN (SELECT t.id FROM "Trajectory" t WHERE ${trajectoryWhere(filter)})
  `;
  // Sorted here, not by the database's collation, so columns come out the same on every server.
  return rows.map((r) => r.m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
