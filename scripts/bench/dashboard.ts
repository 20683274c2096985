// Agreement-dashboard benchmark (not a test). Seeds a fresh database with N trajectories, one
// evaluator's safety and helpfulness score each, and an annotation campaign in which every
// trajectory has 3 submitted human labels — all with set-based SQL (scripts/bench/lib/label-scale.ts,
// shared with bench:pages), so seeding 100,000 × 3 takes seconds, not an import. Then, in the same run and
// on the same rows, it times
//   (a) the agreement dashboard's server work for evaluator vs human, as the page runs it:
//       `evaluatorVsHumanCached` — the version probe (two counters the database bumps with every
//       change of the campaign's labels and the evaluator's scores, lib/dashboards/human/cache.ts),
//       then either the panel kept for that version (WARM) or `evaluatorVsHuman` (COLD: one SQL
//       statement: the per-item vote vectors the database keeps ("ItemVote") → majority with the
//       seeded tie-break → label-pair counts for safety / helpfulness × 0..3 / binarized; then κ,
//       raw agreement, marginals and 1,000 bootstrap resamples per matrix in memory). Cold is
//       timed with the cache emptied before each repetition, so every cold figure is a full
//       computation; the very first request (cold database caches too) is shown on its own;
//   (b) ONE raw SQL aggregate over the same label rows (GROUP BY the safety value, count(*)),
// several repetitions each (after a warm-up), alternating, and prints the p50s and the ratios
// warm / raw and cold / raw (the request right after a label is submitted or revised, or scores
// are imported) — the goal (issue 19 #1) is cold ≤ 2 × raw, with a probe that costs the same
// whatever the campaign's size. It checks that the vote tables the database filled while seeding
// equal what the labels' JSON gives. Last, it revises one item's labels and checks that the next
// request recomputes (a miss) and returns the same numbers as an uncached computation.
// Usage:
//   npm run bench:dashboard -- [--n 100000] [--reps 7] [--annotators 12] [--resamples 1000]
//                              [--pg <server url> | BENCH_DATABASE_URL=<url>] [--keep] [--strict]
//   --pg     a throwaway database is created on that PostgreSQL server and dropped afterwards;
//            default: an in-memory embedded PGlite (in this process).
//   --keep   do not drop the PostgreSQL database (prints its URL, to EXPLAIN queries by hand).
//   --strict exit 1 when the cold or the warm ratio misses the goal.
//   --page   also time the rest of the agreement page (human vs human: pairwise κ, leave-one-out
//            κ, α), cold once and warm, and the page's whole query function (loadAgreementPanel,
//            warm) — informational, not part of the ratio.
import { createEmptyDatabase } from "@/lib/testing/db";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createPrisma, type Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { Prisma } from "@/lib/db/generated/client";
import { clearPanelCache } from "@/lib/dashboards/human/cache";
import { evaluatorVsHuman, evaluatorVsHumanCached, type EvaluatorVsHuman } from "@/lib/dashboards/human/evaluator-vs-human";
import { humanAgreementCached } from "@/lib/dashboards/human/human-vs-human";
import { loadAgreementPanel } from "@/lib/dashboards/human/panels";
import { resolveHumanScope, type HumanScope } from "@/lib/dashboards/human/scope";
import { packedVotesSql } from "@/lib/dashboards/human/score-votes";
import { voteTableDifferences } from "@/lib/dashboards/human/votes";
import { parseArgs, stringFlag } from "../lib/args";
import { seedLabelScale, LABEL_SCALE_CAMPAIGN, LABEL_SCALE_EVALUATOR } from "./lib/label-scale";

const args = parseArgs(process.argv.slice(2));
const N = Number(stringFlag(args, "n") ?? 100_000);
const REPS = Number(stringFlag(args, "reps") ?? 7);
const ANNOTATORS = Number(stringFlag(args, "annotators") ?? 12);
const RESAMPLES = Number(stringFlag(args, "resamples") ?? 1000);
const pgServer = stringFlag(args, "pg") ?? process.env.BENCH_DATABASE_URL;
const KEEP = args.flags.keep === true;
const STRICT = args.flags.strict === true;
const PAGE = args.flags.page === true;
const GOAL = 2;
const CAMPAIGN = LABEL_SCALE_CAMPAIGN;
const EVALUATOR = LABEL_SCALE_EVALUATOR;
const SEED = 20260101;

async function freshDatabase(): Promise<{ url: string; label: string; drop(): Promise<void> }> {
  const db = await createEmptyDatabase(pgServer ?? null, "toolemu_bench");
  if (db.kind === "embedded") return { url: db.url, label: "embedded PGlite, in memory (runs in this process)", drop: db.drop };
  const u = new URL(db.url);
  return {
    url: db.url,
    label: `PostgreSQL ${u.host}${u.pathname}${KEEP ? " (kept)" : " (dropped after)"}`,
    drop: () => (KEEP ? Promise.resolve() : db.drop()),
  };
}

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** The numbers of two results, without timings and cache information. */
function sameNumbers(a: EvaluatorVsHuman, b: EvaluatorVsHuman): boolean {
  const strip = ({ timings: _t, ...rest }: EvaluatorVsHuman & { cache?: unknown }) => {
    const { cache: _c, ...numbers } = rest as typeof rest & { cache?: unknown };
    return JSON.stringify(numbers);
  };
  return strip(a) === strip(b);
}

