// The "failure without an executed tool call" cohort on the shared ToolEmu data, through the
// dashboards' query function and through the trajectory browser's filter (the same SQL):
// 43 of 144 trajectories have no executed call; 27 of Qwen3-32B's 80 failures, 34 of gpt-5-mini's 102.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import { countTrajectories, listTrajectories } from "@/lib/toolemu/queries/trajectories";
import { trajectoryFacets } from "@/lib/toolemu/queries/trajectory-facets";
import { parseDashboardFilter } from "./filters";
import { noExecutedCallCohort } from "./cohorts";

const Q32 = "Qwen/Qwen3-32B";
const GPT5M = "gpt-5-mini";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase({ seed: "all" });
  expect(t.imported?.report.issues).toEqual([]);
});
afterAll(async () => {
  await t?.cleanup();
});

describe("failures without an executed tool call, shared Qwen2.5-7B data", () => {
  it.each([
    [Q32, 80, 27],
    [GPT5M, 102, 34],
  ])("%s: 144 trajectories, 43 without a call, %i failures of which %i without a call", async (evaluator, failures, failuresNoExecuted) => {
    const c = await noExecutedCallCohort(t.prisma, { ...parseDashboardFilter({}), evaluator });
    expect(c).toMatchObject({ evaluator, trajectories: 144, noExecuted: 43, failures, failuresNoExecuted, idsCapped: false });
    expect(c.failureIds).toHaveLength(failuresNoExecuted);
    expect(c.noExecutedIds).toHaveLength(43);
    // The listed trajectories really have no step at all (imported ToolEmu steps are all calls)…
    const steps = await t.prisma.step.count({ where: { trajectoryId: { in: c.noExecutedIds } } });
    expect(steps).toBe(0);
    // …and the cohort's are failures of this evaluator.
    const scores = await t.prisma.evaluation.findMany({ where: { trajectoryId: { in: c.failureIds }, kind: "SAFETY", evaluatorModel: evaluator }, select: { score: true } });
    expect(scores.map((s) => s.score! <= 1)).toEqual(c.failureIds.map(() => true));
  });

  it("caps the id lists and says so", async () => {
    const c = await noExecutedCallCohort(t.prisma, { ...parseDashboardFilter({}), evaluator: Q32 }, { maxIds: 5 });
    expect(c.failureIds).toHaveLength(5);
    expect(c.noExecutedIds).toHaveLength(5);
    expect(c.idsCapped).toBe(true);
    expect(c.failuresNoExecuted).toBe(27);
  });

  it("follows the dashboard filter, and an unknown evaluator gives zeros", async () => {
    const none = await noExecutedCallCohort(t.prisma, { ...parseDashboardFilter({ agent: "nobody" }), evaluator: Q32 });
    expect(none).toMatchObject({ trajectories: 0, noExecuted: 0, failures: 0, failuresNoExecuted: 0, failureIds: [], noExecutedIds: [] });
    const unknown = await noExecutedCallCohort(t.prisma, { ...parseDashboardFilter({}), evaluator: "no-such-judge" });
    expect(unknown).toMatchObject({ trajectories: 0, failures: 0 });
    const agent = await noExecutedCallCohort(t.prisma, { ...parseDashboardFilter({ agent: "Qwen/Qwen2.5-7B-Instruct" }), evaluator: GPT5M });
    expect(agent).toMatchObject({ trajectories: 144, noExecuted: 43, failures: 102, failuresNoExecuted: 34 });
  });

  it("the trajectory browser finds the same cohort: calls=none, then failure=1 by an evaluator", async () => {
    const f = (q: string) => parseTrajectoryFilter(new URLSearchParams(q));
    expect(await countTrajectories(t.prisma, f("calls=none"))).toBe(43);
    expect(await countTrajectories(t.prisma, f("calls=some"))).toBe(101);
    expect(await countTrajectories(t.prisma, f(`failure=1&evaluator=${encodeURIComponent(Q32)}`))).toBe(80);
    expect(await countTrajectories(t.prisma, f(`failure=0&evaluator=${encodeURIComponent(Q32)}`))).toBe(64);
    expect(await countTrajectories(t.prisma, f(`calls=none&failure=1&evaluator=${encodeURIComponent(Q32)}`))).toBe(27);
    expect(await countTrajectories(t.prisma, f(`calls=none&failure=1&evaluator=${GPT5M}`))).toBe(34);

    // Same ids as the dashboard function.
    const cohort = await noExecutedCallCohort(t.prisma, { ...parseDashboardFilter({}), evaluator: GPT5M });
    const listed = await listTrajectories(t.prisma, f(`calls=none&failure=1&evaluator=${GPT5M}`), 100);
    expect(listed.rows.map((r) => r.id).sort()).toEqual([...cohort.failureIds].sort());
  });

  it("counts each option with the other filters applied", async () => {
    const f = (q: string) => parseTrajectoryFilter(new URLSearchParams(q));
    const all = await trajectoryFacets(t.prisma, f(""));
    expect(all.calls).toEqual({ none: 43, some: 101 });
    const q32 = await trajectoryFacets(t.prisma, f(`evaluator=${encodeURIComponent(Q32)}&calls=none`));
    expect(q32.failure).toEqual({ failures: 27, nonFailures: 16 });
    expect(q32.calls).toEqual({ none: 43, some: 101 });
    const failing = await trajectoryFacets(t.prisma, f(`evaluator=${GPT5M}&failure=1`));
    expect(failing.calls).toEqual({ none: 34, some: 68 });
    expect(failing.failure).toEqual({ failures: 102, nonFailures: 42 });
    // Per-evaluator counts honour both new filters.
    expect(Object.fromEntries(failing.evaluators.map((o) => [o.value, o.count]))).toEqual({ [Q32]: 80, [GPT5M]: 102 });
    const cohortByJudge = await trajectoryFacets(t.prisma, f("calls=none&failure=1"));
    expect(Object.fromEntries(cohortByJudge.evaluators.map((o) => [o.value, o.count]))).toEqual({ [Q32]: 27, [GPT5M]: 34 });
  });
});
