// Applies prisma/migrations/<name>/migration.sql in name order and records each in
// `_prisma_migrations` exactly as Prisma Migrate does, so an online `prisma migrate status`
// agrees with us. We need our own because Prisma's migrate commands run a native engine that
// cannot be downloaded offline. One transaction per migration, under Prisma's advisory lock.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import type pg from "pg";

/** The lock id Prisma Migrate takes, so our migrator and Prisma's never run at once. */
const PRISMA_ADVISORY_LOCK_ID = 72707369;

// TOOLEMU_MIGRATIONS_DIR exists for tests of start-up behaviour; deployments keep the default.
const DEFAULT_MIGRATIONS_DIR = path.resolve(/*turbopackIgnore: true*/ process.env.TOOLEMU_MIGRATIONS_DIR ?? path.join("prisma", "migrations"));

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    readonly cause: string,
  ) {
    super(`Migration ${migration} failed: ${cause}`);
  }
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
  /** Applied migrations whose file changed since (Prisma warns about these too). */
  modified: string[];
}

export function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(/*turbopackIgnore: true*/ dir)) return [];
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(/*turbopackIgnore: true*/ path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    });
}

interface Row {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
}

/**
 * Applies pending migrations. `retryFailed` marks an earlier failed attempt of that migration
 * as rolled back (as `prisma migrate resolve --rolled-back` does) so it is tried again.
 */
export async function migrate(
  client: pg.ClientBase,
  opts: { dir?: string; retryFailed?: string; log?: (line: string) => void } = {},
): Promise<MigrateResult> {
  const files = readMigrations(opts.dir);
  const log = opts.log ?? (() => {});
  await client.query(`SELECT pg_advisory_lock(${PRISMA_ADVISORY_LOCK_ID})`);
  try {
    await client.query(CREATE_TABLE);
    if (opts.retryFailed) {
      await client.query(
        `UPDATE "_prisma_migrations" SET rolled_back_at = now()
          WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`,
        [opts.retryFailed],
      );
    }
    const { rows } = await client.query<Row>(
      `SELECT id, migration_name, checksum, finished_at, rolled_back_at, logs
         FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY started_at`,
    );
    const failed = rows.find((r) => r.finished_at === null);
    if (failed) {
      throw new MigrationError(
        failed.migration_name,
        `${firstLine(failed.logs)} (recorded by an earlier start). Fix the migration, then run ` +
          `\`npm run db:migrate -- --retry ${failed.migration_name}\`.`,
      );
    }
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    const result: MigrateResult = { applied: [], alreadyApplied: 0, modified: [] };
    for (const m of files) {
      const prior = done.get(m.name);
      if (prior) {
        result.alreadyApplied++;
        if (prior.checksum !== m.checksum) result.modified.push(m.name);
        continue;
      }
      const startedAt = new Date();
      try {
        await client.query("BEGIN");
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations"
             (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, NULL, $4, 1)`,
          [randomUUID(), m.checksum, m.name, startedAt],
        );
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        const message = (e as Error).message;
        // Recorded outside the rolled-back transaction, as Prisma does, so the failure persists.
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count)
           VALUES ($1, $2, NULL, $3, $4, $5, 0)`,
          [randomUUID(), m.checksum, m.name, message, startedAt],
        );
        throw new MigrationError(m.name, message);
      }
      log(`applied migration ${m.name}`);
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${PRISMA_ADVISORY_LOCK_ID})`).catch(() => {});
  }
}

/** Names of migrations on disk that the database has not finished applying. */
export async function pendingMigrations(client: pg.ClientBase, dir?: string): Promise<string[]> {
  const files = readMigrations(dir);
  const exists = await client.query(`SELECT to_regclass('_prisma_migrations') AS t`);
  if (!exists.rows[0]?.t) return files.map((f) => f.name);
  const { rows } = await client.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const done = new Set(rows.map((r) => r.migration_name));
  return files.filter((f) => !done.has(f.name)).map((f) => f.name);
}

function firstLine(s: string | null): string {
  return (s ?? "unknown error").split("\n")[0]!.trim();
}
