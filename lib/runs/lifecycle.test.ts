// Runs on pg-boss with a fake episode player: creation and estimate, the job lifecycle (claim,
// retry with the partial trajectory discarded, final failure with its reason), pause / resume /
// cancel, retry failed, a lost worker's episode handed back, and the cross-process endpoint
// limiter. The engine itself is exercised by the reliability tests (reliability.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createEndpoints, type TestEndpoints } from "@/lib/testing/runs";
import { bossQueue, startBoss, type EpisodeQueue } from "@/lib/jobs/boss";
import { createDbLimiter } from "@/lib/llm/endpoint-limiter";
import type { Prisma } from "@/lib/db/generated/client";
import { createRun, expandEpisodes, previewRun, promptVersions } from "./create";
import { cancelRun, pauseRun, resumeRun, retryFailed } from "./control";
import { startRunWorker, type EpisodeRunner, type RunWorker } from "./worker";
import type { EpisodeSpec } from "./episode-job";
import { sampleCases } from "./cases";

let t: TestDatabase;
let ep: TestEndpoints;
let boss: PgBoss;
let queue: EpisodeQueue;
const workers: RunWorker[] = [];

beforeAll(async () => {
  t = await createTestDatabase({ seed: "cases" });
  expect(t.imported?.written?.cases).toBe(144);
  ep = await createEndpoints(t.prisma, "http://127.0.0.1:9/v1");
  boss = await startBoss(t.url);
  queue = bossQueue(boss);
});
afterAll(async () => {
  for (const w of workers) await w.stop({ drainMs: 1000 });
  await boss?.stop({ graceful: false, wait: true, timeout: 1000 });
  await t?.cleanup();
});

async function createTrajectory(tx: Prisma.TransactionClient, s: EpisodeSpec): Promise<string> {
  const t = await tx.trajectory.create({
    data: {
      caseId: s.caseId, agentModel: "fake", emulatorModel: "fake", emulatorMode: s.mode, status: "RUNNING", stepCount: 0,
      contentHash: `emulated:${s.runEpisodeId}:${Math.random()}`, raw: {}, origin: "EMULATED", agentVariant: s.variant, runId: s.runId,
    },
    select: { id: true },
  });
  return t.id;
}

/** Plays `steps` fake steps of `ms` each; `fail(ep, attempt)` decides failures. */
function fakeRunner(opts: { ms?: number; steps?: number; fail?: (runEpisodeId: string, attempt: number) => "retryable" | "fatal" | null; plays?: Map<string, number> }): EpisodeRunner {
  return {
    async play(db, e, { signal }) {
      opts.plays?.set(e.runEpisodeId, (opts.plays.get(e.runEpisodeId) ?? 0) + 1);
      for (let i = 0; i < (opts.steps ?? 2); i++) {
        await new Promise((r) => setTimeout(r, opts.ms ?? 5));
        if (signal.aborted) return { ok: false, retryable: true, error: { kind: "cancelled", message: "aborted" } };
        await db.step.create({ data: { trajectoryId: e.trajectoryId, index: i } });
      }
      const f = opts.fail?.(e.runEpisodeId, e.attempt);
      // What the failed attempt spent: the claim that discards its trajectory keeps this on its error row.
      if (f) await db.llmCall.create({ data: { role: "agent", model: "fake", trajectoryId: e.trajectoryId, inputTokens: 100, outputTokens: 10, costUsd: 0.5 } });
      if (f) return { ok: false, retryable: f === "retryable", error: { kind: f === "retryable" ? "server_error" : "auth", message: `fake ${f} failure` } };
      await db.trajectory.update({ where: { id: e.trajectoryId }, data: { status: "FINISHED", stepCount: opts.steps ?? 2 } });
      return { ok: true };
    },
  };
}

