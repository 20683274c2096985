// Aggregates of the browse pages and dashboards kept per DATA VERSION (server only).
//
//   cachedByData(db, key, compute, also?) → the value computed at the current data version
//   dataVersionSql(also?)                 → Prisma.Sql  one row { v: text }, the probe
//
// The version is the "data" counter of "DashboardVersion", which the database bumps once in every
// transaction that writes a trajectory, step, evaluation, case, toolkit (or its case links),
// campaign (or its items), run name, run episode's source, critic assessment or checkpoint
// (migration dashboard_data_version: a deferred trigger, so at commit, in the same transaction).
// A probe reads one row by primary key, whatever the data size. `also` adds counters for data the
// "data" counter does not watch (labels: the campaign counters of ./human/cache.ts).
// The in-memory cache itself (LRU, shared computations, probe before compute) is ./human/cache.ts.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { cached } from "./human/cache";

/** Extra version parts: "labels" = every campaign's label counter (submits, adjudications, exclusions). */
export type VersionExtra = "labels";

export function dataVersionSql(also: VersionExtra[] = []): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`COALESCE((SELECT dv.version FROM "DashboardVersion" dv WHERE dv.key = 'data'), 0)::text`];
  // Counters only grow and a new campaign's key adds to the sum, so any bump changes it.
  if (also.includes("labels")) parts.push(Prisma.sql`COALESCE((SELECT sum(dv.version) FROM "DashboardVersion" dv WHERE dv.key LIKE 'campaign:%'), 0)::text`);
  return Prisma.sql`SELECT concat_ws('|', ${Prisma.join(parts)}) AS v`;
}

/**
 * `compute()` kept under `key` (everything it depends on besides the data) and the data version.
 * The value is shared by the requests that hit it: callers must not change it.
 */
export async function cachedByData<T extends object>(db: Db, key: unknown[], compute: () => Promise<T>, also: VersionExtra[] = []): Promise<T> {
  const { value } = await cached(db, JSON.stringify(["data", ...key]), dataVersionSql(also), async () => ({ value: await compute() }));
  return value;
}
