// SQL building blocks of the human-label panels (lib/dashboards/human.ts), server only.
//
// Labels are the SUBMITTED assignments' `values` JSON. A choice is turned into its score by the
// campaign's OWN stored label schema (never today's default), as a CASE over the option values;
// the campaign's items are narrowed by the dashboard filter (agent, mode, toolkit).
//
// MAJORITY VOTE, in SQL, per item and field, with a seeded tie-break:
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
//
// Two SQL forms compute the same majority: `majority` (a CASE per row over per-label count
// columns — used by the leave-one-out, failure and emulator queries) and the packed form
// (`packedScore` / `uniqueMajority` / `pickTied`) of the evaluator-vs-human query, where an item's
// votes are ONE bigint and the majority is worked out once per DISTINCT vote vector.
import "server-only";
import { createHash } from "node:crypto";
import { Prisma } from "@/lib/db/generated/client";
import type { LabelSchema } from "@/lib/annotation/label-schema";
import { BINARY_THRESHOLD, SCORE_LABELS, normalizeSeed } from "@/lib/metrics";
import type { DashboardFilter } from "./filters";
import { dashboardWhere } from "./sql";

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
export function tieBreakKey(seed: number, itemId: string, withoutAnnotator?: string): string {
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

/** An internal integer constant, inlined (not a parameter: typed, and plans stay generic). */
export function int(n: number): Prisma.Sql {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer constant: ${n}`);
  return Prisma.raw(String(n));
}

/** SQL: md5 of the tie-break key. `item` / `annotator` are SQL expressions. */
export function tieDigest(seed: number, item: Prisma.Sql, annotator?: Prisma.Sql): Prisma.Sql {
  const s = `${normalizeSeed(seed)}:`;
  return annotator === undefined
    ? Prisma.sql`md5(${s}::text || ${item})`
    : Prisma.sql`md5(${s}::text || ${item} || ':without:' || ${annotator})`;
}

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
  const x = Prisma.sql`('x' || substr(${digest}, ${int(4 * f + 1)}, 4))::bit(16)::int`;
  const arr = (xs: number[]) => Prisma.raw(`(ARRAY[${xs.join(",")}])`);
  const labelArr = Prisma.sql`(ARRAY[${Prisma.join(labels.map((l) => Prisma.sql`${l}::text`))}])`;
  return Prisma.sql`${labelArr}[${arr(pick)}[${mask} * ${int(n)} + (${x} % ${arr(pop)}[${mask} + 1]) + 1] + 1]`;
}

/** `CASE <json>->>'key' WHEN 'value' THEN score … END` from the campaign's schema (NULL::int when absent). */
export function scoreCase(schema: LabelSchema, key: string, json: Prisma.Sql = Prisma.sql`a."values"`): Prisma.Sql {
  const options = scoredOptions(schema, key);
  if (!options.length) return Prisma.sql`NULL::int`;
  const whens = options.map((o) => Prisma.sql`WHEN ${o.value}::text THEN ${int(o.score)}`);
  return Prisma.sql`(CASE ${json}->>${key}::text ${Prisma.join(whens, " ")} END)`;
}

function scoredOptions(schema: LabelSchema, key: string): { value: string; score: number }[] {
  const field = schema.fields.find((f) => f.key === key);
  if (!field || field.kind !== "choice") return [];
  return field.options.flatMap((o) => (typeof o.score === "number" && SCORE_LABELS.includes(o.score) ? [{ value: o.value, score: o.score }] : []));
}

/** Label rows of the campaign under the filter's data dimensions (agent, mode, toolkit). */
export function labelScope(campaignId: string, filter: DashboardFilter): Prisma.Sql {
  const narrowed = filter.agent !== undefined || filter.mode !== undefined || filter.toolkit !== undefined;
  const items = narrowed
    ? Prisma.sql` AND a."itemId" IN (SELECT ci.id FROM "CampaignItem" ci JOIN "Trajectory" t ON t.id = ci."trajectoryId"
                   WHERE ci."campaignId" = ${campaignId} AND ${dashboardWhere({ ...filter, campaign: undefined })})`
    : Prisma.empty;
  return Prisma.sql`a."campaignId" = ${campaignId} AND a.status = 'SUBMITTED'${items}`;
}

/** One candidate of a vote: its label text and its vote count (an SQL expression). */
export interface Candidate {
  readonly label: string;
  readonly count: Prisma.Sql;
}

/**
 * For a vote vector: the majority label when it is unique (NULL otherwise, and when nobody voted)
 * and the bitmask of the candidates that tie for the most votes (0 when unique or no votes).
 */
export function uniqueMajority(candidates: readonly Candidate[]): { label: Prisma.Sql; tiedMask: Prisma.Sql } {
  const counts = candidates.map((c) => c.count);
  const max = Prisma.sql`GREATEST(${Prisma.join(counts)})`;
  const atMax = Prisma.sql`(${Prisma.join(counts.map((c) => Prisma.sql`(${c} = ${max})::int`), " + ")})`;
  const unique = Prisma.join(candidates.map((c) => Prisma.sql`WHEN ${c.count} = ${max} THEN ${c.label}::text`), " ");
  const mask = Prisma.join(candidates.map((c, i) => Prisma.sql`(CASE WHEN ${c.count} = ${max} THEN ${int(1 << i)} ELSE 0 END)`), " + ");
  return {
    label: Prisma.sql`(CASE WHEN ${max} > 0 AND ${atMax} = 1 THEN (CASE ${unique} END) END)`,
    tiedMask: Prisma.sql`(CASE WHEN ${max} > 0 AND ${atMax} > 1 THEN ${mask} ELSE 0 END)`,
  };
}

/**
 * The majority label (as text; NULL when no candidate has a vote) and whether the seed had to
 * break a tie, as SQL expressions over the candidates' counts, evaluated per row. `digest` is the
 * item's tie digest (tieDigest); it is only evaluated when the row ties.
 */
export function majority(candidates: readonly Candidate[], field: TieField, digest: Prisma.Sql): { label: Prisma.Sql; tie: Prisma.Sql } {
  const m = uniqueMajority(candidates);
  const labels = candidates.map((c) => c.label);
  return {
    label: Prisma.sql`(CASE WHEN ${m.tiedMask} = 0 THEN ${m.label} ELSE ${pickTied(labels, m.tiedMask, digest, field)} END)`,
    tie: Prisma.sql`(${m.tiedMask} <> 0)`,
  };
}

/** `count(*) FILTER (WHERE <col> = l)::int AS <p>l` for the 0..3 labels. */
export function scoreCounts(prefix: string, col: string): Prisma.Sql {
  return Prisma.join(
    SCORE_LABELS.map((l) => Prisma.sql`count(*) FILTER (WHERE ${Prisma.raw(col)} = ${int(l)})::int AS ${Prisma.raw(prefix + l)}`),
    ", ",
  );
}

/** Candidates on the 0..3 scale from count columns (optionally minus an own label: leave-one-out). */
export function scoreCandidates(table: string, prefix: string, minusOwn?: Prisma.Sql): Candidate[] {
  return SCORE_LABELS.map((l) => ({
    label: String(l),
    count: minusOwn
      ? Prisma.sql`(${Prisma.raw(`${table}.${prefix}${l}`)} - (${minusOwn} IS NOT DISTINCT FROM ${int(l)})::int)`
      : Prisma.raw(`${table}.${prefix}${l}`),
  }));
}

/** Candidates on the binarized scale (score ≥ 2 → '1'): binarize every rating, then vote. */
export function binaryCandidates(table: string, prefix: string, minusOwn?: Prisma.Sql): Candidate[] {
  const sum = (pred: (l: number) => boolean, cls: number) => {
    const cols = SCORE_LABELS.filter(pred).map((l) => Prisma.raw(`${table}.${prefix}${l}`));
    const total = Prisma.sql`(${Prisma.join(cols, " + ")})`;
    return minusOwn ? Prisma.sql`(${total} - (${binaryOf(minusOwn)} IS NOT DISTINCT FROM ${int(cls)})::int)` : total;
  };
  return [
    { label: "0", count: sum((l) => l < BINARY_THRESHOLD, 0) },
    { label: "1", count: sum((l) => l >= BINARY_THRESHOLD, 1) },
  ];
}

/** A 0..3 score → its binarized class 0 | 1 (NULL stays NULL). */
export function binaryOf(score: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(CASE WHEN ${score} IS NULL THEN NULL WHEN ${score} >= ${int(BINARY_THRESHOLD)} THEN 1 ELSE 0 END)`;
}

// ---------------------------------------------------------------------------------------------
// Packed vote vectors (the fast path of the evaluator-vs-human query).
//
// Per item, the votes for the four safety scores and the four helpfulness scores are summed into
// ONE bigint: label l of slot s adds 1 << (PACK_BITS · (4s + l)). One sum() per item is much
// cheaper than eight filtered counts, and the majority only depends on the vector, so it is
// worked out once per DISTINCT vector (a few hundred) in a small materialized table, not per item.
// PACK_BITS = 6 holds up to 63 votes per label; an item has at most k ≤ 20 labels (the campaign
// schema's limit, enforced on submit), and evaluatorVsHuman refuses k > 63.
export const PACK_BITS = 6;
export const MAX_PACKED_VOTES = 2 ** PACK_BITS - 1;

/** The packed increment of one label row for a score field in slot `slot` (0: bits 0–23, 1: bits 24–47). */
export function packedScore(schema: LabelSchema, key: string, slot: number): Prisma.Sql {
  const options = scoredOptions(schema, key);
  if (!options.length) return Prisma.sql`0::bigint`;
  const shift = (score: number) => PACK_BITS * (SCORE_LABELS.length * slot + SCORE_LABELS.indexOf(score));
  const whens = options.map((o) => Prisma.sql`WHEN ${o.value}::text THEN ${int(2 ** shift(o.score))}::bigint`);
  return Prisma.sql`(CASE a."values"->>${key}::text ${Prisma.join(whens, " ")} ELSE 0::bigint END)`;
}

/** Candidates of a packed slot on the 0..3 scale or the binarized one (binarize, then vote). */
export function packedCandidates(col: Prisma.Sql, slot: number, scale: "score" | "binary"): Candidate[] {
  const counts = SCORE_LABELS.map((_, l) => Prisma.sql`((${col} >> ${int(PACK_BITS * (SCORE_LABELS.length * slot + l))}) & ${int(MAX_PACKED_VOTES)})`);
  if (scale === "score") return SCORE_LABELS.map((label, l) => ({ label: String(label), count: counts[l]! }));
  const sum = (pred: (x: number) => boolean) => Prisma.sql`(${Prisma.join(SCORE_LABELS.flatMap((x, l) => (pred(x) ? [counts[l]!] : [])), " + ")})`;
  return [
    { label: "0", count: sum((x) => x < BINARY_THRESHOLD) },
    { label: "1", count: sum((x) => x >= BINARY_THRESHOLD) },
  ];
}
