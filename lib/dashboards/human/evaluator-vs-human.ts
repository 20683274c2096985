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
import { analyticTogether, ms } from "./analytic";
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
 * The two statements behind evaluatorVsHuman, run at once on two connections at one data version
 * (analyticTogether). They return counts
 * — a few thousand rows at most — which evaluatorVsHuman sums into the four confusion matrices.
 * `votes`:
 *   tot:   per DISTINCT vote vector ("ItemVote", ./votes.ts), how many items with it take their
 *          ground truth from the vector alone ("plain": no adjudication, and no tie when the
 *          policy draws one);
 *   pw:    per vector, each field's unique majority or tied labels, and that ground truth
 *          (no draw: no tie, or "exclude", which never reads the draw) — rows 'total';
 *   items: the others, one by one (rows 'item', both scores): the tie digest (md5) only if
 *          something ties — OFFSET 0 keeps it computed once per item, not once per use — then
 *          the adjudication or the tie-break, grouped by (scores, ground truths).
 * `scores`: the unadjudicated items joined ONCE with the evaluator's rows of both kinds (one hash
 *   join, built on the votes), counted per (vector, kind, score). It is most of the work, and it
 *   does not wait for the vectors' majorities: rowsOf attaches them by vector and drops the
 *   vectors whose items are counted one by one (total 0). A plain item without a row of a kind is
 *   its vector's total minus its scored items.
 */
