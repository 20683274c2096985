// Agreement-dashboard benchmark (not a test). Seeds a fresh database with N trajectories, one
// evaluator's safety and helpfulness score each, and an annotation campaign in which every
// trajectory has 3 submitted human labels — all with set-based SQL (INSERT … SELECT
// generate_series), so seeding 100,000 × 3 takes seconds, not an import. Then, in the same run and
// on the same rows, it times
//   (a) the agreement dashboard's server work for evaluator vs human: `evaluatorVsHuman` (one SQL
//       statement: per-item vote counts → majority with the seeded tie-break → label-pair counts
//       for safety / helpfulness × 0..3 / binarized; then κ, raw agreement, marginals and 1,000
//       bootstrap resamples per matrix in memory), and
//   (b) ONE raw SQL aggregate over the same label rows (GROUP BY the safety value, count(*)),
// several repetitions each (after a warm-up), and prints the p50s and the ratio (goal ≤ 2).
// Usage:
//   npm run bench:dashboard -- [--n 100000] [--reps 7] [--annotators 12] [--resamples 1000]
//                              [--pg <server url> | BENCH_DATABASE_URL=<url>] [--keep] [--strict]
//   --pg     a throwaway database is created on that PostgreSQL server and dropped afterwards;
//            default: an in-memory embedded PGlite (in this process).
//   --keep   do not drop the PostgreSQL database (prints its URL, to EXPLAIN queries by hand).
//   --strict exit 1 when the ratio misses the goal.
//   --page   also time the rest of the agreement page once (human vs human: pairwise κ,
//            leave-one-out κ, α) — informational, not part of the ratio.
import { createEmptyDatabase } from "@/lib/testing/db";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createPrisma, type Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { TOOLEMU_LABEL_SCHEMA } from "@/lib/annotation/label-schema";
import { Prisma } from "@/lib/db/generated/client";
import { evaluatorVsHuman, humanAgreement, packedVotesSql, resolveHumanScope, type HumanScope } from "@/lib/dashboards/human";
import { parseArgs, stringFlag } from "../lib/args";

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
const CAMPAIGN = "bench_campaign";
const EVALUATOR = "bench-judge";
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

/**
 * Set-based seeding. Every "random" choice is a hash of the row number (hashtext), so a run is
 * reproducible. Humans agree with the evaluator about 60% of the time, otherwise pick any score;
 * each trajectory's 3 labels come from 3 different annotators ((g + j) mod A).
 */
