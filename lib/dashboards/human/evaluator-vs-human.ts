// Panel: the evaluator vs the human ground truth, safety and helpfulness (server only).
// κ categorical / linear / quadratic (0..3) and binarized, raw agreement, marginals, mean bias,
// bootstrap CIs. The ground truth of an item is its adjudicated label, else the strict majority,
// else a tie the scope's tie policy resolves (lib/metrics/ground-truth.ts TieTally); "binarized"
// BINARIZES FIRST (score ≥ 2 → 1), THEN VOTES — ToolEmu's humans gave a binary judgement — and is
// compared with the evaluator's binarized score.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { BINARY_LABELS, BINARY_THRESHOLD, SCORE_LABELS, TieTally, agreementRanges, type TiePolicy } from "@/lib/metrics";
import { analytic, ms } from "./analytic";
import { agreementBlock, type AgreementBlock } from "./block";
import { cached, panelKey, versionProbeSql, type Cached } from "./cache";
import { HUMAN_RESAMPLES, type HumanKind } from "./fields";
import type { HumanScope } from "./scope";
import { packedVotesSql, scoreVotes } from "./score-votes";
import { anyTie, checkK, maskLabels, pvColumns, winnerColumns } from "./sql";
import { NO_DRAW, policyDigest } from "./tie-break";

export interface EvaluatorHumanKind {
  /** 0..3: κ categorical / linear / quadratic, raw agreement, marginals, mean bias. */
  score: AgreementBlock;
  /** 2×2, binarize-then-vote: its κ (kappa.binarized) is the table's "binarized" entry. */
  binarized: AgreementBlock;
  /** Items with a human majority but no (parsed) score from the evaluator: left out. */
  unscored: number;
}

export interface EvaluatorVsHuman {
  evaluator: string | null;
  seed: number;
  ties: TiePolicy;
  resamples: number;
  safety: EvaluatorHumanKind;
  helpfulness: EvaluatorHumanKind;
  timings: { sqlMs: number; totalMs: number };
}

/**
 * The one statement behind evaluatorVsHuman. It returns the joint counts of (evaluator safety,
 * evaluator helpfulness, the four majorities, the four tie flags) — a few hundred rows at most —
 * which evaluatorVsHuman sums into the four confusion matrices (a combination may come in more
 * than one row: the counts add up).
 *   votes: one packed vote vector per item, as the database keeps it ("ItemVote", ./votes.ts);
 *   pv:    per DISTINCT vector, each field's unique majority, or the bitmask of the tied labels;
 *   pw:    per DISTINCT vector, the ground truth of an item with that vector and no adjudication
 *          when no draw is needed: no tie, or the "exclude" policy (it never reads the draw);
 *   j:     each item with the evaluator's two scores of its trajectory and its adjudication;
 *   plain: the items whose ground truth pw gives — counted per (vector, scores), pw joined once
 *          per group, not per item;
 *   items: the others, one by one: the tie digest (md5) only if something ties — OFFSET 0 keeps
 *          it computed once per item, not once per use — then the adjudication or the tie-break.
 */
function evaluatorVsHumanSql(scope: HumanScope): Prisma.Sql {
  const { seed, evaluator } = scope;
  const ev = evaluator ?? "";
  const votes = scoreVotes(scope);
  // Items that need their own row: adjudicated ones, and ties when the policy reads the draw.
  const own = scope.ties === "exclude" ? Prisma.sql`j.adj IS NOT NULL` : Prisma.sql`(j.tie OR j.adj IS NOT NULL)`;
  return Prisma.sql`
    WITH votes AS (${packedVotesSql(scope)}),
    pv AS MATERIALIZED (SELECT d.p, ${pvColumns(votes, Prisma.sql`d.p`)} FROM (SELECT DISTINCT p FROM votes) d),
    pt AS MATERIALIZED (SELECT pv.p, (${anyTie(votes, "pv")}) AS tie FROM pv),
    pw AS MATERIALIZED (SELECT pv.p, ${winnerColumns(votes, "pv", NO_DRAW)} FROM pv),
    j AS MATERIALIZED (
      SELECT v.item, v.p, pt.tie, es.score AS es, eh.score AS eh, ad."values" AS adj
      FROM votes v JOIN pt ON pt.p = v.p
      LEFT JOIN "Adjudication" ad ON ad."itemId" = v.item
      LEFT JOIN "Evaluation" es ON es."trajectoryId" = v.traj AND es.kind = 'SAFETY' AND es."evaluatorModel" = ${ev}
      LEFT JOIN "Evaluation" eh ON eh."trajectoryId" = v.traj AND eh.kind = 'HELPFULNESS' AND eh."evaluatorModel" = ${ev}),
    plain AS (SELECT j.p, j.es, j.eh, count(*)::int AS n FROM j WHERE NOT ${own} GROUP BY 1, 2, 3),
    items AS (
      SELECT j.es, j.eh, pv.*, j.adj, CASE WHEN j.tie THEN ${policyDigest(scope.ties, seed, Prisma.sql`j.item`)} END AS h
      FROM j JOIN pv ON pv.p = j.p WHERE ${own} OFFSET 0),
    m AS (SELECT i.es, i.eh, ${winnerColumns(votes, "i", Prisma.sql`i.h`, Prisma.sql`i.adj`)} FROM items i)
    SELECT m.es, m.eh, m.ms::int AS ms, m.ts, m.ks, m.mh::int AS mh, m.th, m.kh,
           m.msb::int AS msb, m.tsb, m.ksb, m.mhb::int AS mhb, m.thb, m.khb, count(*)::int AS n
    FROM m
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
    UNION ALL
    SELECT plain.es, plain.eh, pw.ms::int, pw.ts, pw.ks, pw.mh::int, pw.th, pw.kh, pw.msb::int, pw.tsb, pw.ksb, pw.mhb::int, pw.thb, pw.khb, plain.n
    FROM plain JOIN pw ON pw.p = plain.p`;
}

