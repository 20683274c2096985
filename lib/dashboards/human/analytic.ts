// How the dashboards run their aggregate statements (server only).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";

export const ms = (t0: number) => performance.now() - t0;

/**
 * Runs one dashboard statement with per-statement planner settings (SET LOCAL, in a transaction):
 * no JIT — compiling these expression-heavy plans costs PostgreSQL more than it wins back —
 * and work_mem enough to aggregate one campaign's items in memory instead of sorting on disk.
 */
export async function analytic<T>(db: Db, sql: Prisma.Sql): Promise<T> {
  const [, rows] = await db.$transaction([
    db.$queryRaw`SELECT set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`,
    db.$queryRaw<T>(sql),
  ]);
  return rows;
}
