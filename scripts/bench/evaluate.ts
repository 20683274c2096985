// Evaluation-run benchmark (not a test): how close a real worker (engineRunner, the production
// runner) comes to the ideal time when it scores the 144 shared trajectories, both kinds. Every
// chat completion is answered by the offline model after a fixed latency L, at most C at once
// (the endpoint's limit). One unit is one call, so the ideal is units × L ÷ C; printed: units,
// wall time, the ideal and their ratio (the overhead of claiming, parsing and storing).
//
//   npm run bench:evaluate -- [--pg <postgresql url>] [--latency 200] [--concurrency 16]
//                             [--replicates 1] [--worker-concurrency 16]
//
// Without --pg an in-memory embedded database (PGlite); with --pg a throwaway database there.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createTestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { runImport } from "@/lib/toolemu/import";
import { startOfflineModel } from "@/lib/offline/server";
import { respond } from "@/lib/offline/brain";
import type { ChatMessage } from "@/lib/llm/types";
import { bossQueue, startBoss } from "@/lib/jobs/boss";
import { engineRunner } from "@/lib/runs/engine-runner";
import { startRunWorker } from "@/lib/runs/worker";
import { createEvaluationRun } from "@/lib/runs/evaluation/create";
import { parseArgs, stringFlag } from "../lib/args";
import { semaphore } from "../lib/semaphore";

const args = parseArgs(process.argv.slice(2));
const PG = stringFlag(args, "pg");
if (PG) process.env.TEST_DATABASE_URL = PG;
const REPLICATES = Number(stringFlag(args, "replicates") ?? 1);
const L = Number(stringFlag(args, "latency") ?? 200);
const C = Number(stringFlag(args, "concurrency") ?? 16);
const CONCURRENCY = Number(stringFlag(args, "worker-concurrency") ?? C);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const t = await createTestDatabase();
  const limit = semaphore(C);
  const llm = await startOfflineModel({
    faults: {},
    brain: (messages: ChatMessage[]) =>
      limit(async () => {
        await sleep(L);
        return respond(messages);
      }),
  });
  const boss = await startBoss(t.url);
  try {
    await runImport(t.prisma, [path.join(sharedDataDir(), "toolemu"), path.join(sharedDataDir(), "trajectories")]);
    const ep = await t.prisma.modelEndpoint.create({ data: { name: "bench judge", baseUrl: llm.url, model: "offline-heuristic", offline: true, cacheEnabled: false, maxConcurrency: C, timeoutMs: 120_000 }, select: { id: true } });
    const worker = await startRunWorker({ url: t.url, runner: engineRunner(), concurrency: CONCURRENCY, pollMs: 50, log: () => {} });
    const input = { trajectories: { kind: "filter" as const, query: "" }, endpointId: ep.id, kinds: ["SAFETY" as const, "HELPFULNESS" as const], replicates: REPLICATES };

    const t0 = performance.now();
    const run = await createEvaluationRun(t.prisma, null, input, bossQueue(boss));
    for (;;) {
      const r = await t.prisma.run.findUniqueOrThrow({ where: { id: run.id }, select: { status: true } });
      if (r.status === "DONE") break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const s = (performance.now() - t0) / 1000;
    const calls = await t.prisma.llmCall.count({ where: { runId: run.id } });
    const ideal = (calls * L) / C / 1000;
    console.log(`database ${PG ? "PostgreSQL" : "embedded (PGlite)"}, L = ${L} ms, C = ${C}, worker concurrency ${CONCURRENCY}`);
    console.log(`  units             ${run.units} (${calls} LLM calls)`);
    console.log(`  wall time         ${s.toFixed(1)} s (${(run.units / s).toFixed(1)} units/s)`);
    console.log(`  ideal time        ${ideal.toFixed(1)} s (= ${calls} calls × ${L} ms ÷ ${C})`);
    console.log(`  ratio             ${(s / ideal).toFixed(2)} × ideal`);
    await worker.stop({ drainMs: 1000 });
  } finally {
    await boss.stop({ graceful: false, wait: true, timeout: 1000 });
    await llm.close();
    await t.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
