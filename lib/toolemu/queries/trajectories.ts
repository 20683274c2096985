// The trajectory list: one filtered, sorted page with its scores, counts, ids in order (exports).
import "server-only";
import type { Db } from "@/lib/db/client";
import { PAGE_SIZE, type EmulatorModeValue, type TrajectoryFilter } from "../filters";
import { pageOf, toNumber, type Page, type ScoreCell, type TrajectoryStatusValue } from "./common";
import { trajectoryFacets } from "./trajectory-facets";
import { trajectorySort, trajectoryWhere } from "./trajectory-where";
import { isSearchable, searchSnippets, type TrajectorySnippets } from "./trajectory-search";

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
  /** With a search: where this trajectory matched, highlighted. */
  search?: TrajectorySnippets;
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
  const sorted = trajectorySort(filter.sort, filter.evaluator, filter.q);
  return db.$queryRaw<RawTrajectoryRow[]>`
    SELECT t.id, c.name AS "caseName", left(c."userInstruction", 240) AS instruction, t."agentModel", t."emulatorModel",
           t."emulatorMode"::text AS "emulatorMode", t.status::text AS status, t."stepCount", t."hasErrors", t."createdAt"
    FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" ${sorted.join}
    WHERE ${trajectoryWhere(filter)}
    ORDER BY ${sorted.order}
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
}

/** One page (PAGE_SIZE) of the filtered, sorted trajectories, with the total (counted, unless known). */
export async function listTrajectories(db: Db, filter: TrajectoryFilter, pageSize = PAGE_SIZE, knownTotal?: number, rowsOfWanted?: RawTrajectoryRow[]): Promise<Page<TrajectoryRow>> {
  const wanted = Math.max(1, filter.page);
  // Count and page in parallel; only a page past the end needs a second look.
  const [total, firstTry] = await Promise.all([knownTotal ?? countTrajectories(db, filter), rowsOfWanted ?? trajectoryPageRows(db, filter, wanted, pageSize)]);
  let rows = firstTry;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  // A page past the end shows the last page rather than nothing.
  const page = Math.min(wanted, pageCount);
  if (page !== wanted) rows = await trajectoryPageRows(db, filter, page, pageSize);
  const ids = rows.map((r) => r.id);
  const [scores, snippets] = await Promise.all([scoresFor(db, ids), filter.q ? searchSnippets(db, ids, filter.q) : null]);
  return pageOf(
    rows.map((r) => ({
      ...r,
      stepCount: Number(r.stepCount),
      emulatorMode: r.emulatorMode as EmulatorModeValue,
      status: r.status as TrajectoryStatusValue,
      scores: scores.get(r.id) ?? [],
      ...(snippets ? { search: snippets.get(r.id) ?? { snippets: [], moreSteps: 0 } } : {}),
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
  const sorted = trajectorySort(filter.sort, filter.evaluator, filter.q);
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT t.id FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" ${sorted.join}
    WHERE ${trajectoryWhere(filter)}
    ORDER BY ${sorted.order}`;
  return rows.map((r) => r.id);
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

/**
 * Keeps a computed value under a key at the current data version (the page passes
 * lib/dashboards/data-version.ts cachedByData); the default computes every time.
 */
export type CountCache = <T extends object>(key: unknown[], compute: () => Promise<T>) => Promise<T>;
const uncached: CountCache = (_key, compute) => compute();

/**
 * Everything the list page shows. The counts (all trajectories, the filter's total, the filter
 * bar's per-option counts) go through `cache`, keyed by the filter without page and sort; the page
 * of rows is read every time, beside them.
 */
export async function loadTrajectoriesPage(db: Db, filter: TrajectoryFilter, cache: CountCache = uncached) {
  const { page: _page, sort: _sort, ...dims } = filter;
  const [counted, searchable, firstTry] = await Promise.all([
    cache(["trajectoriesPage", dims], async () => {
      const totalInDb = await db.trajectory.count();
      if (totalInDb === 0) return { totalInDb, total: 0, facets: null };
      const [total, facets] = await Promise.all([countTrajectories(db, filter), trajectoryFacets(db, filter)]);
      return { totalInDb, total, facets };
    }),
    // A search of stop words only ("the") matches nothing; the page says why instead of "no matches".
    filter.q ? isSearchable(db, filter.q) : true,
    trajectoryPageRows(db, filter, Math.max(1, filter.page), PAGE_SIZE),
  ]);
  const { totalInDb, total, facets } = counted;
  if (totalInDb === 0) return { totalInDb, searchable, list: pageOf<TrajectoryRow>([], 0, 1, PAGE_SIZE), facets: null };
  const list = await listTrajectories(db, filter, PAGE_SIZE, total, firstTry);
  return { totalInDb, searchable, list, facets };
}
