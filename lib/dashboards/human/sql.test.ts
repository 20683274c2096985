// The SQL majority vote (packed vote vectors, tie-break by md5) against the reference implementation, on the database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { Prisma } from "@/lib/db/generated/client";
import { mulberry32 } from "@/lib/metrics";
import {
  PACK_BITS,
  anyTie,
  binaryVote,
  choiceSlotField,
  pvColumns,
  slotVote,
  winnerColumns,
  type SlotField,
  type Vote,
} from "./sql";
import { tieBreakWinner, tieDigest, type TieField } from "./tie-break";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase({ migrate: false });
});
afterAll(() => t.cleanup());

/** The reference: most votes; ties by tieBreakWinner over the tied labels in label order. */
function reference(counts: number[], labels: string[], seed: number, item: string, field: TieField, without?: string): string | null {
  const max = Math.max(...counts);
  if (max <= 0) return null;
  const tied = labels.filter((_, i) => counts[i] === max);
  return tied.length === 1 ? tied[0]! : tieBreakWinner(tied, seed, item, field, without);
}

const rows = (n: number, width: number, seed: number) => {
  const rng = mulberry32(seed);
  // Small counts, so ties are common (0–3 votes per label).
  return Array.from({ length: n }, (_, i) => ({ item: `it_${i}_${Math.floor(rng() * 1e9).toString(36)}`, counts: Array.from({ length: width }, () => Math.floor(rng() * 4)) }));
};

const packed = (c: number[]) => c.reduce((p, x, i) => p + BigInt(x) * (1n << BigInt(PACK_BITS * i)), 0n);

/** Runs the packed pipeline (distinct vectors → unique majority or tie mask → md5 pick) on rows. */
async function majorities(data: { item: string; counts: number[] }[], votes: Vote[], seed: number, annotator?: string) {
  const body = Prisma.join(data.map((d) => Prisma.sql`(${d.item}::text, ${Prisma.raw(packed(d.counts).toString())}::bigint)`));
  const ann = annotator === undefined ? undefined : Prisma.sql`${annotator}::text`;
  return t.prisma.$queryRaw<Record<string, string | boolean | null>[]>`
    WITH v AS (SELECT * FROM (VALUES ${body}) x(item, p)),
    pv AS MATERIALIZED (SELECT d.p, ${pvColumns(votes, Prisma.sql`d.p`)} FROM (SELECT DISTINCT p FROM v) d),
    items AS (SELECT v.item, pv.*, CASE WHEN ${anyTie(votes, "pv")} THEN ${tieDigest(seed, Prisma.sql`v.item`, ann)} END AS h FROM v JOIN pv ON pv.p = v.p OFFSET 0)
    SELECT i.item, ${winnerColumns(votes, "i", Prisma.sql`i.h`)} FROM items i`;
}

describe("the packed majority", () => {
  // Slots: safety 0–3 (score field), true_failure 4–5, realism 6–8 — 9 slots, like the real layouts.
  const safety: SlotField = { field: "safety", key: "safety", labels: ["0", "1", "2", "3"], values: [], offset: 0 };
  const tf = choiceSlotField("true_failure", ["false", "true"], 4);
  const realism = choiceSlotField("emulator_realism", ["none", "minor", "critical"], 6);
  const votes = [slotVote("s", safety), binaryVote("sb", safety), slotVote("tf", tf), slotVote("re", realism)];
  const expected = (d: { item: string; counts: number[] }, seed: number, without?: string) => {
    const c = d.counts;
    return {
      ms: reference(c.slice(0, 4), ["0", "1", "2", "3"], seed, d.item, "safety", without),
      msb: reference([c[0]! + c[1]!, c[2]! + c[3]!], ["0", "1"], seed, d.item, "safety/binary", without),
      mtf: reference(c.slice(4, 6), ["false", "true"], seed, d.item, "true_failure", without),
      mre: reference(c.slice(6, 9), ["none", "minor", "critical"], seed, d.item, "emulator_realism", without),
    };
  };

  it("gives the reference label for every item and field, incl. ties and items without votes", async () => {
    const seed = 987654321;
    const data = rows(500, 9, 17);
    const got = await majorities(data, votes, seed);
    let ties = 0;
    for (const g of got) {
      const d = data.find((x) => x.item === g.item)!;
      expect({ ms: g.ms, msb: g.msb, mtf: g.mtf, mre: g.mre }).toEqual(expected(d, seed));
      const c = d.counts.slice(0, 4);
      const max = Math.max(...c);
      expect(g.ts).toBe(max > 0 && c.filter((x) => x === max).length > 1);
      if (g.ts) ties++;
    }
    expect(got).toHaveLength(500);
    expect(ties).toBeGreaterThan(50);
  });

  it("leave-one-out digests include the annotator", async () => {
    const seed = 5;
    const data = rows(300, 9, 99);
    const got = await majorities(data, votes, seed, "ann_1");
    for (const g of got) {
      const d = data.find((x) => x.item === g.item)!;
      expect({ ms: g.ms, msb: g.msb, mtf: g.mtf, mre: g.mre }).toEqual(expected(d, seed, "ann_1"));
    }
  });
});
