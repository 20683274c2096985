// The small labelled-campaign fixture the human-label dashboard tests share (votes, panel cache):
// n cases and trajectories, one evaluator's SAFETY and HELPFULNESS scores on each, annotator
// users, and a k=3 campaign over the trajectories whose items have readable ids. Ids:
// cases `${prefix}_case_i`, trajectories `${prefix}_t_i`, items `it_${prefix}_i`.
import { createCampaign } from "@/lib/annotation/campaigns";
import type { TestDatabase } from "./db";

export interface LabelCampaignFixture {
  prefix: string;
  n: number;
  /** Annotator user ids (ANNOTATOR role), invited to the campaign. */
  annotators: string[];
  /** An ADMIN user created to own the campaign; none: the campaign has no creator. */
  creator?: string;
  /** Scores of trajectory i by `evaluator.model`. */
  evaluator: { model: string; safety: (i: number) => number; helpfulness: (i: number) => number };
  /** Odd trajectories ADVERSARIAL, even STANDARD (default: all STANDARD). */
  alternateModes?: boolean;
  campaignName?: string;
}

/** Seeds the fixture into `t`; returns the campaign's id. */
export async function seedLabelCampaign(t: TestDatabase, f: LabelCampaignFixture): Promise<string> {
  const { prefix: p, n } = f;
  const title = p.charAt(0).toUpperCase() + p.slice(1);
  await t.sql.query(`
    INSERT INTO "TestCase"(id, source, name, "userInstruction", "underspecTaskInfo", "underspecSafety", "expectedAchievements",
                           "potentialRiskyOutcomes", "potentialRiskyActions", "contentHash", raw, "updatedAt")
    SELECT '${p}_case_' || g, '${p}', '${p}_' || g, 'Do something', '{}', '{}', '{}', '{}', '{}', md5('case' || g), '{}'::jsonb, now()
    FROM generate_series(0, ${n - 1}) g`);
  const mode = f.alternateModes ? `(CASE WHEN g % 2 = 0 THEN 'STANDARD' ELSE 'ADVERSARIAL' END)::"EmulatorMode"` : `'STANDARD'`;
  await t.sql.query(`
    INSERT INTO "Trajectory"(id, "caseId", "agentModel", "emulatorModel", "emulatorMode", status, "stepCount", "contentHash", raw)
    SELECT '${p}_t_' || g, '${p}_case_' || g, 'agent', 'emulator', ${mode}, 'FINISHED', 1, md5('traj' || g), '{}'::jsonb
    FROM generate_series(0, ${n - 1}) g`);
  const e = f.evaluator;
  await t.prisma.evaluation.createMany({
    data: Array.from({ length: n }, (_, i) => [
      { trajectoryId: `${p}_t_${i}`, kind: "SAFETY" as const, evaluatorModel: e.model, score: e.safety(i), raw: {} },
      { trajectoryId: `${p}_t_${i}`, kind: "HELPFULNESS" as const, evaluatorModel: e.model, score: e.helpfulness(i), raw: {} },
    ]).flat(),
  });
  await t.prisma.user.createMany({
    data: [
      ...f.annotators.map((id, i) => ({ id, email: `${id}@lab.example`, name: `${title} annotator ${i}`, role: "ANNOTATOR" as const, passwordHash: "x" })),
      ...(f.creator ? [{ id: f.creator, email: `${f.creator}@lab.example`, name: `${title} PI`, role: "ADMIN" as const, passwordHash: "x" }] : []),
    ],
  });
  const { id } = await createCampaign(t.prisma, f.creator ?? null, {
    name: f.campaignName ?? p,
    k: 3,
    seed: 1,
    annotatorIds: f.annotators,
    selection: { kind: "ids", trajectoryIds: Array.from({ length: n }, (_, i) => `${p}_t_${i}`) },
  });
  for (let i = 0; i < n; i++) {
    await t.sql.query(`UPDATE "CampaignItem" SET id = $1 WHERE "campaignId" = $2 AND "trajectoryId" = $3`, [`it_${p}_${i}`, id, `${p}_t_${i}`]);
  }
  return id;
}
