// One setup for the tests that play work on a real run worker against the offline model over HTTP
// (sage-run, critic-run, evaluation-run, generation, the generation lease): a fresh test database
// (optionally seeded), the offline model server, a pg-boss instance for sending jobs, and a run
// worker (engineRunner, the production runner; its generation dispatcher included) — started
// together, stopped in the reverse order by one call. Endpoints on the offline server and a
// polling wait come with it.
import type PgBoss from "pg-boss";
import type { Prisma } from "@/lib/db/generated/client";
import { bossQueue, startBoss, type EpisodeQueue } from "@/lib/jobs/boss";
import { startOfflineModel, type OfflineModelOptions, type OfflineModelServer } from "@/lib/offline/server";
import { engineRunner } from "@/lib/runs/engine-runner";
import { startRunWorker, type RunWorker, type RunWorkerOptions } from "@/lib/runs/worker";
import { createTestDatabase, type TestDatabase } from "./db";
import type { Seed } from "./templates";

export interface WorkerOfflineOptions {
  /** The test database's seed (createTestDatabase); none by default. */
  seed?: Seed;
  /** The offline model's options; by default no injected faults (whatever OFFLINE_LLM_FAULTS says). */
  offline?: OfflineModelOptions;
  /** The worker's options (runner: engineRunner, log: silent, pollMs: 100 unless given). */
  worker?: Partial<Omit<RunWorkerOptions, "url">>;
}

export interface WorkerOffline {
  t: TestDatabase;
  llm: OfflineModelServer;
  /** A pg-boss of the test (not the worker's), for sending jobs. */
  boss: PgBoss;
  /** Episode jobs sent through `boss`. */
  queue: EpisodeQueue;
  worker: RunWorker;
  /** A model endpoint on the offline server (model "offline-heuristic", offline, no cache unless given); its id. */
  endpoint(name: string, data?: Partial<Prisma.ModelEndpointCreateInput>): Promise<string>;
  /** Stops the worker, the test's pg-boss, the model server and drops the database. */
  stop(): Promise<void>;
}

/** Polls `cond` until it holds; throws naming `what` after `ms`. */
export async function waitUntil(cond: () => Promise<boolean>, what: string, ms = 120_000, everyMs = 150): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function startWorkerOffline(o: WorkerOfflineOptions = {}): Promise<WorkerOffline> {
  const [t, llm] = await Promise.all([createTestDatabase(o.seed ? { seed: o.seed } : {}), startOfflineModel({ faults: "", ...o.offline })]);
  let boss: PgBoss | undefined;
  let worker: RunWorker | undefined;
  const stop = async () => {
    await worker?.stop({ drainMs: 1000 });
    await boss?.stop({ graceful: false, wait: true, timeout: 1000 });
    await llm.close();
    await t.cleanup();
  };
  try {
    boss = await startBoss(t.url);
    worker = await startRunWorker({ runner: engineRunner(), pollMs: 100, log: () => {}, ...o.worker, url: t.url });
  } catch (e) {
    await stop().catch(() => {});
    throw e;
  }
  const endpoint = async (name: string, data: Partial<Prisma.ModelEndpointCreateInput> = {}) =>
    (await t.prisma.modelEndpoint.create({ data: { name, baseUrl: llm.url, model: "offline-heuristic", offline: true, cacheEnabled: false, ...data }, select: { id: true } })).id;
  return { t, llm, boss, queue: bossQueue(boss), worker, endpoint, stop };
}
