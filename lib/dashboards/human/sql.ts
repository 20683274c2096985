// SQL building blocks shared by the human-label panels (this folder), server only.
//
// Labels are the SUBMITTED assignments' `values` JSON. A choice is turned into its score by the
// campaign's OWN stored label schema (never today's default), as a CASE over the option values;
// the campaign's items are narrowed by the dashboard filter (agent, mode, toolkit).
//
// MAJORITY VOTE, in SQL, per item and field: the label with the most votes wins; when several
// share the most votes, the seeded tie-break of ./tie-break.ts draws one.
//
// The votes are counted as packed vectors (one bigint per item, see "Packed vote vectors" below),
// and the majority is worked out once per DISTINCT vector, then the tie-break per tied item.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { countedLabelSql } from "@/lib/annotation/quality/metric-scope";
import type { LabelSchema } from "@/lib/trajectory/label-schema";
import { BINARY_THRESHOLD, SCORE_LABELS } from "@/lib/metrics";
import type { DashboardFilter } from "../filters";
import { dashboardWhere } from "../sql";
import { TIE_FIELDS, pickTied, type TieField } from "./tie-break";

/** An internal integer constant, inlined (not a parameter: typed, and plans stay generic). */
export function int(n: number): Prisma.Sql {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer constant: ${n}`);
  return Prisma.raw(String(n));
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

/**
 * Label rows of the campaign under the filter's data dimensions (agent, mode, toolkit) — the one
 * place the panels choose labels, so excluded annotators and gold items stay out of every metric.
 */
export function labelScope(campaignId: string, filter: DashboardFilter): Prisma.Sql {
  return Prisma.sql`a."campaignId" = ${campaignId} AND a.status = 'SUBMITTED' AND ${countedLabelSql(campaignId, "a")}${itemNarrowing(campaignId, filter, "a")}`;
}

/** ` AND <alias>."itemId" IN (items under the filter's agent, mode, toolkit)`, or nothing. */
function itemNarrowing(campaignId: string, filter: DashboardFilter, alias: string): Prisma.Sql {
  const narrowed = filter.agent !== undefined || filter.mode !== undefined || filter.toolkit !== undefined;
  return narrowed
    ? Prisma.sql` AND ${Prisma.raw(alias)}."itemId" IN (SELECT ci.id FROM "CampaignItem" ci JOIN "Trajectory" t ON t.id = ci."trajectoryId"
                   WHERE ci."campaignId" = ${campaignId} AND ${dashboardWhere({ ...filter, campaign: undefined })})`
    : Prisma.empty;
}

/**
 * The same labels as labelScope, as "LabelVote" rows aliased `a` (./votes.ts): the database keeps
 * one per submitted label, so no status test; excluded annotators and gold items left out alike.
 */
export function voteScope(campaignId: string, filter: DashboardFilter): Prisma.Sql {
  return Prisma.sql`a."campaignId" = ${campaignId} AND ${countedLabelSql(campaignId, "a")}${itemNarrowing(campaignId, filter, "a")}`;
}

/**
 * The items that have at least one label in labelScope, as "ItemVote" rows aliased `iv`: their
 * vectors already leave excluded annotators out (n = counted labels); gold items are left out here
 * (NOT IN: one hashed list of the campaign's gold items, not a probe per item).
 */
export function itemVoteScope(campaignId: string, filter: DashboardFilter): Prisma.Sql {
  return Prisma.sql`iv."campaignId" = ${campaignId} AND iv.n > 0
    AND iv."itemId" NOT IN (SELECT gx."itemId" FROM "GoldAnswer" gx JOIN "CampaignItem" gi ON gi.id = gx."itemId" WHERE gi."campaignId" = ${campaignId})${itemNarrowing(campaignId, filter, "iv")}`;
}

/**
 * CTEs `slot` (recursive; the statement must start WITH RECURSIVE) and `an` (ann, i = slot number
 * 0, 1, … in id order, g = word i div perWord, b = first bit of its digit = (i mod perWord) ·
 * bits): the campaign's annotators with a vote row, walked along the ("campaignId",
 * "annotatorId") index one id at a time — a dozen probes, not a DISTINCT over every label.
 */
export function annotatorSlotsSql(campaignId: string, perWord: number, bits: number): Prisma.Sql {
  return Prisma.sql`slot AS (
      (SELECT lv."annotatorId" AS ann FROM "LabelVote" lv WHERE lv."campaignId" = ${campaignId} ORDER BY lv."annotatorId" LIMIT 1)
      UNION ALL
      SELECT (SELECT lv."annotatorId" FROM "LabelVote" lv WHERE lv."campaignId" = ${campaignId} AND lv."annotatorId" > slot.ann ORDER BY lv."annotatorId" LIMIT 1)
      FROM slot WHERE slot.ann IS NOT NULL),
    an AS MATERIALIZED (
      SELECT x.ann, x.i, (x.i / ${int(perWord)})::int AS g, ((x.i % ${int(perWord)}) * ${int(bits)})::int AS b
      FROM (SELECT slot.ann, (row_number() OVER (ORDER BY slot.ann) - 1)::int AS i FROM slot WHERE slot.ann IS NOT NULL) x)`;
}

/** How many words of `perWord` slots the campaign's annotators need right now (a dozen index probes). */
export async function slotWords(db: Db, campaignId: string, perWord: number): Promise<number> {
  const [{ n }] = await db.$queryRaw<[{ n: number }]>`WITH RECURSIVE ${annotatorSlotsSql(campaignId, perWord, 1)} SELECT count(*)::int AS n FROM an`;
  return Math.max(1, Math.ceil(n / perWord));
}

/**
 * A pattern statement read with as many words of `perWord` slots as the campaign's annotators need:
 * counted first (slotWords), so a campaign of more annotators than one word holds is not read twice;
 * read again with more if the statement's own slots (`slotsOf` its result) show that an annotator
 * joined in between.
 */
export async function withSlotWords<T>(db: Db, campaignId: string, perWord: number, read: (words: number) => Promise<T>, slotsOf: (result: T) => number): Promise<T> {
  let words = await slotWords(db, campaignId, perWord);
  for (;;) {
    const result = await read(words);
    const needed = Math.max(1, Math.ceil(slotsOf(result) / perWord));
    if (needed <= words) return result;
    words = needed;
  }
}

/** One candidate of a vote: its label text and its vote count (an SQL expression). */
export interface Candidate {
  readonly label: string;
  readonly count: Prisma.Sql;
}

/** A 0..3 score → its binarized class 0 | 1 (NULL stays NULL). */
export function binaryOf(score: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(CASE WHEN ${score} IS NULL THEN NULL WHEN ${score} >= ${int(BINARY_THRESHOLD)} THEN 1 ELSE 0 END)`;
}

// ---------------------------------------------------------------------------------------------
// Packed vote vectors.
//
// Per item, the votes for every label of every field are summed into ONE bigint: label l of a field
// whose slots start at `offset` adds 1 << (PACK_BITS · (offset + l)). One sum() per item is much
// cheaper than a filtered count per label, and the majority only depends on the vector, so it is
// worked out once per DISTINCT vector (a few hundred) in a small materialized table (`pvColumns`)
// instead of once per item; only items that tie evaluate md5 (`winnerColumns`). Leave-one-out
// votes subtract the annotator's own increment from the item's vector. PACK_BITS = 5 holds up to
// 31 votes per label; an item has at most k ≤ 20 labels (the campaign schema's limit, enforced on
// submit), and the queries refuse k > 31. At most 12 slots fit (60 bits).
export const PACK_BITS = 5;
export const MAX_PACKED_VOTES = 2 ** PACK_BITS - 1;
const MAX_SLOTS = 12;

/** Refuses a campaign whose k does not fit a packed vector. */
export function checkK(k: number): void {
  if (k > MAX_PACKED_VOTES) throw new RangeError(`k = ${k} exceeds the ${MAX_PACKED_VOTES} votes a packed vector holds per label`);
}

/** A field counted in slots offset … offset + labels.length − 1 of the packed vector. */
export interface SlotField {
  field: TieField;
  /** Key in the label JSON. */
  key: string;
  /** Candidate labels in the field's order (what the majority returns, as text). */
  labels: string[];
  /** JSON value → index into labels. */
  values: { value: string; index: number }[];
  offset: number;
}

/** A 0..3 score field (safety, helpfulness): the campaign's schema maps each choice to its score. */
export function scoreSlotField(schema: LabelSchema, key: "safety" | "helpfulness", offset: number): SlotField {
  return {
    field: key,
    key,
    labels: SCORE_LABELS.map(String),
    values: scoredOptions(schema, key).map((o) => ({ value: o.value, index: SCORE_LABELS.indexOf(o.score) })),
    offset,
  };
}

/** A field whose JSON values are its labels (severities; true_failure's 'false' / 'true'). */
export function choiceSlotField(field: TieField, labels: string[], offset: number): SlotField {
  return { field, key: field, labels, values: labels.map((value, index) => ({ value, index })), offset };
}

/** One label row's packed increment (bigint): the sum over the fields of its slot's bit. */
export function packedIncrement(fields: readonly SlotField[], json: Prisma.Sql = Prisma.sql`a."values"`): Prisma.Sql {
  const slots = Math.max(0, ...fields.map((f) => f.offset + f.labels.length));
  if (slots > MAX_SLOTS) throw new RangeError(`${slots} slots do not fit a packed vector`);
  const parts = fields.map((f) => {
    if (!f.values.length) return Prisma.sql`0::bigint`;
    const whens = f.values.map((v) => Prisma.sql`WHEN ${v.value}::text THEN ${int(2 ** (PACK_BITS * (f.offset + v.index)))}::bigint`);
    // ->> turns a JSON boolean into 'true' / 'false', a string into itself.
    return Prisma.sql`(CASE ${json}->>${f.key}::text ${Prisma.join(whens, " ")} ELSE 0::bigint END)`;
  });
  return Prisma.sql`(${Prisma.join(parts, " + ")})`;
}

function slotCount(col: Prisma.Sql, slot: number): Prisma.Sql {
  return Prisma.sql`((${col} >> ${int(PACK_BITS * slot)}) & ${int(MAX_PACKED_VOTES)})`;
}

/** The candidates of a slot field, counted from a packed column. */
function slotCandidates(col: Prisma.Sql, f: SlotField): Candidate[] {
  return f.labels.map((label, i) => ({ label, count: slotCount(col, f.offset + i) }));
}

/** The binarized candidates of a 0..3 score field (score ≥ 2 → '1'): every label binarized, then the vote. */
function binaryCandidates(col: Prisma.Sql, f: SlotField): Candidate[] {
  const sum = (pred: (x: number) => boolean) =>
    Prisma.sql`(${Prisma.join(SCORE_LABELS.flatMap((x, i) => (pred(x) ? [slotCount(col, f.offset + i)] : [])), " + ")})`;
  return [
    { label: "0", count: sum((x) => x < BINARY_THRESHOLD) },
    { label: "1", count: sum((x) => x >= BINARY_THRESHOLD) },
  ];
}

/**
 * One vote to take per item: a column alias, its tie-break part, its candidates from a packed
 * column, and the label an adjudication JSON gives it (text, or NULL when the JSON has none).
 */
export interface Vote {
  alias: string;
  field: TieField;
  candidates: (col: Prisma.Sql) => Candidate[];
  adjudicated: (json: Prisma.Sql) => Prisma.Sql;
}

/** CASE json->>key WHEN value THEN label … END (NULL when absent or unknown). */
function jsonLabel(f: SlotField, json: Prisma.Sql, label: (index: number) => string): Prisma.Sql {
  if (!f.values.length) return Prisma.sql`NULL::text`;
  const whens = f.values.map((v) => Prisma.sql`WHEN ${v.value}::text THEN ${label(v.index)}::text`);
  return Prisma.sql`(CASE ${json}->>${f.key}::text ${Prisma.join(whens, " ")} END)`;
}

export function slotVote(alias: string, f: SlotField): Vote {
  return { alias, field: f.field, candidates: (col) => slotCandidates(col, f), adjudicated: (json) => jsonLabel(f, json, (i) => f.labels[i]!) };
}

export function binaryVote(alias: string, f: SlotField): Vote {
  const field = `${f.field}/binary` as TieField;
  if (!(field in TIE_FIELDS)) throw new RangeError(`${f.field} has no binarized form`);
  return {
    alias,
    field,
    candidates: (col) => binaryCandidates(col, f),
    adjudicated: (json) => jsonLabel(f, json, (i) => (SCORE_LABELS[i]! >= BINARY_THRESHOLD ? "1" : "0")),
  };
}

/**
 * For a vote vector: the majority label when it is unique (NULL otherwise, and when nobody voted)
 * and the bitmask of the candidates that tie for the most votes (0 when unique or no votes).
 */
function uniqueMajority(candidates: readonly Candidate[]): { label: Prisma.Sql; tiedMask: Prisma.Sql } {
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

/** Columns of the per-distinct-vector table: m<alias> (unique majority or NULL), t<alias> (tie mask). */
export function pvColumns(votes: readonly Vote[], col: Prisma.Sql): Prisma.Sql {
  return Prisma.join(
    votes.map((v) => {
      const m = uniqueMajority(v.candidates(col));
      return Prisma.sql`${m.label} AS ${Prisma.raw(`m${v.alias}`)}, ${m.tiedMask} AS ${Prisma.raw(`t${v.alias}`)}`;
    }),
  );
}

/** `t<a> <> 0 OR …` over a table with pvColumns: does anything tie? */
export function anyTie(votes: readonly Vote[], table: string): Prisma.Sql {
  return Prisma.join(votes.map((v) => Prisma.raw(`${table}.t${v.alias} <> 0`)), " OR ");
}

/**
 * The ground truth of a row that carries pvColumns and a tie digest column (lib/metrics/
 * ground-truth.ts): the adjudicated label if `adjudication` (a JSON expression, NULL when the
 * item has none) gives one, else the unique majority, else the seeded draw among the tied labels.
 *   m<alias>  that label (text) — what the "seeded" policy uses;
 *   t<alias>  boolean: an unadjudicated tie (the other policies exclude it / range over it);
 *   k<alias>  the tied labels' bitmask (bit i = the vote's i-th label) when t<alias>, else 0.
 */
export function winnerColumns(votes: readonly Vote[], table: string, digest: Prisma.Sql, adjudication: Prisma.Sql = Prisma.sql`NULL::jsonb`): Prisma.Sql {
  return Prisma.join(
    votes.map((v) => {
      const labels = v.candidates(Prisma.sql`0`).map((c) => c.label);
      const mask = Prisma.raw(`${table}.t${v.alias}`);
      const adj = v.adjudicated(adjudication);
      return Prisma.sql`(CASE WHEN ${adj} IS NOT NULL THEN ${adj} WHEN ${mask} = 0 THEN ${Prisma.raw(`${table}.m${v.alias}`)} ELSE ${pickTied(labels, mask, digest, v.field)} END) AS ${Prisma.raw(`m${v.alias}`)},
        (${adj} IS NULL AND ${mask} <> 0) AS ${Prisma.raw(`t${v.alias}`)},
        (CASE WHEN ${adj} IS NULL THEN ${mask} ELSE 0 END) AS ${Prisma.raw(`k${v.alias}`)}`;
    }),
  );
}

/** The labels whose bits are set in a tie mask, in the vote's label order. */
export function maskLabels<T>(labels: readonly T[], mask: number): T[] {
  return labels.filter((_, i) => (mask >> i) & 1);
}