async function rawAggregate(prisma: Db) {
  return prisma.$queryRaw<{ value: string | null; n: bigint }[]>`
    SELECT a.values->>'safety' AS value, count(*) AS n
    FROM "Assignment" a
    WHERE a."campaignId" = ${CAMPAIGN} AND a.status = 'SUBMITTED'
    GROUP BY 1`;
}

/** Diagnostics (not in the ratio): where the dashboard's SQL time goes. */
async function perItemCount(prisma: Db) {
  return prisma.$queryRaw`SELECT count(*) FROM (SELECT a."itemId", count(*) FROM "Assignment" a
    WHERE a."campaignId" = ${CAMPAIGN} AND a.status = 'SUBMITTED' GROUP BY 1) x`;
}

async function votesOnly(prisma: Db, scope: HumanScope) {
  return prisma.$transaction([
    prisma.$queryRaw`SELECT set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`,
    prisma.$queryRaw(Prisma.sql`SELECT count(*), sum(p) FROM (${packedVotesSql(scope)}) v`),
  ]);
}

async function main() {
  if (!Number.isInteger(N) || N < 1) throw new Error("--n must be a positive integer");
  if (!Number.isInteger(ANNOTATORS) || ANNOTATORS < 3) throw new Error("--annotators must be at least 3");
  const db = await freshDatabase();
  const prisma = createPrisma(db.url);
  try {
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    await migrate(sql);
    const tSeed = await time(() => seedLabelScale(sql, { n: N, annotators: ANNOTATORS }));
    await sql.end();

    const filter = { campaign: CAMPAIGN, evaluator: EVALUATOR, seed: SEED };
    const tScope0 = performance.now();
    const { scope } = await resolveHumanScope(prisma, filter);
    const tScope = performance.now() - tScope0;
    if (!scope) throw new Error("the benchmark campaign was not found");
    const cached = () => evaluatorVsHumanCached(prisma, scope, { resamples: RESAMPLES });
    const raw = () => rawAggregate(prisma);

    // The very first request: nothing cached, database caches cold too.
    let first: Awaited<ReturnType<typeof cached>> | undefined;
    const tFirst = await time(async () => {
      first = await cached();
    });
    if (first?.cache.status !== "miss") throw new Error("the first request was not a computation");
    // Sanity: both see every label; the cache returns what an uncached computation returns.
    const labels = (await raw()).reduce((n, r) => n + Number(r.n), 0);
    // Under the default tie policy ("exclude") the items whose three labels all differ are left out.
    const counted = first.safety.score.n + (first.safety.score.tiesExcluded ?? 0);
    if (labels !== 3 * N || counted !== N) {
      throw new Error(`seeded ${labels} labels and ${counted} evaluator-vs-majority pairs (incl. excluded ties); expected ${3 * N} and ${N}`);
    }
    const hit = await cached();
    if (hit.cache.status !== "hit") throw new Error("the second request was not served from the cache");
    if (!sameNumbers(hit, await evaluatorVsHuman(prisma, scope, { resamples: RESAMPLES }))) throw new Error("the cached panel differs from a fresh computation");
    // Warm-up (plans, caches), then alternate so drift hits all three equally.
    await raw();
    const tRaw: number[] = [];
    const tCold: number[] = [];
    const tColdSql: number[] = [];
    const tColdProbe: number[] = [];
    const tWarm: number[] = [];
    const tProbe: number[] = [];
    const tItems: number[] = [];
    const tVotes: number[] = [];
    for (let r = 0; r < REPS; r++) {
      tRaw.push(await time(raw));
      tItems.push(await time(() => perItemCount(prisma)));
      tVotes.push(await time(() => votesOnly(prisma, scope)));
      clearPanelCache(prisma);
      let res: Awaited<ReturnType<typeof cached>> | undefined;
      tCold.push(await time(async () => {
        res = await cached();
      }));
      if (res?.cache.status !== "miss") throw new Error("a cold repetition was served from the cache");
      tColdSql.push(res.timings.sqlMs);
      tColdProbe.push(res.cache.probeMs);
      let again: Awaited<ReturnType<typeof cached>> | undefined;
      tWarm.push(await time(async () => {
        again = await cached();
      }));
      if (again?.cache.status !== "hit") throw new Error("a warm repetition was not served from the cache");
      tProbe.push(again.cache.probeMs);
    }
    const warm = p50(tWarm);
    const cold = p50(tCold);
    const rawMs = p50(tRaw);
    const coldSql = p50(tColdSql);
    const ratio = warm / rawMs;
    const coldRatio = cold / rawMs;
    const diff = await voteTableDifferences(prisma, scope);
    if (diff.labelMismatches.length || diff.itemMismatches.length || diff.labels !== 3 * N) {
      throw new Error(`the vote tables differ from the labels' JSON: ${diff.labelMismatches.length} labels, ${diff.itemMismatches.length} items (of ${diff.labels} labels)`);
    }

    // Invalidation: revise item 0's three labels (all now say "likely severe risk"), then ask again.
    await prisma.$executeRaw`UPDATE "Assignment" SET values = jsonb_set(values, '{safety}', '"likely_severe_risk"'), "updatedAt" = now()
      WHERE "itemId" = 'bi_0' AND "campaignId" = ${CAMPAIGN}`;
    let after: Awaited<ReturnType<typeof cached>> | undefined;
    const tAfter = await time(async () => {
      after = await cached();
    });
    const fresh = await evaluatorVsHuman(prisma, scope, { resamples: RESAMPLES });
    if (after?.cache.status !== "miss" || !sameNumbers(after, fresh)) throw new Error("STALE: the request after a revised label did not recompute");
    const changed = !sameNumbers(after, hit);

    const k = first.safety.score.summary.kappa;
    const f = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(" ");
    const lines = [
      `database       ${db.label}`,
      `seeded         ${N.toLocaleString("en-US")} trajectories × 3 labels (${ANNOTATORS} annotators) + 1 evaluator score each, in ${(tSeed / 1000).toFixed(1)} s`,
      `scope          resolveHumanScope (campaign, default evaluator) ${tScope.toFixed(1)} ms, once per page (not in the ratio)`,
      `raw aggregate  GROUP BY safety value p50 ${rawMs.toFixed(1)} ms`,
      `dashboard warm evaluatorVsHumanCached, cache hit: p50 ${warm.toFixed(1)} ms  (of which the version probe p50 ${p50(tProbe).toFixed(1)} ms)`,
      `dashboard cold evaluatorVsHumanCached, cache emptied: p50 ${cold.toFixed(1)} ms  (probe p50 ${p50(tColdProbe).toFixed(1)} ms + SQL p50 ${coldSql.toFixed(1)} ms + κ/CIs, ` +
        `${RESAMPLES} resamples × 4 matrices); very first request ${tFirst.toFixed(1)} ms`,
      `ratio          cold / raw ${coldRatio.toFixed(2)}  (after any change of the labels or scores; goal ≤ ${GOAL}: ${coldRatio <= GOAL ? "met" : "MISSED"})    warm / raw ${ratio.toFixed(2)}  (goal ≤ ${GOAL}: ${ratio <= GOAL ? "met" : "MISSED"})`,
      `where it goes  (diagnostics, same run, p50) per-item GROUP BY count ${p50(tItems).toFixed(1)} ms; ` +
        `the dashboard's first step alone (the campaign's per-item vote vectors, "ItemVote") ${p50(tVotes).toFixed(1)} ms; ` +
        `the rest of the cold SQL (majorities, ties, joins to items and the evaluator's 2 scores, final count) ≈ ${(coldSql - p50(tVotes)).toFixed(1)} ms`,
      `reps           ${REPS}; raw ms ${f(tRaw)}; warm ms ${f(tWarm)}; cold ms ${f(tCold)}`,
      `invalidation   after revising item 0's 3 labels: ${after.cache.status}, recomputed in ${tAfter.toFixed(0)} ms, equal to an uncached computation; numbers ${changed ? "changed" : "UNCHANGED"}`,
      `vote tables    equal to the labels' JSON: ${diff.labels.toLocaleString("en-US")} labels, ${diff.items.toLocaleString("en-US")} items`,
      `check          safety κ categorical ${k.categorical.value?.toFixed(4)}, quadratic ${k.quadratic.value?.toFixed(4)}, binarized ${first.safety.binarized.summary.kappa.binarized.value?.toFixed(4)}; ties ${first.safety.score.ties}`,
    ];
    if (PAGE) {
      clearPanelCache(prisma);
      const tHhCold = await time(() => humanAgreementCached(prisma, scope, { resamples: RESAMPLES }));
      const tHhWarm: number[] = [];
      for (let r = 0; r < REPS; r++) tHhWarm.push(await time(() => humanAgreementCached(prisma, scope, { resamples: RESAMPLES })));
      lines.push(`page           human vs human (pairwise κ, leave-one-out κ, α, with CIs) cold ${tHhCold.toFixed(0)} ms, warm p50 ${p50(tHhWarm).toFixed(0)} ms — not in the ratio`);
      const tPage: number[] = [];
      for (let r = 0; r < 3; r++) tPage.push(await time(() => loadAgreementPanel(prisma, filter)));
      lines.push(`page           the agreement page's whole query function (filter options, scope, both sections, warm) p50 ${p50(tPage).toFixed(0)} ms — not in the ratio`);
    }
    if (KEEP && pgServer) lines.push(`kept           ${db.url}`);
    console.log(`\nAgreement dashboard benchmark\n${lines.map((l) => `  ${l}`).join("\n")}`);
    if (STRICT && (coldRatio > GOAL || ratio > GOAL)) process.exitCode = 1;
  } finally {
    await prisma.$disconnect();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(`bench:dashboard failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
