// analyticTogether: a panel's statements run at once and are combined only when they all read one
// data version; otherwise they run again, and a panel whose data keeps changing says so.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/lib/db/generated/client";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { TOGETHER_ATTEMPTS, analyticTogether } from "./analytic";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.sql.query("CREATE SEQUENCE tg_once; CREATE SEQUENCE tg_always");
});
afterAll(() => t.cleanup());

const lastValue = async (seq: string) => Number((await t.sql.query(`SELECT last_value FROM ${seq}`)).rows[0].last_value);

describe("analyticTogether", () => {
  it("returns each statement's rows, in order, when the versions agree", async () => {
    const [a, b] = await analyticTogether<[{ x: number }[], { y: string }[]]>(
      t.prisma,
      [Prisma.sql`SELECT 1::int AS x UNION ALL SELECT 2`, Prisma.sql`SELECT 'b'::text AS y`],
      Prisma.sql`SELECT 'v1'::text AS v`,
    );
    expect(a).toEqual([{ x: 1 }, { x: 2 }]);
    expect(b).toEqual([{ y: "b" }]);
  });

  it("runs both again when a version changed between them (here: the first attempt's two probes differ)", async () => {
    // Probes 1 and 2 give 'false' and 'true'; the second attempt's 3 and 4 both 'true'.
    const rows = await analyticTogether<[{ x: number }[], { x: number }[]]>(
      t.prisma,
      [Prisma.sql`SELECT 1::int AS x`, Prisma.sql`SELECT 2::int AS x`],
      Prisma.sql`SELECT (nextval('tg_once') > 1)::text AS v`,
    );
    expect(rows).toEqual([[{ x: 1 }], [{ x: 2 }]]);
    expect(await lastValue("tg_once")).toBe(4);
  });

  it("gives up with a clear error when the data changes at every attempt", async () => {
    await expect(
      analyticTogether(t.prisma, [Prisma.sql`SELECT 1`, Prisma.sql`SELECT 2`], Prisma.sql`SELECT nextval('tg_always')::text AS v`),
    ).rejects.toThrow(/changed while this panel was computed, 5 times in a row/);
    expect(await lastValue("tg_always")).toBe(2 * TOGETHER_ATTEMPTS);
  });
});
