// The seeded tie-break of the human-label panels' majority votes (server only), in SQL and as a
// reference implementation in TypeScript.
//
// MAJORITY VOTE, per item and field, with a seeded tie-break:
//   the label with the most votes wins. When t ≥ 2 labels share the most votes:
//     1. list the tied labels in the field's label order (scores 0 < 1 < 2 < 3; binarized 0 < 1;
//        true_failure false < true; severities none < minor < critical);
//     2. h = md5('<seed>:<item id>') as 32 lower-case hex digits — <seed> is the dashboard seed as
//        an unsigned 32-bit decimal, <item id> the campaign item's id; a leave-one-out vote (the
//        majority of the OTHER annotators) uses md5('<seed>:<item id>:without:<annotator id>');
//     3. field number f (TIE_FIELDS: safety 0, helpfulness 1, safety binarized 2, helpfulness
//        binarized 3, true_failure 4, input validation 5, realism 6, consistency 7) reads hex
//        digits 4f+1 … 4f+4 of h as a number x in 0 … 65535;
//     4. the winner is tied label number (x mod t), counting from 0.
//   So a tie is decided by the seed and the item alone (not by row order or by other items), each
//   field draws from its own part of the digest, and anyone can recompute a decision with md5
//   (`tieBreakWinner` is the reference implementation, used by the tests). md5 is only evaluated
//   for items that tie (one digest per tied item serves all its fields).
import "server-only";
import { createHash } from "node:crypto";
import { Prisma } from "@/lib/db/generated/client";
import { normalizeSeed, type TiePolicy } from "@/lib/metrics";

/** Which 4-hex-digit part of the item's digest breaks ties of which field. */
export const TIE_FIELDS = {
  safety: 0,
  helpfulness: 1,
  "safety/binary": 2,
  "helpfulness/binary": 3,
  true_failure: 4,
  emulator_input_validation: 5,
  emulator_realism: 6,
  emulator_consistency: 7,
} as const;
export type TieField = keyof typeof TIE_FIELDS;

/** The text whose md5 breaks an item's ties. */
function tieBreakKey(seed: number, itemId: string, withoutAnnotator?: string): string {
  return withoutAnnotator === undefined ? `${normalizeSeed(seed)}:${itemId}` : `${normalizeSeed(seed)}:${itemId}:without:${withoutAnnotator}`;
}

/** Reference implementation of the tie-break: `tied` in the field's label order. */
export function tieBreakWinner<T>(tied: readonly T[], seed: number, itemId: string, field: TieField, withoutAnnotator?: string): T {
  if (tied.length === 0) throw new RangeError("nothing to choose from");
  const h = createHash("md5").update(tieBreakKey(seed, itemId, withoutAnnotator), "utf8").digest("hex");
  const f = TIE_FIELDS[field];
  const x = parseInt(h.slice(4 * f, 4 * f + 4), 16);
  return tied[x % tied.length]!;
}

/** SQL: md5 of the tie-break key. `item` / `annotator` are SQL expressions. */
export function tieDigest(seed: number, item: Prisma.Sql, annotator?: Prisma.Sql): Prisma.Sql {
  const s = `${normalizeSeed(seed)}:`;
  return annotator === undefined
    ? Prisma.sql`md5(${s}::text || ${item})`
    : Prisma.sql`md5(${s}::text || ${item} || ':without:' || ${annotator})`;
}

/**
 * SQL: the digest for the tie-break under a tie policy — tieDigest, except under "exclude", whose
 * ground truth never reads a draw (lib/metrics/ground-truth.ts resolvedLabel): there a constant
 * (the first tied label "wins", unread) spares one md5 per tied item.
 */
export function policyDigest(policy: TiePolicy, seed: number, item: Prisma.Sql, annotator?: Prisma.Sql): Prisma.Sql {
  return policy === "exclude" ? NO_DRAW : tieDigest(seed, item, annotator);
}

/** A digest that draws the first tied label. */
export const NO_DRAW = Prisma.sql`repeat('0', 32)`;

/**
 * SQL: the winner among the candidates whose bit is set in `mask` (bit i = labels[i]), drawn with
 * the field's part of the digest `digest` (see the header). `labels` in the field's label order.
 */
export function pickTied(labels: readonly string[], mask: Prisma.Sql, digest: Prisma.Sql, field: TieField): Prisma.Sql {
  const n = labels.length;
  if (n < 1 || n > 8) throw new RangeError("1 to 8 candidates");
  // pop[mask] = number of set bits; pick[mask·n + j] = index of the j-th set bit.
  const pop: number[] = [];
  const pick: number[] = [];
  for (let m = 0; m < 1 << n; m++) {
    const set = labels.map((_, i) => i).filter((i) => (m >> i) & 1);
    pop.push(set.length);
    for (let j = 0; j < n; j++) pick.push(set[j] ?? 0);
  }
  const f = TIE_FIELDS[field];
  const x = Prisma.sql`('x' || substr(${digest}, ${Prisma.raw(String(4 * f + 1))}, 4))::bit(16)::int`;
  const arr = (xs: number[]) => Prisma.raw(`(ARRAY[${xs.join(",")}])`);
  const labelArr = Prisma.sql`(ARRAY[${Prisma.join(labels.map((l) => Prisma.sql`${l}::text`))}])`;
  return Prisma.sql`${labelArr}[${arr(pick)}[${mask} * ${Prisma.raw(String(n))} + (${x} % ${arr(pop)}[${mask} + 1]) + 1] + 1]`;
}
