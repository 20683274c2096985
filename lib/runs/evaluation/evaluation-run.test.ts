// Evaluation runs end to end: the 144 shared ToolEmu trajectories scored again by the offline
// model through a real pg-boss worker (engineRunner, the production runner), r = 2, both kinds;
// the replicates show up in the evaluators dashboard's own query as two evaluators with n = 144
// and a test–retest κ. Also: the estimate, append vs replace, pause/resume, and the episode-run
// queries unaffected by calls that an evaluation run makes on their trajectories.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "@/lib/testing/db";
import type { EpisodeQueue } from "@/lib/jobs/boss";
import { startWorkerOffline, waitUntil, type WorkerOffline } from "@/lib/testing/worker-offline";
import { startOfflineModel, type OfflineModelServer } from "@/lib/offline/server";
import { compareEvaluators, loadEvaluatorsPanel } from "@/lib/dashboards/evaluators";
import { parseDashboardFilter } from "@/lib/dashboards/filters";
import { cancelRun, pauseRun, resumeRun } from "../control";
import { claimEpisode } from "../claim";
import { loadRunProgress, listRunEpisodes } from "../queries";
import type { RunWorker } from "../worker";
import { createEvaluationRun, previewEvaluationRun } from "./create";
import { estimateEvaluation } from "./estimate";
import { evaluatorBaseName, replicateName, replicateOf } from "./naming";

let t: TestDatabase;
let llm: OfflineModelServer;
let slow: OfflineModelServer;
let w: WorkerOffline;
let queue: EpisodeQueue;
let worker: RunWorker;
let evaluator: string;
let slowEvaluator: string;
const BASE = evaluatorBaseName("offline-heuristic", 1);
const R1 = replicateName(BASE, 1);
const R2 = replicateName(BASE, 2);

beforeAll(async () => {
  [w, slow] = await Promise.all([startWorkerOffline({ seed: "all", worker: { concurrency: 4, leaseMs: 8000, reapIntervalMs: 1000 } }), startOfflineModel({ faults: "", latencyMs: 150 })]);
  ({ t, llm, queue, worker } = w);
  expect(t.imported?.written).toBeTruthy();
  const mk = (name: string, url: string, maxConcurrency: number) => w.endpoint(name, { baseUrl: url, temperature: 0, maxConcurrency, priceInputPer1k: 0.5, priceOutputPer1k: 1.5, cacheEnabled: true });
  evaluator = await mk("judge", llm.url, 8);
  slowEvaluator = await mk("slow judge", slow.url, 1);
}, 240_000);

afterAll(async () => {
  await w?.stop();
  await slow?.close();
});

const waitFor = (cond: () => Promise<boolean>, what: string, ms = 240_000) => waitUntil(cond, what, ms, 200);
const runStatus = async (id: string) => (await t.prisma.run.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;
const unitCounts = async (runId: string) => {
  const rows = await t.prisma.runEpisode.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } });
  return Object.fromEntries(rows.map((r) => [r.status, r._count._all])) as Record<string, number>;
};

