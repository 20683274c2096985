// In-process cache of the human-label panels, per CAMPAIGN VERSION (server only).
//
//   cached(db, key, probe, compute)   → the panel with `cache: { status, probeMs, computedAt }`;
//                                       the one wrapper every panel's …Cached function calls
//   panelKey(panel, scope, extra)     → the key: everything the numbers depend on but the data
//   versionProbeSql(scope, deps)      → Prisma.Sql   one row { v: text }, the data version (counters)
//   clearPanelCache(db?)              → drops the cached panels (of one client, or all)
//
// Every request runs the version probe first — one statement reading one or two rows by primary
// key, whatever the campaign's size — and reuses the panel computed for the same key (panel,
// campaign, filter, evaluator, seed, tie policy, resamples, label schema) at the same version;
// otherwise it computes the panel (and keeps it). The version is made of counters the DATABASE
// bumps, in the writing transaction, whoever writes ("DashboardVersion", triggers of the
// dashboard_votes migration; ./votes.ts):
//   * "campaign:<id>": a label submitted, revised or withdrawn; an adjudication added, changed or
//     removed; an annotator's labels excluded or restored; a gold answer; any change of the
//     campaign row (its label form, k, status);
//   * "evaluator:<model>", when the panel reads the evaluator's scores: any of that evaluator's
//     Evaluation rows inserted, updated or deleted (an import, a run's evaluator, a re-import);
//   * when the filter names a toolkit: count(*) and sum(xmin) of that toolkit's case links (a few
//     rows; a changed row gets the writing transaction's id as its xmin).
// A counter is bumped under its row's lock and only grows, so a committed change always shows as a
// different version. What the probe does not watch, because the app never changes it after import:
// a trajectory's agent, emulator mode and case, and case names.
//
// The probe runs BEFORE the panel is computed, so a panel is never older than the version it is
// kept under: a label submitted in between shows as a new version on the next request. Requests
// that arrive while the same panel is being computed share that computation. At most
// PANEL_CACHE_SIZE panels are kept per database client (least recently used go first).
import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { HumanScope } from "./scope";

const PANEL_CACHE_SIZE = 64;

export type CacheStatus = "hit" | "miss";

export interface CacheInfo {
  /** hit: the panel was computed before at the same data version; miss: computed now. */
  status: CacheStatus;
  /** Time of the version probe (included in every request). */
  probeMs: number;
  /** When the returned numbers were computed. */
  computedAt: Date;
}

export type Cached<T> = T & { cache: CacheInfo };

/** Which evaluation rows a panel reads (besides the labels). */
export type EvaluationDeps = "none" | "safety" | "safety+helpfulness";

interface Entry {
  version: string;
  value: Promise<{ value: unknown; computedAt: Date }>;
}

// On globalThis, like the Prisma client, so dev-mode module reloads keep it; one map per client.
const g = globalThis as unknown as { __toolemuPanelCache?: WeakMap<Db, Map<string, Entry>> };
function store(db: Db): Map<string, Entry> {
  g.__toolemuPanelCache ??= new WeakMap();
  let m = g.__toolemuPanelCache.get(db);
  if (!m) g.__toolemuPanelCache.set(db, (m = new Map()));
  return m;
}

/** Drops the cached panels of `db` (of every client without an argument). */
export function clearPanelCache(db?: Db): void {
  if (db) g.__toolemuPanelCache?.get(db)?.clear();
  else g.__toolemuPanelCache = new WeakMap();
}

/** The cache key of a panel: everything its numbers depend on besides the data version. */
export function panelKey(panel: string, scope: HumanScope, extra: Record<string, unknown> = {}): string {
  const f = scope.filter;
  const schema = createHash("sha256").update(JSON.stringify(scope.campaign.schema)).digest("hex");
  return JSON.stringify([panel, scope.campaign.id, f.agent ?? null, f.mode ?? null, f.toolkit ?? null, scope.evaluator, scope.seed, scope.ties, scope.campaign.k, schema, extra]);
}

/** count(*) and sum(xmin) of a set of rows, as text (see the header). */
function rowsVersion(alias: string, from: Prisma.Sql): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`(SELECT count(*)::text || ':' || COALESCE(sum(${a}.xmin::text::bigint), 0)::text ${from})`;
}

/** A version counter's value, as text ('0' before its first bump). */
function counter(key: string): Prisma.Sql {
  return Prisma.sql`COALESCE((SELECT dv.version FROM "DashboardVersion" dv WHERE dv.key = ${key}), 0)::text`;
}

/** The data version of a panel's inputs: one statement, one row { v }. */
export function versionProbeSql(scope: HumanScope, evaluations: EvaluationDeps): Prisma.Sql {
  const parts: Prisma.Sql[] = [counter(`campaign:${scope.campaign.id}`)];
  if (evaluations !== "none") parts.push(counter(`evaluator:${scope.evaluator ?? ""}`));
  if (scope.filter.toolkit !== undefined) {
    parts.push(rowsVersion("tc", Prisma.sql`FROM "TestCaseToolkit" tc JOIN "Toolkit" k ON k.id = tc."toolkitId" WHERE k.name = ${scope.filter.toolkit}`));
  }
  return Prisma.sql`SELECT concat_ws('|', ${Prisma.join(parts)}) AS v`;
}

/**
 * The panel under `key` at the data version `probe` returns: kept, or computed now (`compute` runs
 * after the probe, see the header), as a shallow copy with its cache information — the kept object
 * is shared by the requests that hit it.
 */
export async function cached<T extends object>(db: Db, key: string, probe: Prisma.Sql, compute: () => Promise<T>): Promise<Cached<T>> {
  const t0 = performance.now();
  const [{ v: version }] = await db.$queryRaw<[{ v: string }]>(probe);
  const probeMs = performance.now() - t0;
  const m = store(db);
  const seen = m.get(key);
  if (seen && seen.version === version) {
    // Least recently used goes first: move to the end.
    m.delete(key);
    m.set(key, seen);
    const { value, computedAt } = await seen.value;
    return { ...(value as T), cache: { status: "hit", probeMs, computedAt } };
  }
  const entry: Entry = { version, value: compute().then((value) => ({ value, computedAt: new Date() })) };
  m.delete(key);
  m.set(key, entry);
  while (m.size > PANEL_CACHE_SIZE) m.delete(m.keys().next().value!);
  try {
    const { value, computedAt } = await entry.value;
    return { ...(value as T), cache: { status: "miss", probeMs, computedAt } };
  } catch (e) {
    if (m.get(key) === entry) m.delete(key);
    throw e;
  }
}
