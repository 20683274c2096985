// SAGE runs end to end (issue 14): the 112 shared seed scenarios imported with the real importer,
// a run of a stratified sample — one scenario of each of the 16 subcategories × both authority
// contexts (32 episodes; the full 112 × 2 = 224 is `npm run bench:run -- --sage`, which checks the
// same figures, because it takes minutes on this machine) — played by a real pg-boss worker
// (engineRunner, the production runner) against the real offline model server over HTTP through
// the real openai-SDK client, judged after each episode by offline judge A and judge B — then
// read back through the SAGE dashboard's own query (lib/dashboards/sage/query.ts) filtered to the
// run: the designed UTR (Trust 1, Warning 0, n = 16 each), judge A's ASR = UTR, judge B's ASR 0
// (it answers "uncertain" from turn 3 on: no majority under Trust), the paired context effect. Also: selection, estimate, the turn-limit policy, the run page's summary,
// cancel, and the case-xor-scenario CHECK on RunEpisode.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { startWorkerOffline, waitUntil, type WorkerOffline } from "@/lib/testing/worker-offline";
import { runSageImport } from "@/lib/sage/import";
import type { EpisodeQueue } from "@/lib/jobs/boss";
import { OFFLINE_JUDGE_B_MODEL } from "@/lib/offline/brain/sage";
import { loadSageDashboard, judgeMeasure } from "@/lib/dashboards/sage/query";
import { parseSageFilter } from "@/lib/dashboards/sage/filters";
import { cancelRun } from "../control";
import { listRunEpisodes, loadRunProgress } from "../queries";
import { createSageRun, expandSageEpisodes, previewSageRun, rerunSageRun } from "./create";
import { estimateSageRun, turnsUnder } from "./estimate";
import { sampleScenarios } from "./selection";
import { PUBLISHED_MAX_TURNS } from "./schemas";

let w: WorkerOffline;
let t: TestDatabase;
let queue: EpisodeQueue;
let agent: string;
let judgeB: string;
let fullRunId: string;

beforeAll(async () => {
  w = await startWorkerOffline({ worker: { concurrency: 6, leaseMs: 15_000, reapIntervalMs: 2000 } });
  ({ t, queue } = w);
  const imported = await runSageImport(t.prisma, [path.join(sharedDataDir(), "sage")]);
  expect(imported.report.issues).toEqual([]);
  const mk = (name: string, model: string) => w.endpoint(name, { model, temperature: 0, maxConcurrency: 16, priceInputPer1k: 0, priceOutputPer1k: 0 });
  agent = await mk("offline-heuristic", "offline-heuristic");
  judgeB = await mk("offline judge B", OFFLINE_JUDGE_B_MODEL);
}, 240_000);

afterAll(async () => {
  await w?.stop();
});

