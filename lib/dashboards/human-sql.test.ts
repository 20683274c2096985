// The SQL majority vote (both forms) against the reference tie-break, on the database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { Prisma } from "@/lib/db/generated/client";
import { mulberry32 } from "@/lib/metrics";
import {
  PACK_BITS,
  majority,
  packedCandidates,
  pickTied,
  tieBreakWinner,
  tieDigest,
  uniqueMajority,
  type Candidate,
  type TieField,
} from "./human-sql";

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

function valuesTable(data: { item: string; counts: number[] }[], width: number): Prisma.Sql {
  const cols = Array.from({ length: width }, (_, i) => `c${i}`).join(", ");
  const body = Prisma.join(data.map((d) => Prisma.sql`(${d.item}::text, ${Prisma.join(d.counts.map((c) => Prisma.raw(String(c))))})`));
  return Prisma.sql`(VALUES ${body}) v(item, ${Prisma.raw(cols)})`;
}

describe("majority() per row", () => {
  const cases: { field: TieField; labels: string[] }[] = [
    { field: "safety", labels: ["0", "1", "2", "3"] },
    { field: "helpfulness/binary", labels: ["0", "1"] },
    { field: "true_failure", labels: ["false", "true"] },
    { field: "emulator_realism", labels: ["none", "minor", "critical"] },
  ];
  for (const { field, labels } of cases) {
    it(`${field}: same label as the reference for every item, incl. ties and "no votes"`, async () => {
      const seed = 987654321;
      const data = rows(400, labels.length, labels.length * 17);
      const candidates: Candidate[] = labels.map((label, i) => ({ label, count: Prisma.raw(`v.c${i}`) }));
      const m = majority(candidates, field, tieDigest(seed, Prisma.sql`v.item`));
      const got = await t.prisma.$queryRaw<{ item: string; label: string | null; tie: boolean }[]>`
        SELECT v.item, ${m.label} AS label, ${m.tie} AS tie FROM ${valuesTable(data, labels.length)}`;
      const byItem = new Map(got.map((g) => [g.item, g]));
      let ties = 0;
      for (const d of data) {
        const g = byItem.get(d.item)!;
        expect(g.label).toBe(reference(d.counts, labels, seed, d.item, field));
        const max = Math.max(...d.counts);
        const isTie = max > 0 && d.counts.filter((c) => c === max).length > 1;
        expect(g.tie).toBe(isTie);
        if (isTie) ties++;
      }
      expect(ties).toBeGreaterThan(20);
    });
  }

  it("leave-one-out digests include the annotator", async () => {
    const seed = 5;
    const data = rows(200, 4, 99);
    const candidates: Candidate[] = ["0", "1", "2", "3"].map((label, i) => ({ label, count: Prisma.raw(`v.c${i}`) }));
    const m = majority(candidates, "safety", tieDigest(seed, Prisma.sql`v.item`, Prisma.sql`'ann_1'`));
    const got = await t.prisma.$queryRaw<{ item: string; label: string | null }[]>`SELECT v.item, ${m.label} AS label FROM ${valuesTable(data, 4)}`;
    for (const g of got) {
      const d = data.find((x) => x.item === g.item)!;
      expect(g.label).toBe(reference(d.counts, ["0", "1", "2", "3"], seed, d.item, "safety", "ann_1"));
    }
  });
});

describe("the packed form", () => {
  it("decodes vote vectors and picks the same winners as the reference", async () => {
    const seed = 4242;
    const data = rows(400, 8, 7); // safety counts (slot 0) and helpfulness counts (slot 1)
    const packed = (c: number[]) => c.reduce((p, x, i) => p + BigInt(x) * (1n << BigInt(PACK_BITS * i)), 0n);
    const body = Prisma.join(data.map((d) => Prisma.sql`(${d.item}::text, ${Prisma.raw(packed(d.counts).toString())}::bigint)`));
    const fields = [
      { field: "safety", slot: 0, scale: "score" },
      { field: "helpfulness", slot: 1, scale: "score" },
      { field: "safety/binary", slot: 0, scale: "binary" },
      { field: "helpfulness/binary", slot: 1, scale: "binary" },
    ] as const;
    const cols = fields.map((f, k) => {
      const cands = packedCandidates(Prisma.sql`v.p`, f.slot, f.scale);
      const u = uniqueMajority(cands);
      const winner = pickTied(cands.map((c) => c.label), u.tiedMask, tieDigest(seed, Prisma.sql`v.item`), f.field);
      return Prisma.sql`(CASE WHEN ${u.tiedMask} = 0 THEN ${u.label} ELSE ${winner} END) AS ${Prisma.raw(`m${k}`)}`;
    });
    const got = await t.prisma.$queryRaw<Record<string, string | null>[]>`
      SELECT v.item, ${Prisma.join(cols)} FROM (VALUES ${body}) v(item, p)`;
    for (const g of got) {
      const d = data.find((x) => x.item === g.item)!;
      const s = d.counts.slice(0, 4);
      const h = d.counts.slice(4, 8);
      const bin = (c: number[]) => [c[0]! + c[1]!, c[2]! + c[3]!];
      expect([g.m0, g.m1, g.m2, g.m3]).toEqual([
        reference(s, ["0", "1", "2", "3"], seed, d.item, "safety"),
        reference(h, ["0", "1", "2", "3"], seed, d.item, "helpfulness"),
        reference(bin(s), ["0", "1"], seed, d.item, "safety/binary"),
        reference(bin(h), ["0", "1"], seed, d.item, "helpfulness/binary"),
      ]);
    }
  });
});
