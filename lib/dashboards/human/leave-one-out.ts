// Leave-one-out κ of the human-vs-human panel (server only): each annotator against the majority
// of the OTHER annotators of each item, per annotator and averaged, with a bootstrap CI over items.
// The others' vote vector is the item's vector minus the annotator's own label. Adjudications do
// not enter (this is about the annotators' own labels); a tie among the others is left out under
// "exclude" and drawn with the seed otherwise (no range is computed here). The database returns
// PATTERNS (items that look alike, GROUP BY pattern); ./stats.ts computes κ from them.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { ConfidenceInterval, KappaVariant } from "@/lib/metrics";
import type { HumanKind } from "./fields";
import type { HumanScope } from "./scope";
import { analyticTogether } from "./analytic";
import { versionProbeSql } from "./cache";
import { labelRows, packedVotesSql, scoreLabelColumns, scoreVotes } from "./score-votes";
import { annotatorSlotsSql, anyTie, binaryOf, int, pvColumns, winnerColumns, withSlotWords } from "./sql";
import { NO_DRAW, tieDigest } from "./tie-break";
import { looFromPatterns, looIntervals, type LooEntry, type LooPattern, type LooResult } from "./stats";

export interface LooSummary {
  result: LooResult;
  interval: ConfidenceInterval;
  /** (annotator, item) votes of the others that needed the seeded tie-break. */
  ties: number;
}

export type LooRow = { field: string; pattern: (bigint | number | string)[] | null; items: number; ties: number; ann: string | null };

// An item's pattern is a set of bits, not a sorted list: annotator slot i owns the 5-bit digit
// (i mod 12) of word (i div 12), set to 16 + own · 4 + majority (16 marks "present"). An annotator
// labels an item once, so the digits never overlap and bit_or per item needs no sort; the sorted
// array_agg it replaces sorted each item's rows four times over, most of the seeded view's SQL at
// 100,000 items (issue 19).
const DIGIT_BITS = 5;
const SLOTS_PER_WORD = 12;

/**
 * Patterns: per item and field, the words above, then GROUP BY pattern. Annotator slots come back
 * as rows with field 'annotator' (pattern = [slot]). `words` must cover the campaign's annotators
 * (leaveOneOutRows reads again with more when they do not).
 */
