import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createEmptyDatabase } from "@/lib/testing/db";
import { migrate, MigrationError, pendingMigrations, readMigrations } from "./migrate";

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mig-"));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

describe("migrate", () => {
  let cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.reverse()) await c();
    cleanup = [];
  });

  async function client() {
    const db = await createEmptyDatabase();
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    cleanup.push(() => db.drop(), () => c.end());
    return c;
  }

  it("applies the project's migrations and records them as Prisma does", async () => {
    const c = await client();
    const res = await migrate(c);
    const files = readMigrations();
    expect(files.length).toBeGreaterThan(0);
    expect(res.applied).toEqual(files.map((f) => f.name));
    const { rows } = await c.query(`SELECT * FROM "_prisma_migrations" ORDER BY started_at`);
    expect(rows).toHaveLength(files.length);
    for (const [i, row] of rows.entries()) {
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.migration_name).toBe(files[i]!.name);
      expect(row.checksum).toBe(files[i]!.checksum);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
      expect(row.rolled_back_at).toBeNull();
    }
    // The columns match Prisma's own table definition.
    const cols = await c.query(
      `SELECT column_name, data_type, character_maximum_length AS len, is_nullable
         FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(cols.rows.map((r) => `${r.column_name}:${r.data_type}:${r.len ?? ""}:${r.is_nullable}`)).toEqual([
      "id:character varying:36:NO",
      "checksum:character varying:64:NO",
      "finished_at:timestamp with time zone::YES",
      "migration_name:character varying:255:NO",
      "logs:text::YES",
      "rolled_back_at:timestamp with time zone::YES",
      "started_at:timestamp with time zone::NO",
      "applied_steps_count:integer::NO",
    ]);
    expect(await pendingMigrations(c)).toEqual([]);
    // Running again changes nothing.
    const again = await migrate(c);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toBe(files.length);
  });

  it("checksums are the sha256 of the file's bytes", () => {
    const dir = migrationsDir({ "20260101000000_a": "CREATE TABLE a (id int);\n" });
    const [m] = readMigrations(dir);
    expect(m!.checksum).toBe(createHash("sha256").update("CREATE TABLE a (id int);\n").digest("hex"));
  });

  it("stops at a failing migration, records it, rolls back its partial work and runs nothing after it", async () => {
    const c = await client();
    const dir = migrationsDir({
      "20260101000000_ok": "CREATE TABLE first_table (id int);",
      "20260102000000_broken": "CREATE TABLE half_done (id int);\nSELECT no_such_function();",
      "20260103000000_later": "CREATE TABLE later_table (id int);",
    });
    const err = await migrate(c, { dir }).catch((e) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect(err.migration).toBe("20260102000000_broken");
    expect(err.message).toMatch(/20260102000000_broken.*no_such_function/);
    const tables = await c.query(`SELECT to_regclass('first_table') a, to_regclass('half_done') b, to_regclass('later_table') c`);
    expect(tables.rows[0]).toEqual({ a: "first_table", b: null, c: null });
    const rows = await c.query(`SELECT migration_name, finished_at, logs FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(rows.rows.map((r) => [r.migration_name, r.finished_at === null])).toEqual([
      ["20260101000000_ok", false],
      ["20260102000000_broken", true],
    ]);
    expect(rows.rows[1].logs).toMatch(/no_such_function/);

    // A restart refuses to go on past the recorded failure, naming it.
    const again = await migrate(c, { dir }).catch((e) => e);
    expect(again).toBeInstanceOf(MigrationError);
    expect(again.message).toMatch(/20260102000000_broken/);
    expect(again.message).toMatch(/--retry/);

    // After fixing the file, --retry marks the failure rolled back and applies the rest.
    writeFileSync(path.join(dir, "20260102000000_broken", "migration.sql"), "CREATE TABLE half_done (id int);");
    const fixed = await migrate(c, { dir, retryFailed: "20260102000000_broken" });
    expect(fixed.applied).toEqual(["20260102000000_broken", "20260103000000_later"]);
    const final = await c.query(`SELECT count(*)::int n FROM "_prisma_migrations" WHERE rolled_back_at IS NOT NULL`);
    expect(final.rows[0].n).toBe(1);
  });

  it("reports applied migrations whose file was edited afterwards", async () => {
    const c = await client();
    const dir = migrationsDir({ "20260101000000_a": "CREATE TABLE a (id int);" });
    await migrate(c, { dir });
    writeFileSync(path.join(dir, "20260101000000_a", "migration.sql"), "CREATE TABLE a (id bigint);");
    const res = await migrate(c, { dir });
    expect(res.modified).toEqual(["20260101000000_a"]);
  });
});