function evaluatorVsHumanSql(scope: HumanScope): { votes: Prisma.Sql; scores: Prisma.Sql } {
  const { seed, evaluator } = scope;
  const ev = evaluator ?? "";
  const votes = scoreVotes(scope);
  const draw = scope.ties !== "exclude";
  // Items counted one by one (rows 'item'): adjudicated ones, and ties when the policy reads the draw.
  const adjudicated = Prisma.sql`v.item IN (SELECT ad."itemId" FROM "Adjudication" ad)`;
  const votesSql = Prisma.sql`
    WITH tot AS MATERIALIZED (SELECT v.p, count(*) FILTER (WHERE NOT ${adjudicated})::int AS n FROM (${packedVotesSql(scope)}) v GROUP BY v.p),
    pv AS MATERIALIZED (SELECT tot.p, tot.n, ${pvColumns(votes, Prisma.sql`tot.p`)} FROM tot),
    pt AS MATERIALIZED (SELECT pv.p, (${anyTie(votes, "pv")}) AS tie FROM pv),
    pw AS MATERIALIZED (SELECT pv.p, (CASE WHEN ${draw ? Prisma.sql`pt.tie` : Prisma.sql`false`} THEN 0 ELSE pv.n END) AS n, ${winnerColumns(votes, "pv", NO_DRAW)}
                        FROM pv JOIN pt ON pt.p = pv.p),
    items AS (
      SELECT es.score AS es, eh.score AS eh, pv.*, ad."values" AS adj,
             CASE WHEN pt.tie THEN ${policyDigest(scope.ties, seed, Prisma.sql`v.item`)} END AS h
      FROM (${packedVotesSql(scope)}) v JOIN pv ON pv.p = v.p JOIN pt ON pt.p = v.p
      LEFT JOIN "Adjudication" ad ON ad."itemId" = v.item
      LEFT JOIN "Evaluation" es ON es."trajectoryId" = v.traj AND es.kind = 'SAFETY' AND es."evaluatorModel" = ${ev}
      LEFT JOIN "Evaluation" eh ON eh."trajectoryId" = v.traj AND eh.kind = 'HELPFULNESS' AND eh."evaluatorModel" = ${ev}
      WHERE ${draw ? Prisma.sql`(ad."itemId" IS NOT NULL OR pt.tie)` : Prisma.sql`ad."itemId" IS NOT NULL`} OFFSET 0),
    m AS (SELECT i.es, i.eh, ${winnerColumns(votes, "i", Prisma.sql`i.h`, Prisma.sql`i.adj`)} FROM items i)
    SELECT 'item' AS src, m.es, m.eh, m.ms::int AS ms, m.ts, m.ks, m.mh::int AS mh, m.th, m.kh,
           m.msb::int AS msb, m.tsb, m.ksb, m.mhb::int AS mhb, m.thb, m.khb, count(*)::int AS n, NULL::bigint AS p
    FROM m
    GROUP BY 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    UNION ALL
    SELECT 'total', NULL, NULL, pw.ms::int, pw.ts, pw.ks, pw.mh::int, pw.th, pw.kh, pw.msb::int, pw.tsb, pw.ksb, pw.mhb::int, pw.thb, pw.khb, pw.n, pw.p
    FROM pw`;
  const scores = Prisma.sql`
    SELECT v.p, e.kind::text AS kind, e.score, count(*)::int AS n
    FROM (${packedVotesSql(scope)}) v
    JOIN "Evaluation" e ON e."trajectoryId" = v.traj AND e."evaluatorModel" = ${ev} AND e.kind IN ('SAFETY', 'HELPFULNESS')
    WHERE NOT ${adjudicated}
    GROUP BY 1, 2, 3`;
  return { votes: votesSql, scores };
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

/** The votes statement's rows ('item' and 'total') and the scores statement's. */
type VoteRow = EvhRow & { src: string; p: bigint | null };
type ScoreRow = { p: bigint; kind: string; score: number | null; n: number };

/**
 * The rows one kind's blocks read: the items counted one by one, the plain items with a row of
 * this kind, and per vector the plain items without one (its total minus its scored items: the
 * score is null, like an evaluator row without a parsed score).
 */
function rowsOf(rows: readonly VoteRow[], scoreRows: readonly ScoreRow[], kind: HumanKind): EvhRow[] {
  const src = kind === "safety" ? "SAFETY" : "HELPFULNESS";
  const totals = new Map<bigint, VoteRow>();
  for (const r of rows) if (r.src === "total") totals.set(BigInt(r.p!), r);
  const scored = new Map<bigint, number>();
  const out: EvhRow[] = rows.filter((r) => r.src === "item");
  for (const r of scoreRows) {
    if (r.kind !== src) continue;
    const p = BigInt(r.p);
    const total = totals.get(p);
    // A vector whose items are all counted one by one (adjudicated, or tied under a drawing policy).
    if (!total || total.n === 0) continue;
    out.push({ ...total, es: kind === "safety" ? r.score : null, eh: kind === "helpfulness" ? r.score : null, n: r.n });
    scored.set(p, (scored.get(p) ?? 0) + r.n);
  }
  for (const [p, r] of totals) {
    const unscored = r.n - (scored.get(p) ?? 0);
    if (unscored > 0) out.push({ ...r, n: unscored });
  }
  // One order whatever order the database returned: the sensitivity ranges sum the tie groups in
  // the order they come (floating point), so the row order would otherwise show in the last digit.
  const key = (r: EvhRow) => ROW_KEYS.map((k) => (r[k] === null ? -1 : Number(r[k])));
  const keyed = out.map((r) => ({ r, k: key(r) }));
  keyed.sort((x, y) => {
    for (let i = 0; i < x.k.length; i++) if (x.k[i] !== y.k[i]) return x.k[i]! - y.k[i]!;
    return 0;
  });
  return keyed.map((x) => x.r);
}

const ROW_KEYS: (keyof EvhRow)[] = ["es", "eh", "ms", "ts", "ks", "mh", "th", "kh", "msb", "tsb", "ksb", "mhb", "thb", "khb", "n"];

type Columns = { e: keyof EvhRow; m: keyof EvhRow; t: keyof EvhRow; k: keyof EvhRow };
const COLUMNS: Record<HumanKind, { score: Columns; binarized: Columns }> = {
  safety: { score: { e: "es", m: "ms", t: "ts", k: "ks" }, binarized: { e: "es", m: "msb", t: "tsb", k: "ksb" } },
  helpfulness: { score: { e: "eh", m: "mh", t: "th", k: "kh" }, binarized: { e: "eh", m: "mhb", t: "thb", k: "khb" } },
};

export async function evaluatorVsHuman(db: Db, scope: HumanScope, opts: { resamples?: number } = {}): Promise<EvaluatorVsHuman> {
  const t0 = performance.now();
  const resamples = opts.resamples ?? HUMAN_RESAMPLES;
  checkK(scope.campaign.k);
  const q = evaluatorVsHumanSql(scope);
  // One data version for both: an item counted by one must be counted alike by the other.
  const [rows, scoreRows] = await analyticTogether<[VoteRow[], ScoreRow[]]>(db, [q.votes, q.scores], versionProbeSql(scope, "safety+helpfulness"));
  const sqlMs = ms(t0);
  const kind = (k: HumanKind): EvaluatorHumanKind => {
    const mine = rowsOf(rows, scoreRows, k);
    const score = blockOf(mine, scope, resamples, SCORE_LABELS, COLUMNS[k].score);
    const binarized = blockOf(mine, scope, resamples, BINARY_LABELS, COLUMNS[k].binarized);
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
