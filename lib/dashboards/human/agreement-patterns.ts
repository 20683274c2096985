// The human-vs-human panel's counts from per-item LABEL PATTERNS (server only): which annotator
// gave which score, per item, as one set of bits — instead of a self-join of the labels (pairwise
// κ) and a per-label join with the items' vote vectors (leave-one-out). One statement:
//
//   slots    the campaign's annotators with a vote row, numbered 0, 1, … (an index scan that skips
//            from one annotator to the next: a dozen probes, not a pass over the labels);
//   per item bit (4 · (slot mod 15) + score) of word (slot div 15) is set when that annotator gave
//            that score — an annotator labels an item at most once, so the sum of the bits is
//            their OR; one GROUP BY item over the scope's labels;
//   out      how many items have each safety pattern and each helpfulness pattern (GROUPING SETS:
//            one pass) — a few hundred rows at 100,000 items — and the slots.
//
// From a pattern (the scores of one item's annotators) everything else is counted here:
//   pairwise    every two annotators of the item: their cell (score, score) of their pair's
//               table, weighted by the number of items with the pattern;
//   leave-one-out  each annotator's score against the strict majority of the item's OTHER
//               annotators (0..3, and binarized first then voted); a tie among the others counts
//               as a tie and is left out ("exclude": the policy that draws nothing, so the
//               pattern decides it — under the other policies the draw reads the item's id and
//               the panel uses ./leave-one-out.ts' statement).
// The patterns equal the labels' (LabelVote) scores and the panel's numbers are those of the
// label-by-label statements (agreement-patterns.test.ts).
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { BINARY_THRESHOLD, SCORE_LABELS } from "@/lib/metrics";
import { analytic } from "./analytic";
import type { HumanKind } from "./fields";
import type { LooGroup } from "./leave-one-out";
import type { HumanScope } from "./scope";
import { annotatorSlotsSql, int, voteScope, withSlotWords } from "./sql";
import type { LooEntry } from "./stats";

/** Annotator slots per 64-bit word: 4 scores each, 60 bits. */
const SLOTS_PER_WORD = 15;
const LABELS = SCORE_LABELS.length;

export interface LabelPattern {
  kind: HumanKind;
  /** Slot → score (0..3) of the annotators who gave this kind a score. */
  scores: Map<number, number>;
  items: number;
}

export interface LabelPatterns {
  /** Slot → annotator id. */
  slots: string[];
  patterns: LabelPattern[];
}

type Row = { kind: number; w: bigint[] | null; n: number; ann: string | null };

function patternsSql(scope: HumanScope, words: number): Prisma.Sql {
  const c = scope.campaign.id;
  const sum = (col: "s" | "h", w: number) =>
    words === 1
      ? Prisma.sql`COALESCE(sum(1::bigint << (an.b + a.${Prisma.raw(col)})), 0)`
      : Prisma.sql`COALESCE(sum(CASE WHEN an.g = ${int(w)} THEN 1::bigint << (an.b + a.${Prisma.raw(col)}) END), 0)`;
  const arr = (col: "s" | "h") => Prisma.sql`ARRAY[${Prisma.join(Array.from({ length: words }, (_, w) => sum(col, w)))}]::bigint[]`;
  return Prisma.sql`
    WITH RECURSIVE ${annotatorSlotsSql(c, SLOTS_PER_WORD, LABELS)},
    per AS (
      SELECT ${arr("s")} AS ps, ${arr("h")} AS ph
      FROM "LabelVote" a JOIN an ON an.ann = a."annotatorId"
      WHERE ${voteScope(c, scope.filter)}
      GROUP BY a."itemId")
    SELECT GROUPING(per.ps)::int AS kind, CASE WHEN GROUPING(per.ps) = 0 THEN per.ps ELSE per.ph END AS w, count(*)::int AS n, NULL::text AS ann
    FROM per GROUP BY GROUPING SETS ((per.ps), (per.ph))
    UNION ALL SELECT 2, ARRAY[an.i::bigint], 0, an.ann FROM an`;
}

/** The scope's label patterns (one statement, with enough words: withSlotWords). */
export async function labelPatterns(db: Db, scope: HumanScope): Promise<LabelPatterns> {
  const rows = await withSlotWords(
    db,
    scope.campaign.id,
    SLOTS_PER_WORD,
    (words) => analytic<Row[]>(db, patternsSql(scope, words)),
    (rows) => rows.filter((r) => r.kind === 2).length,
  );
  const slots: string[] = [];
  for (const r of rows) if (r.kind === 2) slots[Number(r.w![0]!)] = r.ann!;
  const patterns = rows.filter((r) => r.kind !== 2).map((r) => ({ kind: (r.kind === 0 ? "safety" : "helpfulness") as HumanKind, scores: decode(r.w!), items: r.n }));
  return { slots, patterns };
}

