// A fresh, migrated database for one test file:
//   TEST_DATABASE_URL set → a throwaway database created on that PostgreSQL server, dropped after;
//   otherwise            → an in-memory embedded PGlite served on a free localhost port.
// Either way the code under test connects over the wire with the same `pg` driver as the app.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startEmbedded } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { createPrisma, type Db } from "@/lib/db/client";

export interface TestDatabase {
  url: string;
  kind: "postgres" | "embedded";
  prisma: Db;
  /** A plain pg client on the same database, for raw checks. */
  sql: pg.Client;
  cleanup(): Promise<void>;
}

/** A new, empty database on a PostgreSQL server (tests, benchmarks); drop() removes it. */
export async function throwawayPostgres(server: string, prefix = "toolemu_test"): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE "${name}"`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return { url: u.toString(), name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** On `server` (default TEST_DATABASE_URL) a throwaway database, else an in-memory embedded one. */
export async function createEmptyDatabase(
  server: string | null = process.env.TEST_DATABASE_URL ?? null,
  prefix?: string,
): Promise<{ url: string; kind: TestDatabase["kind"]; drop(): Promise<void> }> {
  if (server) {
    const db = await throwawayPostgres(server, prefix);
    return { url: db.url, kind: "postgres", drop: db.drop };
  }
  const embedded = await startEmbedded({ inMemory: true });
  return { url: embedded.url, kind: "embedded", drop: () => embedded.stop() };
}

export async function createTestDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const empty = await createEmptyDatabase();
  const sql = new pg.Client({ connectionString: empty.url });
  await sql.connect();
  if (opts.migrate !== false) await migrate(sql);
  const prisma = createPrisma(empty.url);
  return {
    url: empty.url,
    kind: empty.kind,
    prisma,
    sql,
    async cleanup() {
      await prisma.$disconnect();
      await sql.end();
      await empty.drop();
    },
  };
}
