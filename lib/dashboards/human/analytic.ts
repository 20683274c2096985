// How the dashboards run their aggregate statements (server only).
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";

export const ms = (t0: number) => performance.now() - t0;

/**
 * Per-statement planner settings (SET LOCAL, in a transaction): no JIT — compiling these
 * expression-heavy plans costs PostgreSQL more than it wins back — and work_mem enough to
 * aggregate one campaign's items in memory instead of sorting on disk.
 */
const SETTINGS = Prisma.sql`SELECT set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`;

/** Runs one dashboard statement with the planner settings above. */
export async function analytic<T>(db: Db, sql: Prisma.Sql): Promise<T> {
  const [, rows] = await db.$transaction([db.$queryRaw(SETTINGS), db.$queryRaw<T>(sql)]);
  return rows;
}

/** How many times `analyticTogether` runs its statements before it gives up. */
export const TOGETHER_ATTEMPTS = 5;

/**
 * Several statements of one panel at once, each on its own connection (so on PostgreSQL each takes
 * a core), whose rows are combined into one set of numbers — so they must all have read the same
 * data. Each runs in a REPEATABLE READ transaction with `probe` (the panel's data version, one row
 * { v }: counters the database bumps in the same transaction as every write the panel depends on,
 * ./cache.ts), so its rows and its version come from one snapshot; when the versions differ (a write
 * committed between the statements' starts) all of them run again.
 */
export async function analyticTogether<T extends unknown[]>(db: Db, sqls: { [K in keyof T]: Prisma.Sql }, probe: Prisma.Sql): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const runs = await Promise.all(
      (sqls as Prisma.Sql[]).map(async (sql) => {
        const [, version, rows] = await db.$transaction([db.$queryRaw(SETTINGS), db.$queryRaw<[{ v: string }]>(probe), db.$queryRaw<unknown>(sql)], {
          isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead,
        });
        return { v: version[0].v, rows };
      }),
    );
    if (runs.every((r) => r.v === runs[0]!.v)) return runs.map((r) => r.rows) as T;
    if (attempt >= TOGETHER_ATTEMPTS) throw new Error(`the data changed while this panel was computed, ${attempt} times in a row; reload the page`);
  }
}
