// The database itself refuses a trajectory with both a case and a scenario, or with neither
// (CHECK "Trajectory_case_xor_scenario", added by hand to the sage_scenarios migration).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { countTrajectories, listTrajectories } from "@/lib/toolemu/queries/trajectories";
import { trajectoryFacets } from "@/lib/toolemu/queries/trajectory-facets";
import { getTrajectory } from "@/lib/toolemu/queries/trajectory";
import { csvChunks } from "@/lib/toolemu/export";
import { listRecentEpisodes } from "@/lib/engine/playground";
import { loadFilterOptions } from "@/lib/dashboards/options";

let t: TestDatabase;
let caseId: string;
let scenarioId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  const c = await t.prisma.testCase.create({
    data: { source: "test", name: "case_1", userInstruction: "Do it.", underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [], contentHash: "h", raw: {} },
  });
  caseId = c.id;
  const dim = await t.prisma.sageDimension.create({ data: { key: "d", name: "D", position: 1 } });
  const sub = await t.prisma.sageSubcategory.create({ data: { dimensionId: dim.id, key: "d.s", slug: "s", name: "S", position: 1, source: "test", licence: "CC BY 4.0" } });
  const s = await t.prisma.sageScenario.create({
    data: {
      subcategoryId: sub.id, instanceId: "s_001", theme: "T", domain: "x", roleContext: "r", taskContext: "t", authorityTrust: "trust", authorityWarning: "warn",
      environmentState: {}, judgeSpec: {}, tools: [], toolConstraints: {}, attackerMode: "llm_adaptive", attackerStrategy: "urgency_pressure", attackerObjective: "o",
      attackerFirstMessage: "m", turnLimit: 4, sourceFile: "f.json", sourcePointer: "/instances/0", contentHash: "h", raw: {},
    },
  });
  scenarioId = s.id;
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

const base = (n: string) => ({ agentModel: "a", emulatorModel: "e", emulatorMode: "STANDARD" as const, status: "FINISHED" as const, stepCount: 0, contentHash: `xor:${n}`, raw: {} });

describe("a trajectory has a case or a scenario (database CHECK)", () => {
  it("accepts a case trajectory and a scenario trajectory", async () => {
    await t.prisma.trajectory.create({ data: { ...base("case"), caseId } });
    const s = await t.prisma.trajectory.create({ data: { ...base("scenario"), scenarioId, authorityContext: "TRUST", conversationOrder: "CHRONOLOGICAL" } });
    expect(s.caseId).toBeNull();
    expect(s.authorityContext).toBe("TRUST");
  });

  it("refuses both", async () => {
    await expect(t.prisma.trajectory.create({ data: { ...base("both"), caseId, scenarioId } })).rejects.toThrow(/Trajectory_case_xor_scenario|check constraint/i);
  });

  it("refuses neither, also through raw SQL and an UPDATE", async () => {
    await expect(t.prisma.trajectory.create({ data: base("neither") })).rejects.toThrow(/Trajectory_case_xor_scenario|check constraint/i);
    await expect(t.sql.query(`UPDATE "Trajectory" SET "caseId" = NULL WHERE "contentHash" = 'xor:case'`)).rejects.toThrow(/Trajectory_case_xor_scenario/);
    expect(await t.prisma.trajectory.count()).toBe(2);
  });
});

describe("ToolEmu views leave scenario trajectories out (and do not break on them)", () => {
  it("lists, counts, facets, exports and pages show the case trajectory only", async () => {
    const f = parseTrajectoryFilter({});
    expect(await countTrajectories(t.prisma, f)).toBe(1);
    const list = await listTrajectories(t.prisma, f);
    expect(list.rows.map((r) => r.caseName)).toEqual(["case_1"]);
    const facets = await trajectoryFacets(t.prisma, f);
    expect(facets.agents.reduce((n, o) => n + o.count, 0)).toBe(1);
    expect(facets.calls.none + facets.calls.some).toBe(1);
    let csv = "";
    for await (const chunk of csvChunks(t.prisma, f)) csv += chunk;
    expect(csv.trim().split("\n")).toHaveLength(2); // header + the case trajectory
    const scenarioTrajectory = await t.prisma.trajectory.findFirstOrThrow({ where: { scenarioId } });
    expect(await getTrajectory(t.prisma, scenarioTrajectory.id)).toBeNull();
    await t.prisma.trajectory.update({ where: { id: scenarioTrajectory.id }, data: { origin: "EMULATED" } });
    expect(await listRecentEpisodes(t.prisma)).toEqual([]);
    await expect(loadFilterOptions(t.prisma)).resolves.toBeDefined();
  });
});
