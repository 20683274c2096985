// Reliability of runs with real worker processes (`scripts/worker.ts`, as `npm run worker` starts
// it) and the real engine against the offline model over HTTP:
//   (a) SIGKILL the worker at 5 random moments of a 48-episode run, restarting it each time: the
//       run completes, every (case, agent, variant, mode, repeat) has exactly one finished
//       trajectory, and no trajectory or step is left over from an interrupted attempt;
//   (b) the offline model's fault mode at 20% combined faults (429 with Retry-After, 500, hangs
//       past the timeout, malformed bodies): the run completes, every episode is DONE or FAILED
//       with a stored reason, and the retries show in the run page's error list;
//   (c) two workers on one run: no episode is played twice (one attempt each, and the model
//       served exactly the calls recorded for the finished trajectories), both did work, and the
//       endpoint's concurrency limit held across the two processes.
// Bounded in time: small latencies, short leases, each test has its own deadline.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PgBoss from "pg-boss";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { startOfflineModel, type OfflineModelServer } from "@/lib/offline/server";
import { bossQueue, startBoss, type EpisodeQueue } from "@/lib/jobs/boss";
import { createRun } from "./create";
import { loadRunProgress } from "./queries";

let t: TestDatabase;
let boss: PgBoss;
let queue: EpisodeQueue;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  t = await createTestDatabase({ seed: "cases" });
  expect(t.imported?.written?.cases).toBe(144);
  boss = await startBoss(t.url);
  queue = bossQueue(boss);
});
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await boss?.stop({ graceful: false, wait: true, timeout: 1000 });
  await t?.cleanup();
});

interface Worker {
  child: ChildProcess;
  workerId: string;
  exited: Promise<number | null>;
}

/** `npm run worker` as a child process; resolves once it reports ready. */
function spawnWorker(env: Record<string, string> = {}): Promise<Worker> {
  const child = fork(path.resolve("scripts/worker.ts"), [], {
    execArgv: ["--import", "tsx", "--conditions=react-server"],
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      WORKER_CONCURRENCY: "8",
      RUN_LEASE_SECONDS: "20",
      RUN_REAP_INTERVAL_SECONDS: "1",
      RUN_RETRY_DELAY_SECONDS: "1",
      RUN_RECONCILE_INTERVAL_SECONDS: "2",
      RUN_ORPHAN_GRACE_SECONDS: "5",
      WORKER_DRAIN_SECONDS: "2",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  children.add(child);
  let log = "";
  const echo = !!process.env.WORKER_LOG;
  child.stdout!.on("data", (d) => ((log += d), echo && process.stderr.write(`[w${child.pid}] ${d}`)));
  child.stderr!.on("data", (d) => ((log += d), echo && process.stderr.write(`[w${child.pid}] ${d}`)));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => (children.delete(child), r(code))));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start within 60 s:\n${log}`)), 60_000);
    child.on("message", (m: { type?: string; workerId?: string }) => {
      if (m?.type === "ready") {
        clearTimeout(timer);
        resolve({ child, workerId: m.workerId!, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}) before it was ready:\n${log}`));
    });
  });
}

async function endpoint(name: string, url: string, opts: { maxConcurrency: number; timeoutMs?: number }) {
  return (await t.prisma.modelEndpoint.create({
    data: { name, baseUrl: url, model: "offline-heuristic", offline: true, cacheEnabled: false, maxConcurrency: opts.maxConcurrency, timeoutMs: opts.timeoutMs ?? 10_000, priceInputPer1k: 0.001, priceOutputPer1k: 0.002 },
  })).id;
}

async function newRun(name: string, endpointId: string, cases: number, seed: number) {
  return createRun(t.prisma, null, {
    name, cases: { kind: "sample", size: cases, seed }, agents: [{ endpointId, variant: "NAIVE" }],
    emulatorEndpointId: endpointId, evaluatorEndpointId: endpointId, modes: ["STANDARD", "ADVERSARIAL"],
  }, queue);
}

const ended = async (runId: string) => t.prisma.runEpisode.count({ where: { runId, status: { in: ["DONE", "FAILED", "CANCELLED"] } } });

