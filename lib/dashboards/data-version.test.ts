// The "data" version counter and the aggregates kept under it: the database bumps the counter
// once per writing transaction (at commit; not for a rolled-back one), and a cached aggregate is
// recomputed after any write it depends on — a new trajectory, evaluation, run name, step — so a
// page never shows numbers older than the data. Each cached result is compared with a fresh one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { insertBareCase } from "@/lib/testing/bare-case";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { loadTrajectoriesPage } from "@/lib/toolemu/queries/trajectories";
import { cachedByData, dataVersionSql } from "./data-version";
import { loadEvaluatorsPanel } from "./evaluators";
import { parseDashboardFilter } from "./filters";
import { computeDataOverview, loadDataOverview, loadFilterOptions } from "./options";
import { seedLabelCampaign } from "@/lib/testing/label-campaign";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await insertBareCase(t.sql, { id: "dv_case", source: "dv", name: "dv_0" });
  await addTrajectories(0, 3);
  await t.sql.query(`
    INSERT INTO "Evaluation"(id, "trajectoryId", kind, "evaluatorModel", score, raw)
    SELECT 'dv_e_' || j || '_' || g, 'dv_t_' || g, 'SAFETY', j, g % 4, '{}'::jsonb FROM generate_series(0, 2) g CROSS JOIN (VALUES ('judge-1'), ('judge-2')) js(j)`);
});
afterAll(() => t.cleanup());

async function addTrajectories(from: number, to: number, agent = "agent-a"): Promise<void> {
  await t.sql.query(
    `INSERT INTO "Trajectory"(id, "caseId", "agentModel", "emulatorModel", "emulatorMode", status, "stepCount", "contentHash", raw)
     SELECT 'dv_t_' || g, 'dv_case', $3, 'emulator', 'STANDARD', 'FINISHED', 1, md5('dv' || g), '{}'::jsonb FROM generate_series($1::int, $2::int - 1) g`,
    [from, to, agent],
  );
}

async function version(): Promise<string> {
  const [{ v }] = await t.prisma.$queryRaw<[{ v: string }]>(dataVersionSql());
  return v;
}

const trajectoriesPage = (qs = "") => loadTrajectoriesPage(t.prisma, parseTrajectoryFilter(Object.fromEntries(new URLSearchParams(qs))), (key, compute) => cachedByData(t.prisma, key, compute));

describe("the data version", () => {
  it("is bumped once per writing transaction, at commit, and not by a rolled-back one", async () => {
    const v0 = Number(await version());
    await t.sql.query("BEGIN");
    await addTrajectories(10, 13);
    await t.sql.query(`UPDATE "Trajectory" SET "hasErrors" = true WHERE id = 'dv_t_10'`);
    // Deferred: not yet, inside the transaction.
    expect(Number((await t.sql.query(`SELECT version FROM "DashboardVersion" WHERE key = 'data'`)).rows[0]?.version ?? 0)).toBe(v0);
    await t.sql.query("COMMIT");
    expect(Number(await version())).toBe(v0 + 1);

    await t.sql.query("BEGIN");
    await addTrajectories(20, 21);
    await t.sql.query("ROLLBACK");
    expect(Number(await version())).toBe(v0 + 1);

    // A savepoint rolled back with the first change: the later change still bumps.
    await t.sql.query("BEGIN");
    await t.sql.query("SAVEPOINT s");
    await addTrajectories(30, 31);
    await t.sql.query("ROLLBACK TO SAVEPOINT s");
    await t.sql.query(`UPDATE "Trajectory" SET "hasErrors" = false WHERE id = 'dv_t_10'`);
    await t.sql.query("COMMIT");
    expect(Number(await version())).toBe(v0 + 2);

    // A run's progress does not change what the pages count; its name does.
    await t.sql.query(`INSERT INTO "Run"(id, name, "caseSelection", agents, seed, "promptVersions", "updatedAt") VALUES ('dv_run', 'A run', '{}', '[]', 1, '{}', now())`);
    const v1 = Number(await version());
    await t.sql.query(`UPDATE "Run" SET "updatedAt" = now() WHERE id = 'dv_run'`);
    expect(Number(await version())).toBe(v1);
    await t.sql.query(`UPDATE "Run" SET name = 'Renamed' WHERE id = 'dv_run'`);
    expect(Number(await version())).toBe(v1 + 1);
  });
});

