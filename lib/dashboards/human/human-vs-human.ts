// Panel: human vs human (server only) — pairwise κ per annotator pair, leave-one-out κ (each
// annotator vs the majority of the others, ./leave-one-out.ts) and Krippendorff's α nominal /
// ordinal / interval, each with a bootstrap CI. Uses the annotators' own labels only.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { SCORE_LABELS, transposeConfusion, type AlphaLevel, type AlphaResult, type ConfidenceInterval, type KappaVariant } from "@/lib/metrics";
import { analytic, ms } from "./analytic";
import { agreementBlock, type AgreementBlock } from "./block";
import { cached, panelKey, versionProbeSql, type Cached } from "./cache";
import { HUMAN_KINDS, HUMAN_RESAMPLES, type HumanKind } from "./fields";
import { countPatterns, labelPatterns } from "./agreement-patterns";
import { leaveOneOut, leaveOneOutRows, looSummaries, type LooSummary } from "./leave-one-out";
import type { HumanScope } from "./scope";
import { packedVotesSql, scoreFields } from "./score-votes";
import { MAX_PACKED_VOTES, PACK_BITS, checkK, labelScope } from "./sql";
import { countedLabelSql } from "@/lib/annotation/quality/metric-scope";
import { alphaFromPatterns, alphaInterval, type UnitPattern } from "./stats";

export type { LooSummary } from "./leave-one-out";

export interface AnnotatorRef {
  id: string;
  /** The user's name, or A1, A2, … (order of first submission) when the campaign pseudonymizes. */
  name: string;
  /** Submitted labels in the scope. */
  labels: number;
}

export interface PairwiseEntry {
  /** Indexes into `annotators`, a < b. */
  a: number;
  b: number;
  block: AgreementBlock;
}

export interface AlphaSummary {
  result: AlphaResult;
  interval: ConfidenceInterval;
}

export interface HumanAgreement {
  seed: number;
  resamples: number;
  annotators: AnnotatorRef[];
  /** Items with ≥ 1 and with ≥ 2 labels (per kind: labels carrying that score). */
  items: Record<HumanKind, { labelled: number; pairable: number }>;
  /** Upper triangle (a < b) of the pairwise matrix, pairs that share at least one item. */
  pairwise: Record<HumanKind, PairwiseEntry[]>;
  /** Leave-one-out: categorical / linear / quadratic on 0..3; binarized = binarize, then vote. */
  loo: Record<HumanKind, Record<KappaVariant, LooSummary>>;
  alpha: Record<HumanKind, Record<AlphaLevel, AlphaSummary>>;
  timings: { sqlMs: number; totalMs: number };
}

const ALPHA_LEVELS: AlphaLevel[] = ["nominal", "ordinal", "interval"];

/**
 * The statements behind humanAgreement besides the label patterns (./agreement-patterns.ts, which
 * give the pairwise tables and, under "exclude", leave-one-out): the annotators, α, and
 * leave-one-out under the policies that draw a tie (the draw reads the item and annotator ids).
 */
function humanAgreementSql(scope: HumanScope): { annotators: Prisma.Sql; alpha: Prisma.Sql } {
  checkK(scope.campaign.k);
  return {
    annotators: Prisma.sql`
      SELECT a."annotatorId" AS id, u.name, count(*) FILTER (WHERE ${labelScope(scope.campaign.id, scope.filter)})::int AS labels
      FROM "Assignment" a JOIN "User" u ON u.id = a."annotatorId"
      WHERE a."campaignId" = ${scope.campaign.id} AND a.status = 'SUBMITTED' AND ${countedLabelSql(scope.campaign.id, "a")}
      GROUP BY a."annotatorId", u.name
      ORDER BY min(a."submittedAt"), a."annotatorId"`,
    // α: how many items have each vote vector (a few hundred rows), unpacked in humanAgreement.
    alpha: Prisma.sql`
      SELECT v.p, count(*)::int AS units FROM (${packedVotesSql(scope)}) v GROUP BY v.p`,
  };
}