describe("naming and the estimate", () => {
  it("names an evaluator by model, template version and replicate, and reads the replicate back", () => {
    expect(R2).toBe("offline-heuristic · evaluator@1 · r2");
    expect(replicateOf(R2, BASE)).toBe(2);
    expect(replicateOf("offline-heuristic · evaluator@1 · r0", BASE)).toBeNull();
    expect(replicateOf("offline-heuristic", BASE)).toBeNull();
  });

  it("estimates one call per trajectory × kind × replicate; tokens from the prompt sizes; cost from the prices", () => {
    const e = estimateEvaluation({ promptChars: [400, 800], kinds: 2, replicates: 3, endpoint: { id: "x", name: "x", priceInputPer1k: 1, priceOutputPer1k: 2 }, meanSteps: 2 });
    // (1200 + 100) + (1200 + 200) = 2700 input tokens per kind × replicate; 6 of them.
    expect(e.calls).toEqual({ agent: 0, emulator: 0, evaluator: 12, total: 12 });
    expect(e.inputTokens).toBe(16_200);
    expect(e.outputTokens).toBe(12 * 350);
    expect(e.costUsd).toBeCloseTo(16.2 * 1 + 4.2 * 2, 9);
    // With ≥ 20 observed evaluator calls, their means replace the size model.
    const o = estimateEvaluation({ promptChars: [400, 800], kinds: 1, replicates: 1, endpoint: { id: "x", name: "x", priceInputPer1k: 0, priceOutputPer1k: 0, observed: { evaluator: { input: 1000, output: 100 } } }, meanSteps: 2 });
    expect([o.inputTokens, o.outputTokens, o.unpriced]).toEqual([2000, 200, ["x"]]);
  });

  it("previews the 144 shared trajectories: 576 units for r = 2 and both kinds, replicates 1 and 2", async () => {
    const p = await previewEvaluationRun(t.prisma, { trajectories: { kind: "filter", query: "" }, endpointId: evaluator, kinds: ["SAFETY", "HELPFULNESS"], replicates: 2 });
    expect(p).toMatchObject({ trajectories: 144, running: 0, units: 576, replicateNumbers: [1, 2], existing: 0, toDelete: 0, evaluatorBase: BASE });
    expect(p.estimate.calls.evaluator).toBe(576);
    expect(p.estimate.costUsd).toBeCloseTo((p.estimate.inputTokens / 1000) * 0.5 + (p.estimate.outputTokens / 1000) * 1.5, 3);
    // A filter narrows it: one agent's standard-mode trajectories are all 144 here; a missing agent none.
    const none = await previewEvaluationRun(t.prisma, { trajectories: { kind: "filter", query: "agent=nobody" }, endpointId: evaluator, kinds: ["SAFETY"] });
    expect(none.trajectories).toBe(0);
    await expect(createEvaluationRun(t.prisma, null, { trajectories: { kind: "filter", query: "agent=nobody" }, endpointId: evaluator, kinds: ["SAFETY"] }, queue)).rejects.toThrow(/no trajectories/);
    await expect(previewEvaluationRun(t.prisma, { trajectories: { kind: "filter", query: "" }, endpointId: evaluator, kinds: ["SAFETY"], templateVersion: 9 })).rejects.toThrow(/no version 9/);
    // Bad input names the field.
    await expect(previewEvaluationRun(t.prisma, { trajectories: { kind: "filter", query: "" }, endpointId: evaluator, kinds: ["SAFETY"], replicates: 0 })).rejects.toThrow(/At least one replicate/);
    await expect(previewEvaluationRun(t.prisma, { trajectories: { kind: "filter", query: "" }, endpointId: evaluator, kinds: [] })).rejects.toThrow(/Pick safety, helpfulness or both/);
    await expect(previewEvaluationRun(t.prisma, { trajectories: { kind: "ids", ids: ["nope"] }, endpointId: evaluator, kinds: ["SAFETY"] })).rejects.toThrow(/1 of the chosen trajectories no longer exist/);
  });
});

