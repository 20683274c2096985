// What /api/health reports: database reachable, migrations applied, version.
import "server-only";
import { db } from "@/lib/db/client";
import { readMigrations } from "@/lib/db/migrate";
import { APP_VERSION } from "@/lib/version";

export interface Health {
  ok: boolean;
  version: string;
  database: { reachable: boolean; error?: string };
  migrations: { applied: number; pending: string[] };
}

export async function checkHealth(): Promise<Health> {
  const files = readMigrations();
  try {
    const rows = await db().$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    const done = new Set(rows.map((r) => r.migration_name));
    const pending = files.filter((f) => !done.has(f.name)).map((f) => f.name);
    return {
      ok: pending.length === 0,
      version: APP_VERSION,
      database: { reachable: true },
      migrations: { applied: files.length - pending.length, pending },
    };
  } catch (e) {
    return {
      ok: false,
      version: APP_VERSION,
      database: { reachable: false, error: (e as Error).message.split("\n")[0] },
      migrations: { applied: 0, pending: files.map((f) => f.name) },
    };
  }
}

/** What signed-out callers (load balancers, the start script) see: no version, commit, error text or migration names. */
export interface PublicHealth {
  ok: boolean;
  database: { reachable: boolean };
  migrations: { applied: number; pending: number };
}

export function publicHealth(h: Health): PublicHealth {
  return { ok: h.ok, database: { reachable: h.database.reachable }, migrations: { applied: h.migrations.applied, pending: h.migrations.pending.length } };
}