function leaveOneOutSql(scope: HumanScope, words: number, half: Half): Prisma.Sql {
  const { seed } = scope;
  const votes = scoreVotes(scope);
  const keepTie = (k: string) => (scope.ties === "exclude" ? Prisma.raw(` AND NOT t${k}`) : Prisma.empty);
  const looLab = labelRows(scope, Prisma.sql`a."annotatorId" AS ann, ${scoreLabelColumns()}, a.sh AS x`);
  const pattern = (k: string) => {
    const counted = Prisma.sql`${Prisma.raw(k)} IS NOT NULL AND ${Prisma.raw(`m${k}`)} IS NOT NULL${keepTie(k)}`;
    const digit = Prisma.sql`((16 + ${Prisma.raw(k)} * 4 + ${Prisma.raw(`m${k}`)}::int)::bigint << b)`;
    const word = (w: number) => Prisma.sql`COALESCE(bit_or(${words === 1 ? digit : Prisma.sql`CASE WHEN g = ${int(w)} THEN ${digit} END`}) FILTER (WHERE ${counted}), 0)`;
    return Prisma.sql`CASE WHEN count(*) FILTER (WHERE ${counted}) > 0 THEN ARRAY[${Prisma.join(Array.from({ length: words }, (_, w) => word(w)))}]::bigint[] END AS ${Prisma.raw(`p${k}`)},
               count(*) FILTER (WHERE ${Prisma.raw(`t${k}`)} AND ${Prisma.raw(k)} IS NOT NULL AND ${Prisma.raw(`m${k}`)} IS NOT NULL) AS ${Prisma.raw(`n${k}`)}`;
  };
  return Prisma.sql`
    WITH RECURSIVE lab AS MATERIALIZED (SELECT * FROM (${looLab}) x WHERE ${inHalf(Prisma.sql`x.item`, half)}),
    ${annotatorSlotsSql(scope.campaign.id, SLOTS_PER_WORD, DIGIT_BITS)},
    -- The items' vectors as the database keeps them: the sums of x over the same labels.
    votes AS (SELECT * FROM (${packedVotesSql(scope)}) x WHERE ${inHalf(Prisma.sql`x.item`, half)}),
    loo AS MATERIALIZED (
      SELECT l.item, l.ann, an.g, an.b, l.s, l.h, v.p - l.x AS q
      FROM lab l JOIN votes v ON v.item = l.item JOIN an ON an.ann = l.ann),
    pv AS MATERIALIZED (SELECT d.q, ${pvColumns(votes, Prisma.sql`d.q`)} FROM (SELECT DISTINCT q FROM loo) d),
    ${
      scope.ties === "exclude"
        ? // No draw is read: the others' ground truth depends on their vector alone, worked out once per vector.
          Prisma.sql`pw AS MATERIALIZED (SELECT pv.q, ${winnerColumns(votes, "pv", NO_DRAW)} FROM pv),
    m AS MATERIALIZED (SELECT l.item, l.g, l.b, l.s, l.h, ${binaryOf(Prisma.sql`l.s`)} AS sb, ${binaryOf(Prisma.sql`l.h`)} AS hb, pw.* FROM loo l JOIN pw ON pw.q = l.q),`
        : // The digest in a LATERAL kept apart by OFFSET 0: md5 once per row, not once per use.
          Prisma.sql`m AS MATERIALIZED (
      SELECT loo.item, loo.g, loo.b, loo.s, loo.h, ${binaryOf(Prisma.sql`loo.s`)} AS sb, ${binaryOf(Prisma.sql`loo.h`)} AS hb, ${winnerColumns(votes, "pv", Prisma.sql`d.dg`)}
      FROM loo JOIN pv ON pv.q = loo.q
      CROSS JOIN LATERAL (SELECT CASE WHEN ${anyTie(votes, "pv")} THEN ${tieDigest(seed, Prisma.sql`loo.item`, Prisma.sql`loo.ann`)} END AS dg OFFSET 0) d),`
    }
    per_item AS (
      SELECT item, ${Prisma.join((["s", "h", "sb", "hb"] as const).map(pattern))}
      FROM m GROUP BY item)
    SELECT 'safety' AS field, ps AS pattern, count(*)::int AS items, sum(ns)::int AS ties, NULL::text AS ann FROM per_item WHERE ps IS NOT NULL GROUP BY ps
    UNION ALL SELECT 'helpfulness', ph, count(*)::int, sum(nh)::int, NULL FROM per_item WHERE ph IS NOT NULL GROUP BY ph
    UNION ALL SELECT 'safety/binary', psb, count(*)::int, sum(nsb)::int, NULL FROM per_item WHERE psb IS NOT NULL GROUP BY psb
    UNION ALL SELECT 'helpfulness/binary', phb, count(*)::int, sum(nhb)::int, NULL FROM per_item WHERE phb IS NOT NULL GROUP BY phb
    -- Items whose every leave-one-out vote tied (left out under "exclude") still count their ties.
    UNION ALL SELECT 'safety', NULL, 0, sum(ns)::int, NULL FROM per_item WHERE ps IS NULL HAVING sum(ns) > 0
    UNION ALL SELECT 'helpfulness', NULL, 0, sum(nh)::int, NULL FROM per_item WHERE ph IS NULL HAVING sum(nh) > 0
    UNION ALL SELECT 'safety/binary', NULL, 0, sum(nsb)::int, NULL FROM per_item WHERE psb IS NULL HAVING sum(nsb) > 0
    UNION ALL SELECT 'helpfulness/binary', NULL, 0, sum(nhb)::int, NULL FROM per_item WHERE phb IS NULL HAVING sum(nhb) > 0
    UNION ALL SELECT 'annotator', ARRAY[an.i::bigint], 0, 0, an.ann FROM an`;
}

/** Which half of the items a statement reads: those whose id hashes below / above 0. */
type Half = "low" | "high";

function inHalf(item: Prisma.Sql, half: Half): Prisma.Sql {
  // An inequality, not mod(hash, 2) = k: the planner guesses a third of the rows for it (half in
  // fact), where an equality on an expression is guessed at 0.5 % and turned the joins into nested
  // loops over 150,000 rows.
  return half === "low" ? Prisma.sql`hashtext(${item}) < 0` : Prisma.sql`hashtext(${item}) >= 0`;
}

/**
 * The statement runs as two, over the two halves of the items, at once on two connections: it is
 * one pass per label row (joins, md5 of the ties, per-item bits), so on PostgreSQL each half takes
 * a core (the seeded view's first load at 100k × 3 waits on it). Their pattern counts add up.
 */
const HALVES: Half[] = ["low", "high"];

