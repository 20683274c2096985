// The research-scale label database the benchmarks share (bench:dashboard, bench:pages): N
// trajectories, one evaluator's safety and helpfulness score each, and one annotation campaign in
// which every trajectory has 3 submitted human labels (ToolEmu label schema) from `annotators`
// annotators — all with set-based SQL (INSERT … SELECT generate_series), so 100,000 × 3 seeds in
// seconds, not through an import. Every "random" choice is a hash of the row number (hashtext), so
// a run is reproducible. Humans agree with the evaluator about 60% of the time, otherwise pick any
// score; each trajectory's 3 labels come from 3 different annotators ((g + j) mod A).
//
// Whatever tables the app derives from submitted labels at write time are filled here too (in the
// same transaction), so the seeded database is what the app would have written.
import type pg from "pg";
import { TOOLEMU_LABEL_SCHEMA } from "@/lib/trajectory/label-schema";

export type LabelScale = {
  campaignId: string;
  /** The evaluator model whose scores were seeded (filter value of the dashboards). */
  evaluator: string;
  /** Annotator user ids, `bench_ann_0` … (role ANNOTATOR, members of the campaign). */
  annotatorIds: string[];
  /** Trajectory `g` has id `${trajectoryPrefix}${g}`, its campaign item `${itemPrefix}${g}`. */
  trajectoryPrefix: string;
  itemPrefix: string;
  caseCount: number;
  n: number;
};

export const LABEL_SCALE_CAMPAIGN = "bench_campaign";
export const LABEL_SCALE_EVALUATOR = "bench-judge";

/** Seeds into an empty, migrated database (one transaction), then VACUUM ANALYZE. */
export async function seedLabelScale(client: pg.Client, opts: { n: number; annotators: number }): Promise<LabelScale> {
  const { n: N, annotators: ANNOTATORS } = opts;
  if (!Number.isInteger(N) || N < 1) throw new Error("n must be a positive integer");
  if (!Number.isInteger(ANNOTATORS) || ANNOTATORS < 3) throw new Error("annotators must be at least 3");
  const CAMPAIGN = LABEL_SCALE_CAMPAIGN;
  const EVALUATOR = LABEL_SCALE_EVALUATOR;
  const q = (text: string, values: unknown[] = []) => client.query(text, values);
  const h = (expr: string) => `abs(hashtext(${expr}))`;
  await q("BEGIN");
  try {
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
  } catch (e) {
    await q("ROLLBACK").catch(() => undefined);
    throw e;
  }
  // VACUUM as autovacuum does after a bulk insert (minutes later on a live database): it marks the
  // pages all-visible, which index-only scans and cheap visibility checks rely on; timing the
  // minutes before it would measure a transient state.
  await q("VACUUM ANALYZE");
  return {
    campaignId: CAMPAIGN,
    evaluator: EVALUATOR,
    annotatorIds: Array.from({ length: ANNOTATORS }, (_, g) => `bench_ann_${g}`),
    trajectoryPrefix: "bt_",
    itemPrefix: "bi_",
    caseCount: 144,
    n: N,
  };
}