const waitFor = (cond: () => Promise<boolean>, what: string, ms = 600_000) => waitUntil(cond, what, ms, 250);
const runStatus = async (id: string) => (await t.prisma.run.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;

describe("selection, episodes and the estimate", () => {
  it("expands scenario × agent × context × repeat with the two contexts of a pair next to each other", () => {
    const e = expandSageEpisodes(["s1", "s2"], { agents: ["a"], contexts: ["TRUST", "WARNING"], repeats: 2 });
    expect(e.map((x) => `${x.repeat}:${x.scenarioId}:${x.authority}`)).toEqual(["0:s1:TRUST", "0:s1:WARNING", "0:s2:TRUST", "0:s2:WARNING", "1:s1:TRUST", "1:s1:WARNING", "1:s2:TRUST", "1:s2:WARNING"]);
    expect(e.map((x) => x.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("samples n per subcategory, the same for the same seed in any order", () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ instanceId: `x_${i}`, subcategory: `s${i % 3}` }));
    const a = sampleScenarios(rows, 2, 7).map((r) => r.instanceId).sort();
    const b = sampleScenarios([...rows].reverse(), 2, 7).map((r) => r.instanceId).sort();
    expect(a).toEqual(b);
    expect(a).toHaveLength(6);
    expect(new Set(sampleScenarios(rows, 2, 7).map((r) => r.subcategory))).toEqual(new Set(["s0", "s1", "s2"]));
    expect(sampleScenarios(rows, 2, 8).map((r) => r.instanceId).sort()).not.toEqual(a);
  });

  it("bounds the calls: attacker ≤ T − 1, agent ≤ T, one per judge, per episode", () => {
    const ep = { id: "e", name: "e", priceInputPer1k: 1, priceOutputPer1k: 2 };
    const est = estimateSageRun({ scenarios: [{ turns: 4, chars: 400 }, { turns: 5, chars: 400 }], agents: [ep], attacker: ep, judges: [ep, { ...ep, id: "j2" }], contexts: 2, repeats: 1 });
    expect(est.episodes).toBe(4);
    expect(est.calls).toMatchObject({ agent: 2 * (4 + 5), attacker: 2 * (3 + 4), judge: 4 * 2, total: 18 + 14 + 8 });
    expect(est.costUsd).toBeGreaterThan(0);
    expect(turnsUnder(5, PUBLISHED_MAX_TURNS)).toBe(4);
    expect(turnsUnder(5, null)).toBe(5);
    expect(turnsUnder(3, PUBLISHED_MAX_TURNS)).toBe(3);
  });

  it("previews a selection by dimension and by subcategory; the published policy caps the 28 five-turn seeds at 4", async () => {
    const all = await previewSageRun(t.prisma, { scenarios: { kind: "all" }, agents: [agent], attackerEndpointId: agent, judgeEndpointIds: [agent, judgeB] });
    expect([all.scenarios, all.episodes, all.perContext, all.capped]).toEqual([112, 224, 112, 28]);
    expect(all.estimate.maxTurns).toBe(4);
    expect(all.estimate.calls.agent).toBe(224 * 4);
    expect(all.estimate.calls.attacker).toBe(224 * 3);
    expect(all.estimate.calls.judge).toBe(224 * 2);
    const own = await previewSageRun(t.prisma, { scenarios: { kind: "all" }, agents: [agent], attackerEndpointId: agent, turns: "scenario" });
    expect([own.capped, own.estimate.maxTurns, own.estimate.calls.agent]).toEqual([0, 5, 2 * (84 * 4 + 28 * 5)]);
    const dim = await previewSageRun(t.prisma, { scenarios: { kind: "dimensions", keys: ["autonomy_authority_failure"] }, agents: [agent], attackerEndpointId: agent, contexts: ["WARNING"] });
    expect([dim.scenarios, dim.episodes]).toEqual([28, 28]);
    const sub = await previewSageRun(t.prisma, { scenarios: { kind: "subcategories", keys: ["autonomy_authority_failure.privilege_escalation"] }, agents: [agent], attackerEndpointId: agent });
    expect([sub.scenarios, sub.episodes]).toEqual([7, 14]);
    const sample = await previewSageRun(t.prisma, { scenarios: { kind: "sample", perSubcategory: 2, seed: 3 }, agents: [agent], attackerEndpointId: agent });
    expect(sample.scenarios).toBe(32);
  });

  it("refuses two judges of one model, unknown scenarios, and an empty selection", async () => {
    await expect(previewSageRun(t.prisma, { scenarios: { kind: "all" }, agents: [agent], attackerEndpointId: agent, judgeEndpointIds: [agent, agent] })).rejects.toThrow(/twice/);
    const twin = (await t.prisma.modelEndpoint.create({ data: { name: "twin", baseUrl: w.llm.url, model: "offline-heuristic", offline: true }, select: { id: true } })).id;
    await expect(previewSageRun(t.prisma, { scenarios: { kind: "all" }, agents: [agent], attackerEndpointId: agent, judgeEndpointIds: [agent, twin] })).rejects.toThrow(/same model/);
    await expect(previewSageRun(t.prisma, { scenarios: { kind: "ids", ids: ["no_such_scenario"] }, agents: [agent], attackerEndpointId: agent })).rejects.toThrow(/not found: no_such_scenario/);
    await expect(createSageRun(t.prisma, null, { scenarios: { kind: "dimensions", keys: ["nope"] }, agents: [agent], attackerEndpointId: agent }, null)).rejects.toThrow(/no scenarios/);
  });

  it("the database refuses a run episode with both a case and a scenario, or neither", async () => {
    const run = await t.prisma.run.create({ data: { name: "x", caseSelection: {}, caseIds: [], agents: [], modes: [], seed: 0, promptVersions: [] }, select: { id: true } });
    const scenario = await t.prisma.sageScenario.findFirstOrThrow({ select: { id: true } });
    const base = { runId: run.id, variant: "SAGE", mode: "STANDARD" as const, repeat: 0, position: 0 };
    await expect(t.prisma.runEpisode.create({ data: { ...base } })).rejects.toThrow(/RunEpisode_case_xor_scenario/);
    await t.prisma.runEpisode.create({ data: { ...base, scenarioId: scenario.id, authority: "TRUST" } });
    await t.prisma.run.delete({ where: { id: run.id } });
  });
});

const N = 16;

describe("a run of one scenario per subcategory × Trust and Warning on the workers", () => {
  it("plays and judges 32 episodes; the dashboard shows UTR Trust 1, Warning 0 (n = 16 each) and the judges' designed ASRs", async () => {
    const t0 = Date.now();
    const created = await createSageRun(t.prisma, null, { name: "a seed per subcategory", scenarios: { kind: "sample", perSubcategory: 1, seed: 5 }, agents: [agent], attackerEndpointId: agent, judgeEndpointIds: [agent, judgeB], seed: 5 }, queue);
    fullRunId = created.id;
    expect(created.episodes).toBe(2 * N);
    await waitFor(async () => (await runStatus(fullRunId)) === "DONE", "the SAGE run");
    // Printed, not asserted (speed is measured by npm run bench:run -- --sage).
    console.log(`SAGE run of ${2 * N} episodes on the worker: ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const counts = await t.prisma.runEpisode.groupBy({ by: ["status"], where: { runId: fullRunId }, _count: { _all: true } });
    expect(counts.map((c) => [c.status, c._count._all])).toEqual([["DONE", 2 * N]]);
    const traj = await t.prisma.trajectory.findMany({ where: { runId: fullRunId }, select: { authorityContext: true, conversationOrder: true, settings: true, stepCount: true, scenario: { select: { turnLimit: true } } } });
    expect(traj).toHaveLength(2 * N);
    expect(traj.every((x) => x.conversationOrder === "CHRONOLOGICAL")).toBe(true);
    // Published policy: the five-turn scenarios are played with at most 4 turns (recorded in the settings).
    const five = traj.filter((x) => x.scenario!.turnLimit === 5);
    expect(five.length).toBeGreaterThan(0);
    expect(five.every((x) => (x.settings as { turnLimit: number; scenarioTurnLimit: number }).turnLimit === 4 && (x.settings as { scenarioTurnLimit: number }).scenarioTurnLimit === 5)).toBe(true);
    expect(Math.max(...traj.map((x) => x.stepCount))).toBeLessThanOrEqual(4);

    const d = await loadSageDashboard(t.prisma, parseSageFilter({ run: fullRunId }));
    expect(d.episodes).toBe(2 * N);
    expect(d.agents).toEqual(["offline-heuristic"]);
    expect(d.judges).toEqual(["offline-heuristic", OFFLINE_JUDGE_B_MODEL]);
    const row = (context: string) => d.rows.find((r) => r.agent === "offline-heuristic" && r.context === context && r.group.key === "all")!.metrics;
    const trust = row("TRUST");
    const warning = row("WARNING");
    expect([trust.utr.numerator, trust.utr.denominator, warning.utr.numerator, warning.utr.denominator]).toEqual([N, N, 0, N]);
    const [aT, bT] = trust.asr;
    const [aW, bW] = warning.asr;
    expect([aT!.unsafe, aT!.asr.denominator, bT!.unsafe, bT!.uncertain, bT!.asr.denominator]).toEqual([N, N, 0, N, N]);
    expect([aW!.unsafe, aW!.safe, bW!.unsafe, bW!.safe]).toEqual([0, N, 0, N]);
    expect([trust.majority.noMajority, warning.majority.safe]).toEqual([N, N]);
    const effect = d.effects.find((e) => e.agent === "offline-heuristic" && e.group.key === "all" && e.measure === judgeMeasure("offline-heuristic"))!.effect;
    expect([effect.pairs, effect.mcnemar.b, effect.mcnemar.c]).toEqual([N, N, 0]);
    // Every subcategory is covered under both contexts.
    expect(new Set(d.rows.filter((r) => r.group.kind === "subcategory" && r.context === "TRUST").map((r) => r.group.key)).size).toBe(16);

    const progress = (await loadRunProgress(t.prisma, fullRunId))!;
    expect(progress.kind).toBe("SAGE");
    const ctx = Object.fromEntries(progress.sage!.contexts.map((c) => [c.context, c]));
    expect([ctx.TRUST!.counts.done, ctx.TRUST!.utr.numerator, ctx.TRUST!.utr.denominator, ctx.WARNING!.utr.numerator]).toEqual([N, N, N, 0]);
    expect(ctx.TRUST!.judges.map((j) => [j.judge, j.unsafe, j.uncertain])).toEqual([["offline-heuristic", N, 0], [OFFLINE_JUDGE_B_MODEL, 0, N]]);
    expect(progress.sage!.judgeErrors).toBe(0);
    // Attacker ≤ T − 1, agent ≤ T, 2 judges per episode — and the offline agent needs 4 turns under Trust, 3 under Warning.
    expect(progress.usage.calls).toBe(N * (3 + 4 + 2) + N * (2 + 3 + 2));
    expect(progress.usage.calls).toBeLessThanOrEqual(progress.estimate!.calls.total);
    const page = await listRunEpisodes(t.prisma, fullRunId, "done", 1);
    expect(page.rows[0]!.authority).toMatch(/TRUST|WARNING/);
    expect(page.rows[0]!.case).toMatch(/_\d{3}$/);
  }, 900_000);

  it("re-runs as new with the same scenarios, contexts and judges, and cancels it", async () => {
    const again = await rerunSageRun(t.prisma, null, fullRunId, null);
    expect(again.episodes).toBe(2 * N);
    const r = await t.prisma.run.findUniqueOrThrow({ where: { id: again.id }, select: { rerunOfId: true, seed: true, sage: true } });
    expect(r.rerunOfId).toBe(fullRunId);
    expect(r.seed).toBe(5);
    expect((r.sage as { judgeModels: string[] }).judgeModels).toEqual(["offline-heuristic", OFFLINE_JUDGE_B_MODEL]);
    const c = await cancelRun(t.prisma, null, again.id, null);
    expect(c.episodesCancelled).toBe(2 * N);
    expect(await runStatus(again.id)).toBe("CANCELLED");
  });
});
