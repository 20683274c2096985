// The fast pool (./fast-sql.ts): the same statement text sent many times at once over every
// connection of the pool gives each call its own rows — as named prepared statements on
// PostgreSQL and on the embedded database, where one session is shared by every connection (and
// by every process), so names there are per pool and connection: two connections, or two pools,
// preparing one name must not collide.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createPrisma } from "./client";
import { fastSql, statementName } from "./fast-sql";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase({ migrate: false });
  await t.sql.query(`CREATE TABLE fast_t (id int PRIMARY KEY, v text NOT NULL)`);
});

afterAll(async () => {
  await t?.cleanup();
});

describe("fastSql", () => {
  it("names a text once and always the same way", () => {
    const a = statementName("SELECT 1 AS fast_sql_test_a");
    const b = statementName("SELECT 2 AS fast_sql_test_b");
    expect(a).toMatch(/^toolemu_fast_\d+$/);
    expect(b).not.toBe(a);
    expect(statementName("SELECT 1 AS fast_sql_test_a")).toBe(a);
  });

  it("runs one text concurrently on every connection with each call's own parameters and rows", async () => {
    const sql = fastSql(t.prisma);
    const insert = `INSERT INTO fast_t (id, v) VALUES ($1::int, $2) RETURNING id, v`;
    const rows = await Promise.all(Array.from({ length: 60 }, (_, i) => sql.$queryRawUnsafe<{ id: number; v: string }[]>(insert, i, `v${i}`)));
    expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 60 }, (_, i) => ({ id: i, v: `v${i}` })));
    // Again on connections that have the statement already (PostgreSQL: only bound and executed).
    const update = `UPDATE fast_t SET v = v || $2 WHERE id = $1::int`;
    const counts = await Promise.all(Array.from({ length: 60 }, (_, i) => sql.$executeRawUnsafe(update, i, "!")));
    expect(counts).toEqual(Array.from({ length: 60 }, () => 1));
    const read = `SELECT v FROM fast_t WHERE id = $1::int`;
    const back = await Promise.all(Array.from({ length: 60 }, (_, i) => sql.$queryRawUnsafe<{ v: string }[]>(read, i)));
    expect(back.map((r) => r[0]?.v)).toEqual(Array.from({ length: 60 }, (_, i) => `v${i}!`));
    // A failing statement (duplicate key) fails alone; the next use of the text works.
    await expect(sql.$queryRawUnsafe(insert, 0, "dup")).rejects.toThrow(/duplicate key/);
    expect(await sql.$queryRawUnsafe(insert, 100, "w")).toEqual([{ id: 100, v: "w" }]);
  });

  it("prepares its statements on both databases; two pools on one database (two processes) do not collide", async () => {
    const sql = fastSql(t.prisma);
    const text = `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'toolemu_fast_%'`;
    await sql.$queryRawUnsafe(text);
    const n = (await sql.$queryRawUnsafe<{ n: number }[]>(text))[0]?.n;
    expect(n).toBeGreaterThan(0);
    const other = createPrisma(t.url);
    try {
      const sql2 = fastSql(other);
      const read = `SELECT v FROM fast_t WHERE id = $1::int`;
      const both = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? sql : sql2).$queryRawUnsafe<{ v: string }[]>(read, i)));
      expect(both.map((r) => r[0]?.v)).toEqual(Array.from({ length: 40 }, (_, i) => `v${i}!`));
    } finally {
      await other.$disconnect();
    }
  });
});
