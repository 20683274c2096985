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

export async function createEmptyDatabase(): Promise<{ url: string; kind: TestDatabase["kind"]; drop(): Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const name = `toolemu_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const u = new URL(server);
    u.pathname = `/${name}`;
    return {
      url: u.toString(),
      kind: "postgres",
      async drop() {
        const c = new pg.Client({ connectionString: server });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await c.end();
      },
    };
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
