// Evaluation-run benchmark (not a test): how fast a real worker (engineRunner, the production
// runner) scores the 144 shared trajectories with the offline model, both kinds, each unit
// claimed in one statement (lib/runs/claim.ts). Printed: units, wall time and units per second.
//
//   npm run bench:evaluate -- [--pg <postgresql url>] [--replicates 1] [--worker-concurrency 4]
//
// Without --pg an in-memory embedded database (PGlite); with --pg a throwaway database there.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createTestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { runImport } from "@/lib/toolemu/import";
import { startOfflineModel } from "@/lib/offline/server";
import { bossQueue, startBoss } from "@/lib/jobs/boss";
import { engineRunner } from "@/lib/runs/engine-runner";
import { startRunWorker } from "@/lib/runs/worker";
import { createEvaluationRun } from "@/lib/runs/evaluation/create";
import { parseArgs, stringFlag } from "../lib/args";

const args = parseArgs(process.argv.slice(2));
const PG = stringFlag(args, "pg");
if (PG) process.env.TEST_DATABASE_URL = PG;
const REPLICATES = Number(stringFlag(args, "replicates") ?? 1);
const CONCURRENCY = Number(stringFlag(args, "worker-concurrency") ?? 4);

async function main() {
  const t = await createTestDatabase();
  const llm = await startOfflineModel({ faults: "" });
  const boss = await startBoss(t.url);
  try {
    await runImport(t.prisma, [path.join(sharedDataDir(), "toolemu"), path.join(sharedDataDir(), "trajectories")]);
    const ep = await t.prisma.modelEndpoint.create({ data: { name: "bench judge", baseUrl: llm.url, model: "offline-heuristic", offline: true, maxConcurrency: 16 }, select: { id: true } });
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
    console.log(`database ${PG ? "PostgreSQL" : "embedded (PGlite)"}, worker concurrency ${CONCURRENCY}: ${run.units} units in ${s.toFixed(1)} s (${(run.units / s).toFixed(1)} units/s)`);
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
