// A fresh, migrated database for one test file:
//   TEST_DATABASE_URL set → a throwaway database created on that PostgreSQL server, dropped after;
//   otherwise            → an embedded PGlite served on a free localhost port.
// Either way the code under test connects over the wire with the same `pg` driver as the app.
// Under vitest both are copies of template databases (templates.ts): no initdb, migrations or
// import per file. Elsewhere (benchmarks) they are built the long way.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startEmbedded } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { createPrisma, type Db } from "@/lib/db/client";
import type { RunImportResult } from "@/lib/toolemu/import";
import { cloneEmbedded, clonePostgres, seedAt, templatesKey, type Seed } from "./templates";

export interface TestDatabase {
  url: string;
  kind: "postgres" | "embedded";
  prisma: Db;
  /** A plain pg client on the same database, for raw checks. */
  sql: pg.Client;
  /** With `seed`: what the import of the shared data into it returned. */
  imported: RunImportResult | null;
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

/** On `server` (default TEST_DATABASE_URL) a throwaway database, else an embedded one. */
export async function createEmptyDatabase(
  server: string | null = process.env.TEST_DATABASE_URL ?? null,
  prefix?: string,
): Promise<{ url: string; kind: TestDatabase["kind"]; drop(): Promise<void> }> {
  if (server) {
    const db = await throwawayPostgres(server, prefix);
    return { url: db.url, kind: "postgres", drop: db.drop };
  }
  const key = templatesKey();
  if (key) return { ...(await cloneEmbedded(key, "empty")), kind: "embedded" };
  const embedded = await startEmbedded({ inMemory: true });
  return { url: embedded.url, kind: "embedded", drop: () => embedded.stop() };
}

/** A migrated database; with `seed`, holding the shared ToolEmu data as `runImport` of `seedSources(seed)` leaves it. */
async function migratedDatabase(seed: Seed | undefined): Promise<{ url: string; kind: TestDatabase["kind"]; imported: RunImportResult | null; drop(): Promise<void> }> {
  const key = templatesKey();
  const server = process.env.TEST_DATABASE_URL ?? null;
  if (key && server) return { ...(await clonePostgres(server, key, seed ?? "migrated")), kind: "postgres" };
  if (key) return { ...(await cloneEmbedded(key, seed ?? "migrated")), kind: "embedded" };
  const empty = await createEmptyDatabase(server);
  try {
    const sql = new pg.Client({ connectionString: empty.url });
    await sql.connect();
    await migrate(sql).finally(() => sql.end());
    return { ...empty, imported: seed ? await seedAt(empty.url, seed) : null };
  } catch (e) {
    await empty.drop();
    throw e;
  }
}

/**
 * A fresh database for one test file: migrated (unless `migrate: false`), and with `seed` holding
 * the ToolEmu toolkits and 144 cases ("cases") or those plus the 144 shared trajectories and their
 * evaluations ("all") — the import's result in `imported`.
 */
export async function createTestDatabase(opts: { migrate?: boolean; seed?: Seed } = {}): Promise<TestDatabase> {
  const made =
    opts.migrate === false
      ? { ...(await createEmptyDatabase()), imported: null }
      : await migratedDatabase(opts.seed);
  const sql = new pg.Client({ connectionString: made.url });
  await sql.connect();
  const prisma = createPrisma(made.url);
  return {
    url: made.url,
    kind: made.kind,
    prisma,
    sql,
    imported: made.imported,
    async cleanup() {
      await prisma.$disconnect();
      await sql.end();
      await made.drop();
    },
  };
}