/** Slot → score from the pattern's words. */
export function decode(words: readonly (bigint | number | string)[]): Map<number, number> {
  const scores = new Map<number, number>();
  words.forEach((word, w) => {
    let x = BigInt(word);
    for (let i = 0; x > 0n; i++, x >>= BigInt(LABELS)) {
      const nibble = Number(x & BigInt((1 << LABELS) - 1));
      if (nibble === 0) continue;
      if ((nibble & (nibble - 1)) !== 0) throw new RangeError(`slot ${w * SLOTS_PER_WORD + i} has two scores in one item`);
      scores.set(w * SLOTS_PER_WORD + i, Math.log2(nibble));
    }
  });
  return scores;
}

/** Pairwise tables: per pair of panel indexes (a < b), counts[rater1 · 4 + rater2]. */
export type PairCounts = Map<string, { a: number; b: number; counts: number[] }>;

export interface KindCounts {
  pairs: PairCounts;
  loo: { score: LooGroup; binarized: LooGroup };
}

/**
 * Pairwise tables and leave-one-out patterns ("exclude": ties left out, counted) of one kind.
 * `annotatorOf(slot)` gives the panel's annotator index.
 */
export function countPatterns(patterns: readonly LabelPattern[], kind: HumanKind, annotatorOf: (slot: number) => number): KindCounts {
  const pairs: PairCounts = new Map();
  const score = new LooCollector();
  const binarized = new LooCollector();
  for (const p of patterns) {
    if (p.kind !== kind) continue;
    const entries = [...p.scores].map(([slot, s]) => ({ annotator: annotatorOf(slot), s }));
    // Pairwise: every two annotators of the item, oriented (lower index, higher index).
    for (let i = 0; i < entries.length; i++) {
      for (let j = i + 1; j < entries.length; j++) {
        let [x, y] = [entries[i]!, entries[j]!];
        if (x.annotator > y.annotator) [x, y] = [y, x];
        const key = `${x.annotator}:${y.annotator}`;
        let pair = pairs.get(key);
        if (!pair) pairs.set(key, (pair = { a: x.annotator, b: y.annotator, counts: new Array<number>(LABELS * LABELS).fill(0) }));
        pair.counts[x.s * LABELS + y.s]! += p.items;
      }
    }
    // Leave-one-out: each annotator against the others' strict majority.
    const votes = new Array<number>(LABELS).fill(0);
    for (const e of entries) votes[e.s]!++;
    const looScore: LooEntry[] = [];
    const looBinary: LooEntry[] = [];
    let scoreTies = 0;
    let binaryTies = 0;
    for (const e of entries) {
      votes[e.s]!--;
      const m = strictMajority(votes);
      if (m === "tie") scoreTies++;
      else if (m !== null) looScore.push({ annotator: e.annotator, own: e.s, majority: m });
      const low = votes.slice(0, BINARY_THRESHOLD).reduce((a, b) => a + b, 0);
      const high = votes.slice(BINARY_THRESHOLD).reduce((a, b) => a + b, 0);
      const mb = strictMajority([low, high]);
      if (mb === "tie") binaryTies++;
      else if (mb !== null) looBinary.push({ annotator: e.annotator, own: e.s >= BINARY_THRESHOLD ? 1 : 0, majority: mb });
      votes[e.s]!++;
    }
    score.add(looScore, scoreTies, p.items);
    binarized.add(looBinary, binaryTies, p.items);
  }
  return { pairs, loo: { score: score.group(), binarized: binarized.group() } };
}

/** Index of the unique largest count; "tie" when several share it; null when every count is 0. */
function strictMajority(counts: readonly number[]): number | "tie" | null {
  let best = 0;
  let at = -1;
  let shared = false;
  counts.forEach((c, i) => {
    if (c > best) [best, at, shared] = [c, i, false];
    else if (c === best && c > 0) shared = true;
  });
  return at < 0 ? null : shared ? "tie" : at;
}

/** Items per distinct leave-one-out pattern (entries in annotator order) and the tied votes. */
class LooCollector {
  private byKey = new Map<string, { entries: LooEntry[]; items: number }>();
  private ties = 0;
  add(entries: LooEntry[], ties: number, items: number): void {
    this.ties += ties * items;
    if (!entries.length) return;
    entries.sort((x, y) => x.annotator - y.annotator);
    const key = entries.map((e) => `${e.annotator},${e.own},${e.majority}`).join(";");
    const seen = this.byKey.get(key);
    if (seen) seen.items += items;
    else this.byKey.set(key, { entries, items });
  }
  group(): LooGroup {
    return { patterns: [...this.byKey.values()], ties: this.ties };
  }
}