/** What a stuck run looks like: episodes by status and their pg-boss jobs by state. */
async function dump(): Promise<string> {
  const eps = await t.sql.query(`SELECT "runId", status, count(*)::int AS n FROM "RunEpisode" GROUP BY 1, 2 ORDER BY 1, 2`);
  const jobs = await t.sql.query(`SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'episode' GROUP BY 1`);
  return `episodes ${JSON.stringify(eps.rows)}; jobs ${JSON.stringify(jobs.rows)}`;
}

async function waitFor(cond: () => Promise<boolean>, ms: number, what: string) {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}: ${await dump()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Exactly one finished trajectory per episode key; nothing left from interrupted attempts. */
async function checkExactlyOnce(runId: string) {
  const eps = await t.prisma.runEpisode.findMany({ where: { runId }, include: { trajectory: { select: { status: true, runId: true } } } });
  const keys = new Set(eps.map((e) => `${e.caseId}:${e.agentEndpointId}:${e.variant}:${e.mode}:${e.repeat}`));
  expect(keys.size).toBe(eps.length);
  for (const e of eps) {
    expect(e.status).toBe("DONE");
    expect(e.trajectory?.runId).toBe(runId);
    expect(["FINISHED", "INCOMPLETE"]).toContain(e.trajectory?.status);
  }
  const { rows } = await t.sql.query(
    `SELECT
       (SELECT count(*)::int FROM "Trajectory" WHERE "runId" = $1) AS trajectories,
       (SELECT count(*)::int FROM "Trajectory" tr WHERE tr."runId" = $1 AND NOT EXISTS (SELECT 1 FROM "RunEpisode" e WHERE e."trajectoryId" = tr.id)) AS unlinked,
       (SELECT count(*)::int FROM "Step" s JOIN "Trajectory" tr ON tr.id = s."trajectoryId" WHERE tr."runId" = $1 AND NOT EXISTS (SELECT 1 FROM "RunEpisode" e WHERE e."trajectoryId" = tr.id AND e.status = 'DONE')) AS "orphanSteps",
       (SELECT count(*)::int FROM "Trajectory" tr WHERE tr."runId" = $1 AND tr.status IN ('RUNNING', 'INTERRUPTED')) AS unfinished,
       (SELECT count(*)::int FROM "Evaluation" v JOIN "Trajectory" tr ON tr.id = v."trajectoryId" WHERE tr."runId" = $1) AS evaluations`,
    [runId],
  );
  expect(rows[0]).toEqual({ trajectories: eps.length, unlinked: 0, orphanSteps: 0, unfinished: 0, evaluations: eps.length * 2 });
}

describe("runs survive crashes, faults and competition", () => {
  let llm: OfflineModelServer;
  beforeAll(async () => {
    llm = await startOfflineModel({ latencyMs: 40, faults: {} });
  });
  afterAll(async () => {
    await llm?.close();
  });

  it("(a) SIGKILL at 5 random moments: the run completes with exactly one finished trajectory per episode", { timeout: 300_000 }, async () => {
    const ep = await endpoint("kill-test", llm.url, { maxConcurrency: 6 });
    const run = await newRun("sigkill", ep, 24, 11);
    expect(run.episodes).toBe(48);
    const moments = Array.from({ length: 5 }, () => 0.05 + Math.random() * 0.75).sort((a, b) => a - b);
    let w = await spawnWorker();
    const kills: string[] = [];
    for (const m of moments) {
      const target = Math.floor(m * run.episodes);
      await waitFor(async () => (await ended(run.id)) >= target, 120_000, `${target} episodes ended`);
      await new Promise((r) => setTimeout(r, Math.random() * 250));
      const running = await t.prisma.runEpisode.count({ where: { runId: run.id, status: "RUNNING" } });
      kills.push(`${await ended(run.id)} ended / ${running} running`);
      w.child.kill("SIGKILL");
      await w.exited;
      w = await spawnWorker();
    }
    await waitFor(async () => (await t.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).status === "DONE", 180_000, "the run to finish");
    console.log(`(a) killed at: ${kills.join("; ")}`);
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    await checkExactlyOnce(run.id);
    // The kills interrupted episodes: their attempts were discarded and recorded as lost.
    const lost = await t.prisma.runError.count({ where: { runId: run.id, kind: "worker_lost" } });
    const retried = await t.prisma.runEpisode.count({ where: { runId: run.id, attempts: { gt: 1 } } });
    console.log(`(a) ${lost} interrupted attempts discarded, ${retried} episodes replayed from the start`);
    expect(lost).toBeGreaterThan(0);
    expect(await t.prisma.endpointSlot.count({ where: { holder: { not: null } } })).toBe(0);
  });

  it("(c) two workers on one run: no episode is played twice; the endpoint limit holds across both", { timeout: 240_000 }, async () => {
    const ep = await endpoint("two-workers", llm.url, { maxConcurrency: 5 });
    const [a, b] = await Promise.all([spawnWorker(), spawnWorker()]);
    llm.resetStats();
    const run = await newRun("two workers", ep, 20, 12);
    expect(run.episodes).toBe(40);
    await waitFor(async () => (await t.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).status === "DONE", 180_000, "the run to finish");
    a.child.kill("SIGTERM");
    b.child.kill("SIGTERM");
    await Promise.all([a.exited, b.exited]);
    await checkExactlyOnce(run.id);
    const eps = await t.prisma.runEpisode.findMany({ where: { runId: run.id }, select: { attempts: true, workerId: true } });
    expect(eps.every((e) => e.attempts === 1)).toBe(true);
    const byWorker = new Map<string, number>();
    for (const e of eps) byWorker.set(e.workerId!, (byWorker.get(e.workerId!) ?? 0) + 1);
    console.log(`(c) episodes per worker: ${[...byWorker.values()].join(" + ")}; model max in flight ${llm.stats.maxInFlight} (limit 5)`);
    expect([...byWorker.keys()].sort()).toEqual([a.workerId, b.workerId].sort());
    expect(await t.prisma.runError.count({ where: { runId: run.id } })).toBe(0);
    // Every request the model answered belongs to a stored call of a finished trajectory: no
    // episode (or call) was played by both workers.
    const calls = await t.prisma.llmCall.count({ where: { trajectory: { runId: run.id } } });
    expect(llm.stats.completions).toBe(calls);
    expect(llm.stats.maxInFlight).toBeLessThanOrEqual(5);
  });

  it("(b) 20% combined faults: every episode ends DONE or FAILED with its reason; retries are in the error list", { timeout: 300_000 }, async () => {
    const faulty = await startOfflineModel({ latencyMs: 20, seed: 5, faults: "429=0.05,500=0.05,hang=0.05,malformed=0.05,retryAfter=1,hangMs=3000" });
    try {
      const ep = await endpoint("faulty", faulty.url, { maxConcurrency: 8, timeoutMs: 800 });
      const w = await spawnWorker({ WORKER_CONCURRENCY: "10" });
      const run = await newRun("faults", ep, 20, 13);
      await waitFor(async () => (await t.prisma.run.findUniqueOrThrow({ where: { id: run.id } })).status === "DONE", 240_000, "the run to finish");
      w.child.kill("SIGTERM");
      await w.exited;
      const eps = await t.prisma.runEpisode.findMany({ where: { runId: run.id } });
      for (const e of eps) {
        expect(["DONE", "FAILED"]).toContain(e.status);
        if (e.status === "FAILED") {
          expect(e.lastError).toBeTruthy();
          expect(e.errorKind).toBeTruthy();
        }
      }
      const p = (await loadRunProgress(t.prisma, run.id))!;
      const reasons = new Map(p.callRetries.map((r) => [r.reason, r.n]));
      console.log(`(b) ${eps.filter((e) => e.status === "DONE").length} done, ${eps.filter((e) => e.status === "FAILED").length} failed; faults served: ${JSON.stringify(faulty.stats.faults)}; call retries by cause: ${JSON.stringify(Object.fromEntries(reasons))}; episode errors: ${JSON.stringify(p.errors.map((e) => [e.kind, e.retried, e.final]))}`);
      expect(faulty.stats.faults["429"] + faulty.stats.faults["500"] + faulty.stats.faults.hang + faulty.stats.faults.malformed + faulty.stats.faults["invalid-json"]).toBeGreaterThan(10);
      expect(reasons.get("429")).toBeGreaterThan(0);
      expect(reasons.get("500")).toBeGreaterThan(0);
      expect(reasons.get("timeout")).toBeGreaterThan(0);
      expect(reasons.get("malformed")).toBeGreaterThan(0);
      expect(p.counts.done + p.counts.failed).toBe(run.episodes);
      expect(p.counts.done).toBeGreaterThan(run.episodes * 0.8);
    } finally {
      await faulty.close();
    }
  });
});