async function seed(sql: pg.Client): Promise<void> {
  const q = (text: string, values: unknown[] = []) => sql.query(text, values);
  const h = (expr: string) => `abs(hashtext(${expr}))`;
  await q("BEGIN");
  await q(
    `INSERT INTO "User"(id, email, name, "passwordHash", role, "updatedAt")
     SELECT 'bench_ann_' || g, 'bench' || g || '@bench.local', 'Bench annotator ' || g, 'x', 'ANNOTATOR', now()
     FROM generate_series(0, $1::int - 1) g`,
    [ANNOTATORS],
  );
  await q(
    `INSERT INTO "TestCase"(id, source, name, "userInstruction", "underspecTaskInfo", "underspecSafety", "expectedAchievements",
                            "potentialRiskyOutcomes", "potentialRiskyActions", "contentHash", raw, "updatedAt")
     SELECT 'bench_case_' || g, 'bench', 'bench_' || g, 'Do something', '{}', '{}', '{}', '{}', '{}', md5('case' || g), '{}'::jsonb, now()
     FROM generate_series(0, 143) g`,
  );
  await q(
    `INSERT INTO "Trajectory"(id, "caseId", "agentModel", "emulatorModel", "emulatorMode", status, "stepCount", "contentHash", raw)
     SELECT 'bt_' || g, 'bench_case_' || (g % 144), CASE WHEN g % 2 = 0 THEN 'bench/agent-a' ELSE 'bench/agent-b' END, 'bench/emulator',
            (CASE WHEN g % 3 = 0 THEN 'STANDARD' ELSE 'ADVERSARIAL' END)::"EmulatorMode", 'FINISHED', 3, md5('traj' || g), '{}'::jsonb
     FROM generate_series(0, $1::int - 1) g`,
    [N],
  );
  // The evaluator: safety skewed towards safe (like ToolEmu's judges), helpfulness uniform.
  await q(
    `INSERT INTO "Evaluation"(id, "trajectoryId", kind, "evaluatorModel", score, raw)
     SELECT 'be_' || k || '_' || g, 'bt_' || g, k::"EvaluationKind", $2,
            CASE WHEN k = 'SAFETY' THEN (ARRAY[0,1,1,2,3,3,3,3])[${h(`'es' || g`)} % 8 + 1] ELSE ${h(`'eh' || g`)} % 4 END, '{}'::jsonb
     FROM generate_series(0, $1::int - 1) g CROSS JOIN (VALUES ('SAFETY'), ('HELPFULNESS')) kinds(k)`,
    [N, EVALUATOR],
  );
  await q(
    `INSERT INTO "Campaign"(id, name, "labelSchema", "labelSchemaVersion", k, seed, "updatedAt")
     VALUES ($1, 'Benchmark campaign', $2::jsonb, $3, 3, 1, now())`,
    [CAMPAIGN, JSON.stringify(TOOLEMU_LABEL_SCHEMA), TOOLEMU_LABEL_SCHEMA.version],
  );
  await q(`INSERT INTO "CampaignMember"("campaignId", "userId") SELECT $1, 'bench_ann_' || g FROM generate_series(0, $2::int - 1) g`, [CAMPAIGN, ANNOTATORS]);
  await q(`INSERT INTO "CampaignItem"(id, "campaignId", "trajectoryId") SELECT 'bi_' || g, $1, 'bt_' || g FROM generate_series(0, $2::int - 1) g`, [CAMPAIGN, N]);
  const safetyValue = `(ARRAY['likely_severe_risk', CASE WHEN x % 2 = 0 THEN 'likely_mild_risk' ELSE 'possible_severe_risk' END, 'possible_mild_risk', 'certain_no_risk'])`;
  const helpValue = `(ARRAY['poor', 'unsatisfactory', 'good', 'excellent'])`;
  const severity = (salt: string) => `(ARRAY['none','none','none','none','none','minor','minor','critical'])[${h(`'${salt}' || g || ':' || j`)} % 8 + 1]`;
  await q(
    `INSERT INTO "Assignment"(id, "campaignId", "itemId", "annotatorId", status, values, "submittedAt", "updatedAt", "timeSpentMs")
     SELECT 'ba_' || g || '_' || j, $1, 'bi_' || g, 'bench_ann_' || ((g + j) % $3::int), 'SUBMITTED',
            jsonb_build_object(
              'safety', ${safetyValue}[(CASE WHEN x % 100 < 60 THEN es.score ELSE x % 4 END) + 1],
              'helpfulness', ${helpValue}[(CASE WHEN y % 100 < 60 THEN eh.score ELSE y % 4 END) + 1],
              'emulator_input_validation', ${severity("iv")},
              'emulator_realism', ${severity("re")},
              'emulator_consistency', ${severity("co")},
              'true_failure', (CASE WHEN x % 100 < 60 THEN es.score ELSE x % 4 END) <= 1 AND ${h(`'tf' || g || ':' || j`)} % 10 < 8,
              'comment', ''),
            now(), now(), 60000
     FROM generate_series(0, $2::int - 1) g
     CROSS JOIN generate_series(0, 2) j
     JOIN "Evaluation" es ON es.id = 'be_SAFETY_' || g
     JOIN "Evaluation" eh ON eh.id = 'be_HELPFULNESS_' || g
     CROSS JOIN LATERAL (SELECT ${h(`'hs' || g || ':' || j`)} AS x, ${h(`'hh' || g || ':' || j`)} AS y) r`,
    [CAMPAIGN, N, ANNOTATORS],
  );
  await q("COMMIT");
  await q("ANALYZE");
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
    const tSeed = await time(() => seed(sql));
    await sql.end();

    const filter = { campaign: CAMPAIGN, evaluator: EVALUATOR, seed: SEED };
    const tScope0 = performance.now();
    const { scope } = await resolveHumanScope(prisma, filter);
    const tScope = performance.now() - tScope0;
    if (!scope) throw new Error("the benchmark campaign was not found");
    const dashboard = () => evaluatorVsHuman(prisma, scope, { resamples: RESAMPLES });
    const raw = () => rawAggregate(prisma);

    // Sanity: both see every label.
    const check = await dashboard();
    const labels = (await raw()).reduce((n, r) => n + Number(r.n), 0);
    if (labels !== 3 * N || check.safety.score.n !== N) {
      throw new Error(`seeded ${labels} labels and ${check.safety.score.n} evaluator-vs-majority pairs; expected ${3 * N} and ${N}`);
    }
    // Warm-up (plans, caches, JIT), then alternate so drift hits both equally.
    await raw();
    await dashboard();
    const tDash: number[] = [];
    const tRaw: number[] = [];
    const tSql: number[] = [];
    const tItems: number[] = [];
    const tVotes: number[] = [];
    for (let r = 0; r < REPS; r++) {
      tRaw.push(await time(raw));
      tItems.push(await time(() => perItemCount(prisma)));
      tVotes.push(await time(() => votesOnly(prisma, scope)));
      let sqlMs = 0;
      tDash.push(await time(async () => {
        const res = await evaluatorVsHuman(prisma, scope, { resamples: RESAMPLES });
        sqlMs = res.timings.sqlMs;
      }));
      tSql.push(sqlMs);
    }
    const dash = p50(tDash);
    const rawMs = p50(tRaw);
    const sqlMs = p50(tSql);
    const ratio = dash / rawMs;
    const k = check.safety.score.summary.kappa;
    const lines = [
      `database       ${db.label}`,
      `seeded         ${N.toLocaleString("en-US")} trajectories × 3 labels (${ANNOTATORS} annotators) + 1 evaluator score each, in ${(tSeed / 1000).toFixed(1)} s`,
      `scope          resolveHumanScope (campaign, default evaluator) ${tScope.toFixed(1)} ms, once per page (not in the ratio)`,
      `dashboard      evaluatorVsHuman p50 ${dash.toFixed(1)} ms  (SQL ${sqlMs.toFixed(1)} ms + κ/CIs ${(dash - sqlMs).toFixed(1)} ms, ${RESAMPLES} resamples × 4 matrices)`,
      `raw aggregate  GROUP BY safety value p50 ${rawMs.toFixed(1)} ms`,
      `ratio          ${ratio.toFixed(2)}  (goal ≤ ${GOAL}: ${ratio <= GOAL ? "met" : "MISSED"})`,
      `where it goes  (diagnostics, same run, p50) per-item GROUP BY count ${p50(tItems).toFixed(1)} ms; ` +
        `the dashboard's first step alone (per-item packed vote vectors from both JSON fields) ${p50(tVotes).toFixed(1)} ms; ` +
        `the rest (distinct-vector majorities, ties, joins to items and the evaluator's 2 scores, final count) ≈ ${(sqlMs - p50(tVotes)).toFixed(1)} ms`,
      `reps           ${REPS}; dashboard ms ${tDash.map((x) => x.toFixed(0)).join(" ")}; raw ms ${tRaw.map((x) => x.toFixed(0)).join(" ")}`,
      `check          safety κ categorical ${k.categorical.value?.toFixed(4)}, quadratic ${k.quadratic.value?.toFixed(4)}, binarized ${check.safety.binarized.summary.kappa.binarized.value?.toFixed(4)}; ties ${check.safety.score.ties}`,
    ];
    if (PAGE) {
      const t = await time(() => humanAgreement(prisma, scope, { resamples: RESAMPLES }));
      lines.push(`page (once)    human vs human (pairwise κ, leave-one-out κ, α, with CIs) ${t.toFixed(0)} ms — not in the ratio`);
    }
    if (KEEP && pgServer) lines.push(`kept           ${db.url}`);
    console.log(`\nAgreement dashboard benchmark\n${lines.map((l) => `  ${l}`).join("\n")}`);
    if (STRICT && ratio > GOAL) process.exitCode = 1;
  } finally {
    await prisma.$disconnect();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(`bench:dashboard failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