async function waitFor(cond: () => Promise<boolean>, ms = 30_000, what = "condition") {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const runStatus = async (id: string) => (await t.prisma.run.findUniqueOrThrow({ where: { id } })).status;

async function startWorker(runner: EpisodeRunner, concurrency = 4) {
  const w = await startRunWorker({ url: t.url, runner, concurrency, pollMs: 200, leaseMs: 4000, reapIntervalMs: 500, log: () => {} });
  workers.push(w);
  return w;
}

async function stopWorkers() {
  for (const w of workers.splice(0)) await w.stop({ drainMs: 2000 });
}

/** Every finished episode has exactly one trajectory, linked both ways; no other trajectory or step belongs to the run. */
async function checkOneTrajectoryPerEpisode(runId: string) {
  const eps = await t.prisma.runEpisode.findMany({ where: { runId } });
  const trajs = await t.prisma.trajectory.findMany({ where: { runId }, select: { id: true, status: true } });
  const done = eps.filter((e) => e.status === "DONE");
  for (const e of done) expect(e.trajectoryId).toBeTruthy();
  const linked = new Set(eps.map((e) => e.trajectoryId).filter(Boolean));
  expect(trajs.filter((x) => !linked.has(x.id))).toEqual([]);
  const orphanSteps = await t.sql.query(
    `SELECT count(*)::int AS n FROM "Step" s JOIN "Trajectory" tr ON tr.id = s."trajectoryId" WHERE tr."runId" = $1 AND NOT EXISTS (SELECT 1 FROM "RunEpisode" e WHERE e."trajectoryId" = tr.id)`,
    [runId],
  );
  expect(orphanSteps.rows[0].n).toBe(0);
}

describe("creating a run", () => {
  it("resolves the selection, expands episodes in interleaved order and estimates calls, tokens and cost", async () => {
    const input = {
      name: "preview", cases: { kind: "sample" as const, size: 10, seed: 42 },
      agents: [{ endpointId: ep.agent, variant: "NAIVE" as const }, { endpointId: ep.agent2, variant: "SAFETY" as const }],
      emulatorEndpointId: ep.emulator, modes: ["STANDARD" as const, "ADVERSARIAL" as const], evaluatorEndpointId: ep.evaluator, repeats: 2,
    };
    const p = await previewRun(t.prisma, input);
    expect(p.caseIds).toHaveLength(10);
    expect(p.episodes).toBe(10 * 2 * 2 * 2);
    expect(p.estimate.calls.evaluator).toBe(p.episodes * 2);
    expect(p.estimate.calls.agent).toBeGreaterThan(p.episodes);
    expect(p.estimate.costUsd).toBeGreaterThan(0);
    // Same seed, same sample; the sample does not depend on the order cases are read in.
    expect((await previewRun(t.prisma, input)).caseIds).toEqual(p.caseIds);
    const cases = await t.prisma.testCase.findMany({ select: { id: true, name: true } });
    expect(sampleCases([...cases].reverse(), 10, 42).map((c) => c.id).sort()).toEqual(sampleCases(cases, 10, 42).map((c) => c.id).sort());
    // Forced emulator self-critique: 2 more emulator calls per tool step (NAIVE and SAFETY both take steps), more tokens and cost.
    const critiqued = await previewRun(t.prisma, { ...input, emulatorCritiqueRounds: 2 });
    // (stepsPerEpisode is shown to one decimal, so the expected difference is exact to ±0.05 steps an episode.)
    expect(Math.abs(critiqued.estimate.calls.emulator - p.estimate.calls.emulator - p.episodes * p.estimate.stepsPerEpisode * 2)).toBeLessThanOrEqual(p.episodes * 0.05 * 2 + 1);
    expect(critiqued.estimate.inputTokens).toBeGreaterThan(p.estimate.inputTokens);
    expect(critiqued.estimate.costUsd).toBeGreaterThan(p.estimate.costUsd);
    expect(critiqued.estimate.assumptions.at(-1)).toMatch(/self-critique: 2 extra emulator calls per tool step/);
    await expect(previewRun(t.prisma, { ...input, emulatorCritiqueRounds: 4 })).rejects.toThrow(/At most 3/);
    // Loop rules: only strict re-asks unusable emulator outputs (10% more emulator calls); the
    // ToolEmu-compatible default passes them on, so it plans one emulator call per tool step.
    const strict = await previewRun(t.prisma, { ...input, loopMode: "STRICT" as const });
    expect(p.estimate.assumptions.join(" ")).toMatch(/ToolEmu-compatible loop rules/);
    expect(strict.estimate.assumptions.join(" ")).toMatch(/Strict loop rules: 10% more/);
    expect(Math.abs(p.estimate.calls.emulator - p.episodes * p.estimate.stepsPerEpisode)).toBeLessThanOrEqual(p.episodes * 0.05 + 1);
    expect(Math.abs(strict.estimate.calls.emulator - 1.1 * p.estimate.calls.emulator)).toBeLessThanOrEqual(1);
    // A run records the newest template versions it plays with; self-critique's only when on.
    expect(promptVersions()).toEqual(expect.arrayContaining(["emulator.standard@2", "emulator.adversarial@2", "emulator.critique@1"]));
    expect(promptVersions().join(" ")).not.toMatch(/emulator\.standard@1|self_critique/);
    expect(promptVersions(2)).toContain("emulator.self_critique@1");
    // Templates of other parts (SAGE, the critic unless gated) are not an episode run's.
    expect(promptVersions().some((r) => /^(sage|attacker|judge|critic)/.test(r))).toBe(false);
    expect(promptVersions(0, true).some((r) => r.startsWith("critic."))).toBe(true);
    const eps = expandEpisodes({ agents: input.agents, modes: input.modes, repeats: 2 }, ["a", "b"]);
    expect(eps.slice(0, 4).map((e) => `${e.caseId}${e.mode[0]}${e.variant[0]}`)).toEqual(["aSN", "aSS", "aAN", "aAS"]);
    expect(new Set(eps.map((e) => `${e.caseId}:${e.agentEndpointId}:${e.variant}:${e.mode}:${e.repeat}`)).size).toBe(eps.length);
  });

  it("by toolkit and by filter", async () => {
    const tk = await t.prisma.toolkit.findFirstOrThrow({ where: { cases: { some: {} } }, select: { name: true, _count: { select: { cases: true } } } });
    const p = await previewRun(t.prisma, { name: "x", cases: { kind: "toolkits", toolkits: [tk.name] }, agents: [{ endpointId: ep.agent, variant: "NAIVE" }], emulatorEndpointId: ep.emulator, modes: ["STANDARD"] });
    expect(p.episodes).toBe(tk._count.cases);
    const f = await previewRun(t.prisma, { name: "x", cases: { kind: "filter", toolkit: tk.name }, agents: [{ endpointId: ep.agent, variant: "NAIVE" }], emulatorEndpointId: ep.emulator, modes: ["STANDARD"] });
    expect(f.caseIds.sort()).toEqual(p.caseIds.sort());
  });
});

describe("running on pg-boss", () => {
  it("plays every episode once; a retryable failure is retried from scratch, a fatal one fails with its reason", async () => {
    process.env.RUN_RETRY_DELAY_SECONDS = "0";
    const plays = new Map<string, number>();
    let retryable = "";
    let fatal = "";
    const runner = fakeRunner({
      plays,
      fail: (id, attempt) => {
        if (!retryable) retryable = id;
        else if (!fatal && id !== retryable) fatal = id;
        if (id === retryable && attempt === 1) return "retryable";
        if (id === fatal) return "fatal";
        return null;
      },
    });
    const { id, episodes } = await createRun(t.prisma, null, {
      name: "fake", cases: { kind: "sample", size: 6, seed: 1 }, agents: [{ endpointId: ep.agent, variant: "NAIVE" }, { endpointId: ep.agent2, variant: "NAIVE" }],
      emulatorEndpointId: ep.emulator, modes: ["STANDARD", "ADVERSARIAL"], evaluatorEndpointId: ep.evaluator,
    }, queue);
    expect(episodes).toBe(24);
    await startWorker(runner);
    await waitFor(async () => (await runStatus(id)) === "DONE", 60_000, "run DONE");
    await stopWorkers();
    const eps = await t.prisma.runEpisode.findMany({ where: { runId: id } });
    expect(eps.filter((e) => e.status === "DONE")).toHaveLength(23);
    const failed = eps.find((e) => e.status === "FAILED")!;
    expect(failed.id).toBe(fatal);
    expect(failed.errorKind).toBe("auth");
    expect(failed.lastError).toContain("fake fatal");
    expect(plays.get(fatal)).toBe(1); // not retried: not retryable
    expect(plays.get(retryable)).toBe(2);
    expect(eps.find((e) => e.id === retryable)!.attempts).toBe(2);
    for (const e of eps) if (e.id !== retryable) expect(plays.get(e.id)).toBe(1);
    const errors = await t.prisma.runError.findMany({ where: { runId: id }, orderBy: { id: "asc" } });
    expect(errors.map((e) => [e.runEpisodeId, e.kind, e.final])).toEqual(expect.arrayContaining([[retryable, "server_error", false], [fatal, "auth", true]]));
    // The retried attempt's cost moved to its error row when the next attempt discarded its trajectory.
    expect(errors.find((e) => e.runEpisodeId === retryable)).toMatchObject({ inputTokens: 100, outputTokens: 10, costUsd: 0.5 });
    // The retried attempt's partial trajectory is gone; the failed one keeps its partial trajectory.
    await checkOneTrajectoryPerEpisode(id);
    expect(await t.prisma.trajectory.count({ where: { runId: id } })).toBe(24);

    // Retry failed: the failed episode plays again from scratch (its partial trajectory is replaced).
    const before = failed.trajectoryId;
    expect((await retryFailed(t.prisma, null, id, queue)).requeued).toBe(1);
    const ok = fakeRunner({ plays });
    await startWorker(ok);
    await waitFor(async () => (await runStatus(id)) === "DONE", 30_000, "run DONE after retry");
    await stopWorkers();
    const again = await t.prisma.runEpisode.findUniqueOrThrow({ where: { id: fatal } });
    expect(again.status).toBe("DONE");
    expect(again.trajectoryId).not.toBe(before);
    expect(await t.prisma.trajectory.count({ where: { id: before! } })).toBe(0);
    expect(await t.prisma.runError.findFirstOrThrow({ where: { runEpisodeId: fatal, final: true } })).toMatchObject({ inputTokens: 100, outputTokens: 10, costUsd: 0.5 });
    await checkOneTrajectoryPerEpisode(id);
  });

  it("pause stops new episodes, resume finishes them, cancel stops the rest", async () => {
    const { id } = await createRun(t.prisma, null, {
      name: "pause", cases: { kind: "sample", size: 12, seed: 2 }, agents: [{ endpointId: ep.agent, variant: "NAIVE" }],
      emulatorEndpointId: ep.emulator, modes: ["STANDARD", "ADVERSARIAL"],
    }, queue);
    await pauseRun(t.prisma, null, id, queue);
    await startWorker(fakeRunner({ ms: 20 }));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await t.prisma.runEpisode.count({ where: { runId: id, attempts: { gt: 0 } } })).toBe(0);
    await resumeRun(t.prisma, null, id, queue);
    await waitFor(async () => (await t.prisma.runEpisode.count({ where: { runId: id, status: "DONE" } })) >= 4, 20_000, "some done");
    await cancelRun(t.prisma, null, id, queue);
    await waitFor(async () => (await t.prisma.runEpisode.count({ where: { runId: id, status: { in: ["QUEUED", "RUNNING"] } } })) === 0, 20_000, "none running");
    await stopWorkers();
    const eps = await t.prisma.runEpisode.findMany({ where: { runId: id } });
    expect(eps.filter((e) => e.status === "CANCELLED").length).toBeGreaterThan(0);
    expect(eps.every((e) => e.status === "DONE" || e.status === "CANCELLED")).toBe(true);
    expect(await runStatus(id)).toBe("CANCELLED");
  });

  it("an episode held by a worker that died is handed back and replayed from the start", async () => {
    const { id } = await createRun(t.prisma, null, {
      name: "lost", cases: { kind: "sample", size: 3, seed: 3 }, agents: [{ endpointId: ep.agent, variant: "NAIVE" }],
      emulatorEndpointId: ep.emulator, modes: ["STANDARD"],
    }, queue);
    // Simulate a dead worker of this host: pid 2^22-1 does not exist.
    const [victim] = await t.prisma.runEpisode.findMany({ where: { runId: id }, orderBy: { position: "asc" }, take: 1 });
    const tr = await t.prisma.$transaction((tx) => createTrajectory(tx, { runEpisodeId: victim!.id, runId: id, caseId: victim!.caseId, agentEndpointId: ep.agent, variant: "NAIVE", mode: "STANDARD", repeat: 0, emulatorEndpointId: ep.emulator, evaluatorEndpointId: null, seed: 1, promptVersions: [], unit: null }));
    await t.prisma.step.create({ data: { trajectoryId: tr, index: 0 } });
    const host = (await import("node:os")).hostname();
    await t.prisma.runEpisode.update({ where: { id: victim!.id }, data: { status: "RUNNING", attempts: 1, workerId: `${host}:4194303:dead00`, trajectoryId: tr, leaseUntil: new Date(Date.now() + 3_600_000) } });
    await t.prisma.run.update({ where: { id }, data: { status: "RUNNING" } });
    const plays = new Map<string, number>();
    await startWorker(fakeRunner({ plays })); // its start-up reaper hands the victim back
    await waitFor(async () => (await runStatus(id)) === "DONE", 30_000, "run DONE");
    await stopWorkers();
    const v = await t.prisma.runEpisode.findUniqueOrThrow({ where: { id: victim!.id } });
    expect(v.status).toBe("DONE");
    expect(v.attempts).toBe(2);
    expect(plays.get(victim!.id)).toBe(1);
    expect(await t.prisma.trajectory.count({ where: { id: tr } })).toBe(0);
    const err = await t.prisma.runError.findFirstOrThrow({ where: { runEpisodeId: victim!.id } });
    expect(err.kind).toBe("worker_lost");
    await checkOneTrajectoryPerEpisode(id);
  });
});

describe("the cross-process endpoint limiter", () => {
  it("two limiters (two processes) never exceed the limit together, and a dead holder's slots are reclaimed", async () => {
    const a = createDbLimiter(t.prisma, { minPollMs: 5, maxPollMs: 20 });
    const b = createDbLimiter(t.prisma, { minPollMs: 5, maxPollMs: 20 });
    let active = 0;
    let peak = 0;
    const task = async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 15));
      active--;
    };
    await Promise.all([...Array.from({ length: 30 }, () => a.run("k1", 3, task)), ...Array.from({ length: 30 }, () => b.run("k1", 3, task))]);
    expect(peak).toBe(3);
    await waitFor(async () => a.held() + b.held() === 0, 2000, "slots freed");
    const host = (await import("node:os")).hostname();
    await t.prisma.endpointSlot.updateMany({ where: { key: "k1" }, data: { holder: `${host}:4194303:dead00`, leaseUntil: new Date(Date.now() + 3_600_000) } });
    expect(await a.reclaimDead()).toBe(3);
    await a.run("k1", 3, task);
    await a.stop();
    await b.stop();
  });
});