describe("aggregates kept under the data version", () => {
  it("the trajectory list's counts follow a new trajectory, a changed one and a new evaluation", async () => {
    const fresh = async (qs = "") => loadTrajectoriesPage(t.prisma, parseTrajectoryFilter(Object.fromEntries(new URLSearchParams(qs))));
    const first = await trajectoriesPage();
    expect(first.list.total).toBe((await fresh()).list.total);
    expect(await trajectoriesPage()).toEqual(first);

    await addTrajectories(40, 42, "agent-new");
    const after = await trajectoriesPage();
    expect(after.list.total).toBe(first.list.total + 2);
    expect(after.facets!.agents.find((o) => o.value === "agent-new")?.count).toBe(2);
    expect(after.facets).toEqual((await fresh()).facets);

    await t.sql.query(`UPDATE "Trajectory" SET "hasErrors" = true WHERE id = 'dv_t_40'`);
    expect((await trajectoriesPage()).facets!.errors).toEqual((await fresh()).facets!.errors);
    expect((await trajectoriesPage("hasErrors=1")).list.total).toBe((await fresh("hasErrors=1")).list.total);

    await t.prisma.evaluation.create({ data: { trajectoryId: "dv_t_40", kind: "SAFETY", evaluatorModel: "judge-3", score: 0, raw: {} } });
    const scored = await trajectoriesPage();
    expect(scored.facets!.evaluators.find((o) => o.value === "judge-3")?.count).toBe(1);
    expect(scored.facets).toEqual((await fresh()).facets);
  });

  it("the dashboards' filter options and the evaluators panel follow new evaluations", async () => {
    const before = await loadFilterOptions(t.prisma);
    const panel = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({}));
    await t.prisma.evaluation.createMany({
      data: [0, 1, 2].map((g) => ({ trajectoryId: `dv_t_${g}`, kind: "SAFETY" as const, evaluatorModel: "judge-4", score: 3, raw: {} })),
    });
    const after = await loadFilterOptions(t.prisma);
    expect(after.evaluators.find((o) => o.value === "judge-4")?.count).toBe(3);
    expect(after.evaluators.length).toBe(before.evaluators.length + 1);
    const panelAfter = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({}));
    expect(panelAfter.evaluators.find((o) => o.value === "judge-4")?.count).toBe(3);
    expect(panelAfter.evaluators.length).toBe(panel.evaluators.length + 1);
  });

  it("the dashboards overview follows a new trajectory and a label submitted, revised or withdrawn", async () => {
    const campaignId = await seedLabelCampaign(t, { prefix: "ov", n: 2, annotators: ["ov_a1", "ov_a2", "ov_a3"], evaluator: { model: "judge-ov", safety: () => 2, helpfulness: () => 1 } });
    const kept = () => loadDataOverview(t.prisma);
    const first = await kept();
    expect(first).toEqual(await computeDataOverview(t.prisma));
    expect(first.humanLabels).toBe(0);

    await addTrajectories(50, 51);
    expect((await kept()).trajectories).toBe(first.trajectories + 1);

    const label = { safety: "certain_no_risk", helpfulness: "good", emulator_input_validation: "none", emulator_realism: "none", emulator_consistency: "none", true_failure: false, comment: "" };
    await t.sql.query(
      `INSERT INTO "Assignment"(id, "campaignId", "itemId", "annotatorId", status, values, "submittedAt", "updatedAt", "timeSpentMs")
       VALUES ('ov_as', $1, 'it_ov_0', 'ov_a1', 'SUBMITTED', $2::jsonb, now(), now(), 1000)`,
      [campaignId, JSON.stringify(label)],
    );
    const submitted = await kept();
    expect([submitted.humanLabels, submitted.labelledItems]).toEqual([1, 1]);
    expect(submitted).toEqual(await computeDataOverview(t.prisma));

    // Moved to another item (a revision that changes what is counted), then withdrawn.
    await t.sql.query(`UPDATE "Assignment" SET "itemId" = 'it_ov_1' WHERE id = 'ov_as'`);
    expect(await kept()).toEqual(await computeDataOverview(t.prisma));
    await t.sql.query(`UPDATE "Assignment" SET status = 'CLAIMED', "submittedAt" = NULL WHERE id = 'ov_as'`);
    expect((await kept()).humanLabels).toBe(0);
  });
});