describe("an evaluation run on the worker", () => {
  it("scores the 144 trajectories twice (both kinds); the evaluators dashboard compares r1 with r2: n = 144, κ = 1", async () => {
    const requestsBefore = llm.stats.requests;
    const run = await createEvaluationRun(t.prisma, null, { name: "retest", trajectories: { kind: "filter", query: "" }, endpointId: evaluator, kinds: ["SAFETY", "HELPFULNESS"], replicates: 2, temperature: 0.7 }, queue);
    expect(run.units).toBe(576);
    await waitFor(async () => (await runStatus(run.id)) === "DONE", "the evaluation run to finish");
    expect(await unitCounts(run.id)).toEqual({ DONE: 576 });
    // Replicates are separate requests even with the cache on (the sample index is in the key).
    expect(llm.stats.requests - requestsBefore).toBe(576);

    for (const kind of ["SAFETY", "HELPFULNESS"] as const) {
      const cmp = await compareEvaluators(t.prisma, parseDashboardFilter({}), kind, R1, R2);
      expect(cmp.summary.n).toBe(144);
      // The offline model is deterministic: it ignores the temperature, so the two samples of each
      // prompt are the same answer and test–retest agreement is perfect. A sampling LLM at T = 0.7
      // would give κ < 1 here.
      expect(cmp.summary.rawAgreement.value).toBe(1);
      expect(cmp.summary.kappa.linear.value).toBe(1);
    }
    // The panel lists the replicates as evaluators and compares one with an imported judge.
    const panel = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({ evaluator: R1, evaluatorB: "Qwen/Qwen3-32B", kind: "SAFETY" }));
    expect(panel.comparison!.summary.n).toBe(144);

    const progress = (await loadRunProgress(t.prisma, run.id))!;
    expect(progress.kind).toBe("EVALUATION");
    expect(progress.usage.calls).toBe(576);
    expect(progress.usage.costUsd).toBeGreaterThan(0);
    expect(progress.evaluationResults.map((r) => [r.kind, r.replicate, r.done, r.scored + r.unparsed])).toEqual([
      ["HELPFULNESS", 1, 144, 144], ["SAFETY", 1, 144, 144], ["HELPFULNESS", 2, 144, 144], ["SAFETY", 2, 144, 144],
    ]);
    const page = await listRunEpisodes(t.prisma, run.id, "done", 1);
    expect(page.rows[0]).toMatchObject({ agent: null, status: "DONE" });
    expect(page.rows[0]!.trajectoryId).toBeTruthy();
    // The calls carry the run; the scored trajectories' own (imported) data is unchanged.
    expect(await t.prisma.llmCall.count({ where: { runId: run.id } })).toBe(576);
    expect(await t.prisma.trajectory.count()).toBe(144);
  }, 300_000);

  it("append adds replicates after the existing ones; replace rewrites 1..r and deletes those above", async () => {
    const three = (await t.prisma.trajectory.findMany({ orderBy: { id: "asc" }, take: 3, select: { id: true } })).map((x) => x.id);
    const base = { trajectories: { kind: "ids" as const, ids: three }, endpointId: evaluator, kinds: ["SAFETY" as const] };
    const appended = await createEvaluationRun(t.prisma, null, { ...base, write: "append" }, queue);
    expect(appended.replicateNumbers).toEqual([3]);
    await waitFor(async () => (await runStatus(appended.id)) === "DONE", "the append run");
    const names = async (id: string) => (await t.prisma.evaluation.findMany({ where: { trajectoryId: id, kind: "SAFETY", evaluatorModel: { startsWith: BASE } }, select: { evaluatorModel: true } })).map((e) => e.evaluatorModel).sort();
    expect(await names(three[0]!)).toEqual([R1, R2, replicateName(BASE, 3)]);
    // "Evaluate these" from an evaluation run's page: the trajectories it scored.
    expect((await previewEvaluationRun(t.prisma, { ...base, trajectories: { kind: "run", runId: appended.id } })).trajectories).toBe(3);

    const before = await t.prisma.evaluation.findUniqueOrThrow({ where: { trajectoryId_kind_evaluatorModel: { trajectoryId: three[0]!, kind: "SAFETY", evaluatorModel: R1 } } });
    const preview = await previewEvaluationRun(t.prisma, { ...base, write: "replace" });
    expect(preview).toMatchObject({ replicateNumbers: [1], existing: 9, toDelete: 6 });
    const replaced = await createEvaluationRun(t.prisma, null, { ...base, write: "replace" }, queue);
    // r2 and r3 of these three went with the run's creation; other trajectories and kinds keep theirs.
    expect(await names(three[0]!)).toEqual([R1]);
    expect(await t.prisma.evaluation.count({ where: { evaluatorModel: R2, kind: "SAFETY" } })).toBe(141);
    expect(await t.prisma.evaluation.count({ where: { evaluatorModel: R2, kind: "HELPFULNESS" } })).toBe(144);
    await waitFor(async () => (await runStatus(replaced.id)) === "DONE", "the replace run");
    const after = await t.prisma.evaluation.findUniqueOrThrow({ where: { trajectoryId_kind_evaluatorModel: { trajectoryId: three[0]!, kind: "SAFETY", evaluatorModel: R1 } } });
    expect(after.id).toBe(before.id);
    expect(after.score).toBe(before.score);
    // Rewritten by this run: the same request (sample 1, T = endpoint's 0 now, not 0.7) is a new cache key.
    expect(await t.prisma.llmCall.count({ where: { runId: replaced.id } })).toBe(3);
    expect(after.raw).not.toBeNull();
  }, 120_000);

  it("claims a queued unit in one statement with what to score; not twice, not in a paused run", async () => {
    const [one] = await t.prisma.trajectory.findMany({ take: 1, select: { id: true } });
    const run = await createEvaluationRun(t.prisma, null, { trajectories: { kind: "ids", ids: [one!.id] }, endpointId: evaluator, kinds: ["SAFETY", "HELPFULNESS"], replicates: 1 }, null);
    const [a, b] = await t.prisma.runEpisode.findMany({ where: { runId: run.id }, orderBy: { position: "asc" } });
    const claim = await claimEpisode(t.prisma, a!.id, { workerId: "test-worker", jobId: "job-1", leaseMs: 1000 });
    expect(claim).toMatchObject({ kind: "claimed", runStarted: true, episode: { trajectoryId: one!.id, agentEndpointId: null, evaluatorEndpointId: evaluator, unit: { sourceTrajectoryId: one!.id, kind: "SAFETY", replicate: run.replicateNumbers[0] } } });
    expect(claim?.kind === "claimed" && claim.episode.unit?.settings.evaluatorBase).toBe(BASE);
    expect(claim?.episode.caseSpec).toBeUndefined();
    expect(await t.prisma.runEpisode.findUniqueOrThrow({ where: { id: a!.id } })).toMatchObject({ status: "RUNNING", workerId: "test-worker", attempts: 1 });
    expect(await claimEpisode(t.prisma, a!.id, { workerId: "other", jobId: "job-2", leaseMs: 1000 })).toBeNull();
    await pauseRun(t.prisma, null, run.id, null);
    expect(await claimEpisode(t.prisma, b!.id, { workerId: "test-worker", jobId: "job-3", leaseMs: 1000 })).toBeNull();
    await cancelRun(t.prisma, null, run.id, null);
  });

  it("pauses (no new unit starts; the reconciler does not queue it again) and resumes to the end", async () => {
    const ids = (await t.prisma.trajectory.findMany({ orderBy: { id: "desc" }, take: 12, select: { id: true } })).map((x) => x.id);
    const run = await createEvaluationRun(t.prisma, null, { name: "pausable", trajectories: { kind: "ids", ids }, endpointId: slowEvaluator, kinds: ["HELPFULNESS"], replicates: 1, templateVersion: 1 }, queue);
    await waitFor(async () => ((await unitCounts(run.id)).DONE ?? 0) >= 1, "the first unit");
    await pauseRun(t.prisma, null, run.id, queue);
    await waitFor(async () => ((await unitCounts(run.id)).RUNNING ?? 0) === 0, "running units to finish");
    const paused = await unitCounts(run.id);
    expect(paused.QUEUED).toBeGreaterThan(0);
    await worker.tick();
    expect(await unitCounts(run.id)).toEqual(paused);
    expect(await runStatus(run.id)).toBe("PAUSED");

    const r = await resumeRun(t.prisma, null, run.id, queue);
    expect(r.queued).toBe(paused.QUEUED);
    await waitFor(async () => (await runStatus(run.id)) === "DONE", "the resumed run");
    expect(await unitCounts(run.id)).toEqual({ DONE: 12 });
    // Same model, so the same evaluator as the fast endpoint's: appended after its r1 and r2.
    expect(run.replicateNumbers).toEqual([3]);
    expect(await t.prisma.evaluation.count({ where: { trajectoryId: { in: ids }, kind: "HELPFULNESS", evaluatorModel: replicateName(BASE, 3) } })).toBe(12);
  }, 120_000);
});