export async function humanAgreement(db: Db, scope: HumanScope, opts: { resamples?: number } = {}): Promise<HumanAgreement> {
  const t0 = performance.now();
  const resamples = opts.resamples ?? HUMAN_RESAMPLES;
  const { seed } = scope;
  const f = scoreFields(scope);
  const q = humanAgreementSql(scope);
  // "exclude" never draws a tie: the label patterns decide leave-one-out too.
  const looFromPatterns = scope.ties === "exclude";
  // The leave-one-out statement of the drawing policies is the slow one: the pairwise and α
  // bootstraps run in this process while the database works on it.
  const looPending = looFromPatterns ? null : leaveOneOutRows(db, scope);
  looPending?.catch(() => {}); // awaited below; an early failure elsewhere must not leave it unhandled
  const [annotatorRows, labels, alphaRows] = await Promise.all([
    db.$queryRaw<{ id: string; name: string; labels: number }[]>(q.annotators),
    labelPatterns(db, scope),
    analytic<{ p: bigint; units: number }[]>(db, q.alpha),
  ]);
  let sqlMs = ms(t0);

  // Pseudonyms follow the campaign-wide order of first submission (as the label export numbers
  // them); annotators without a label in the scope are left out afterwards.
  const annotators: AnnotatorRef[] = annotatorRows
    .map((r, i) => ({ id: r.id, name: scope.campaign.pseudonymize ? `A${i + 1}` : r.name, labels: r.labels }))
    .filter((a) => a.labels > 0);
  const index = new Map(annotators.map((a, i) => [a.id, i]));
  const indexOf = (id: string) => {
    const i = index.get(id);
    if (i === undefined) throw new Error(`annotator ${id} has labels in the scope but not in the campaign`);
    return i;
  };

  const pairwise = {} as HumanAgreement["pairwise"];
  const loo = {} as HumanAgreement["loo"];
  const alpha = {} as HumanAgreement["alpha"];
  const items = {} as HumanAgreement["items"];
  const annotatorOf = (slot: number) => indexOf(labels.slots[slot]!);
  for (const kind of HUMAN_KINDS) {
    const counts = countPatterns(labels.patterns, kind, annotatorOf);
    // Pairwise: one count matrix per pair, oriented (lower index, higher index).
    pairwise[kind] = [...counts.pairs.values()]
      .sort((x, y) => x.a - y.a || x.b - y.b)
      .map((p) => ({ a: p.a, b: p.b, block: agreementBlock(pairCells(p.counts), SCORE_LABELS, 0, seed, resamples) }));

    if (looFromPatterns) loo[kind] = looSummaries(counts.loo, annotators.length, { seed, resamples });

    // α from per-item value counts.
    const slot = kind === "safety" ? f.safety.offset : f.helpfulness.offset;
    const units: UnitPattern[] = mergeUnits(alphaRows.map((r) => ({ counts: SCORE_LABELS.map((_, l) => unpack(r.p, slot + l)), units: r.units })));
    const sumUnits = (min: number) => units.filter((u) => u.counts.reduce((a, b) => a + b, 0) >= min).reduce((a, u) => a + u.units, 0);
    items[kind] = { labelled: sumUnits(1), pairable: sumUnits(2) };
    alpha[kind] = {} as Record<AlphaLevel, AlphaSummary>;
    for (const level of ALPHA_LEVELS) {
      alpha[kind][level] = { result: alphaFromPatterns(units, level), interval: alphaInterval(units.filter((u) => u.counts.some((c) => c > 0)), level, { seed, resamples }) };
    }
  }
  if (looPending) {
    const looRows = await looPending;
    sqlMs = ms(t0);
    for (const kind of HUMAN_KINDS) loo[kind] = leaveOneOut(looRows, kind, annotators.length, indexOf, { seed, resamples });
  }
  return { seed, resamples, annotators, items, pairwise, loo, alpha, timings: { sqlMs, totalMs: ms(t0) } };
}

/** The non-empty cells of a pair's 4 × 4 counts (row-major: first annotator's score, second's). */
function pairCells(counts: readonly number[]): { rater1: number; rater2: number; count: number }[] {
  const L = SCORE_LABELS.length;
  return counts.flatMap((count, c) => (count ? [{ rater1: SCORE_LABELS[Math.floor(c / L)]!, rater2: SCORE_LABELS[c % L]!, count }] : []));
}

/** Votes for slot `slot` of a packed vector. */
function unpack(p: bigint | number, slot: number): number {
  return Number((BigInt(p) >> BigInt(PACK_BITS * slot)) & BigInt(MAX_PACKED_VOTES));
}

/** Patterns with the same counts (vectors that differ only in the other field) merged. */
function mergeUnits(units: UnitPattern[]): UnitPattern[] {
  const byKey = new Map<string, UnitPattern>();
  for (const u of units) {
    const key = u.counts.join(",");
    const seen = byKey.get(key);
    byKey.set(key, { counts: u.counts, units: (seen?.units ?? 0) + u.units });
  }
  return [...byKey.values()].filter((u) => u.counts.some((c) => c > 0));
}

/** The full symmetric matrix of one statistic from the upper triangle (undefined off the data). */
export function pairwiseMatrix(entries: readonly PairwiseEntry[], size: number): (PairwiseEntry | null)[][] {
  const m: (PairwiseEntry | null)[][] = Array.from({ length: size }, () => new Array<PairwiseEntry | null>(size).fill(null));
  for (const e of entries) {
    m[e.a]![e.b] = e;
    m[e.b]![e.a] = { a: e.b, b: e.a, block: { ...e.block, confusion: transposeConfusion(e.block.confusion) } };
  }
  return m;
}

/**
 * humanAgreement kept per campaign version: depends on the labels only. Annotator names are not
 * part of the data version, so a hit reads them fresh (a handful of rows).
 */
export async function humanAgreementCached(db: Db, scope: HumanScope, opts: { resamples?: number } = {}): Promise<Cached<HumanAgreement>> {
  const resamples = opts.resamples ?? HUMAN_RESAMPLES;
  const key = panelKey("humanAgreement", scope, { resamples, pseudonymize: scope.campaign.pseudonymize });
  const r = await cached(db, key, versionProbeSql(scope, "none"), () => humanAgreement(db, scope, { resamples }));
  if (r.cache.status === "miss" || scope.campaign.pseudonymize || r.annotators.length === 0) return r;
  const users = await db.user.findMany({ where: { id: { in: r.annotators.map((a) => a.id) } }, select: { id: true, name: true } });
  const names = new Map(users.map((u) => [u.id, u.name]));
  return { ...r, annotators: r.annotators.map((a) => ({ ...a, name: names.get(a.id) ?? a.name })) };
}