type EvhRow = {
  es: number | null;
  eh: number | null;
  ms: number | null;
  mh: number | null;
  msb: number | null;
  mhb: number | null;
  ts: boolean;
  th: boolean;
  tsb: boolean;
  thb: boolean;
  ks: number;
  kh: number;
  ksb: number;
  khb: number;
  n: number;
};

/** One block (0..3 or binarized) of one kind from the statement's rows, under the scope's tie policy. */
function blockOf(rows: EvhRow[], scope: HumanScope, resamples: number, labels: readonly number[], col: Pick<Columns, "e" | "m" | "t" | "k">): { block: AgreementBlock; unscored: number } {
  const L = labels.length;
  const tally = new TieTally(scope.ties, L * L);
  let unscored = 0;
  for (const r of rows) {
    const m = r[col.m] as number | null;
    if (m === null) continue; // no human label for this field
    const e = r[col.e] as number | null;
    if (e === null) {
      unscored += r.n;
      continue;
    }
    // Cells are row-major: the evaluator's label (row) × the ground truth (column).
    const row = labels.indexOf(labels === BINARY_LABELS ? (e >= BINARY_THRESHOLD ? 1 : 0) : e) * L;
    const cell = row + labels.indexOf(m);
    if (r[col.t]) tally.add(r.n, { kind: "tie", tiedBetween: maskLabels(labels.map((_, j) => row + j), r[col.k] as number) }, cell);
    else tally.add(r.n, { kind: "decided", label: cell });
  }
  const cells = tally.counts.flatMap((count, c) => (count ? [{ rater1: labels[Math.floor(c / L)]!, rater2: labels[c % L]!, count }] : []));
  const b = agreementBlock(cells, labels, tally.ties, scope.seed, resamples);
  const ranges =
    scope.ties === "sensitivity"
      ? agreementRanges(labels, tally.decided, tally.groups.map((g) => ({ row: Math.floor(g.cells[0]! / L), tied: g.cells.map((c) => c % L), count: g.count })))
      : undefined;
  return { block: { ...b, tiesExcluded: tally.tiesExcluded, ...(ranges ? { ranges } : {}) }, unscored };
}

type Columns = { e: keyof EvhRow; m: keyof EvhRow; t: keyof EvhRow; k: keyof EvhRow };
const COLUMNS: Record<HumanKind, { score: Columns; binarized: Columns }> = {
  safety: { score: { e: "es", m: "ms", t: "ts", k: "ks" }, binarized: { e: "es", m: "msb", t: "tsb", k: "ksb" } },
  helpfulness: { score: { e: "eh", m: "mh", t: "th", k: "kh" }, binarized: { e: "eh", m: "mhb", t: "thb", k: "khb" } },
};

export async function evaluatorVsHuman(db: Db, scope: HumanScope, opts: { resamples?: number } = {}): Promise<EvaluatorVsHuman> {
  const t0 = performance.now();
  const resamples = opts.resamples ?? HUMAN_RESAMPLES;
  checkK(scope.campaign.k);
  const rows = await analytic<EvhRow[]>(db, evaluatorVsHumanSql(scope));
  const sqlMs = ms(t0);
  const kind = (k: HumanKind): EvaluatorHumanKind => {
    const score = blockOf(rows, scope, resamples, SCORE_LABELS, COLUMNS[k].score);
    const binarized = blockOf(rows, scope, resamples, BINARY_LABELS, COLUMNS[k].binarized);
    return { score: score.block, binarized: binarized.block, unscored: score.unscored };
  };
  const safety = kind("safety");
  const helpfulness = kind("helpfulness");
  return { evaluator: scope.evaluator, seed: scope.seed, resamples, ties: scope.ties, safety, helpfulness, timings: { sqlMs, totalMs: ms(t0) } };
}

/** evaluatorVsHuman kept per campaign version: depends on the labels and the evaluator's safety and helpfulness scores. */
export function evaluatorVsHumanCached(db: Db, scope: HumanScope, opts: { resamples?: number } = {}): Promise<Cached<EvaluatorVsHuman>> {
  const resamples = opts.resamples ?? HUMAN_RESAMPLES;
  return cached(db, panelKey("evaluatorVsHuman", scope, { resamples }), versionProbeSql(scope, "safety+helpfulness"), () => evaluatorVsHuman(db, scope, { resamples }));
}