/** The statement's rows, with enough words (withSlotWords). */
export async function leaveOneOutRows(db: Db, scope: HumanScope): Promise<LooRow[]> {
  // One data version for both halves: they number the annotators alike and count every item once.
  const parts = await withSlotWords(
    db,
    scope.campaign.id,
    SLOTS_PER_WORD,
    (words) => analyticTogether<LooRow[][]>(db, HALVES.map((half) => leaveOneOutSql(scope, words, half)), versionProbeSql(scope, "none")),
    (parts) => parts[0]!.filter((r) => r.field === "annotator").length,
  );
  const annotators = parts[0]!.filter((r) => r.field === "annotator");
  const merged = new Map<string, LooRow>();
  for (const r of parts.flat()) {
    if (r.field === "annotator") continue;
    const key = `${r.field}|${r.pattern === null ? "" : r.pattern.map(String).join(",")}`;
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, items: seen.items + r.items, ties: seen.ties + r.ties } : r);
  }
  return [...merged.values(), ...annotators];
}

/** The entries of a pattern's words: one per non-zero digit (slot, own label, the others' majority). */
export function decodePattern(words: readonly (bigint | number | string)[]): { slot: number; own: number; majority: number }[] {
  const out: { slot: number; own: number; majority: number }[] = [];
  const mask = BigInt((1 << DIGIT_BITS) - 1);
  words.forEach((word, w) => {
    let x = BigInt(word);
    for (let i = 0; x > 0n; i++, x >>= BigInt(DIGIT_BITS)) {
      const d = Number(x & mask);
      if (d === 0) continue;
      if (d < 16) throw new RangeError(`slot ${w * SLOTS_PER_WORD + i}: digit ${d} lacks its presence mark`);
      out.push({ slot: w * SLOTS_PER_WORD + i, own: (d - 16) >> 2, majority: (d - 16) & 3 });
    }
  });
  return out;
}

/** The leave-one-out patterns of one kind on one scale (0..3, or binarized) and its tied votes. */
export interface LooGroup {
  patterns: LooPattern[];
  /** (annotator, item) votes of the others that tied. */
  ties: number;
}

/**
 * Leave-one-out κ of one kind from the statement's rows: the 0..3 variants share their patterns
 * (and resamples). `indexOf` maps an annotator id to its index in the panel's annotator list.
 */
export function leaveOneOut(rows: readonly LooRow[], kind: HumanKind, annotators: number, indexOf: (id: string) => number, opts: { seed: number; resamples: number }): Record<KappaVariant, LooSummary> {
  // The query's annotator numbering (its own order; mapped to ours by id).
  const looAnnotators = new Map(rows.filter((r) => r.field === "annotator").map((r) => [Number(r.pattern![0]), r.ann!]));
  const group = (field: string): LooGroup => {
    const mine = rows.filter((r) => r.field === field);
    return {
      patterns: mine.filter((r) => r.pattern !== null).map((r) => ({
        items: r.items,
        entries: decodePattern(r.pattern!).map((e) => ({ annotator: indexOf(looAnnotators.get(e.slot)!), own: e.own, majority: e.majority })),
      })),
      ties: mine.reduce((a, r) => a + r.ties, 0),
    };
  };
  return looSummaries({ score: group(kind), binarized: group(`${kind}/binary`) }, annotators, opts);
}

/** The four variants of one kind from its patterns: categorical, linear, quadratic on 0..3, binarized on 0/1. */
export function looSummaries(groups: { score: LooGroup; binarized: LooGroup }, annotators: number, opts: { seed: number; resamples: number }): Record<KappaVariant, LooSummary> {
  const out = {} as Record<KappaVariant, LooSummary>;
  for (const [variants, g] of [[["categorical", "linear", "quadratic"], groups.score], [["binarized"], groups.binarized]] as [KappaVariant[], LooGroup][]) {
    const patterns = canonicalPatterns(g.patterns);
    const intervals = looIntervals(patterns, annotators, variants, opts);
    for (const variant of variants) {
      out[variant] = { result: looFromPatterns(patterns, annotators, variant), interval: intervals[variant]!, ties: g.ties };
    }
  }
  return out;
}

function compareEntries(x: LooEntry, y: LooEntry): number {
  return x.annotator - y.annotator || x.own - y.own || x.majority - y.majority;
}

/**
 * The patterns in ONE order, whatever order the database returned them in: the bootstrap draws
 * its multinomial over the patterns in array order, so without this the interval would depend on
 * the row order of a hash aggregate (the plan, the item ids' collation). Each pattern's entries
 * sorted by (annotator, own, majority); patterns compared entry by entry, a prefix first.
 */
export function canonicalPatterns(patterns: readonly LooPattern[]): LooPattern[] {
  const sorted = patterns.map((p) => ({ items: p.items, entries: [...p.entries].sort(compareEntries) }));
  return sorted.sort((p, q) => {
    const n = Math.min(p.entries.length, q.entries.length);
    for (let i = 0; i < n; i++) {
      const c = compareEntries(p.entries[i]!, q.entries[i]!);
      if (c !== 0) return c;
    }
    return p.entries.length - q.entries.length;
  });
}
