// Evaluation-run benchmark (not a test): what claiming a unit in one statement (fastClaimUnit)
// buys over the general interactive claim transaction. The 144 shared trajectories are scored
// twice by the offline model through a real worker (engineRunner, the production runner): once
// with jobs that do not say they are units (so every unit takes claimEpisode's transaction),
// once as queued by createEvaluationRun (one-statement claim). Printed: units, wall times and
// their ratio (fast ÷ transaction; below 1 is better). Both runs share the process, database and
// load, so the ratio says more than either time.
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
import { EPISODE_QUEUE, JOB_EXPIRE_SECONDS, bossQueue, episodeSingletonKey, orderedJobId, startBoss } from "@/lib/jobs/boss";
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

    async function timed(label: string, send: (runId: string) => Promise<void>) {
      const t0 = performance.now();
      const run = await createEvaluationRun(t.prisma, null, input, null);
      await send(run.id);
      for (;;) {
        const r = await t.prisma.run.findUniqueOrThrow({ where: { id: run.id }, select: { status: true } });
        if (r.status === "DONE") break;
        await new Promise((res) => setTimeout(res, 50));
      }
      const s = (performance.now() - t0) / 1000;
      console.log(`${label.padEnd(34)} ${run.units} units in ${s.toFixed(1)} s (${(run.units / s).toFixed(1)} units/s)`);
      return s;
    }
    const units = (runId: string) => t.prisma.runEpisode.findMany({ where: { runId }, orderBy: { position: "asc" }, select: { id: true, runId: true, caseId: true, agentEndpointId: true, variant: true, mode: true, repeat: true, position: true } });
    // Jobs without the unit flag: the worker takes the general claim (an interactive transaction).
    const slow = await timed("claim transaction (claimEpisode)", async (runId) => {
      const rows = await units(runId);
      await boss.insert(rows.map((e) => ({ name: EPISODE_QUEUE, data: { runId, runEpisodeId: e.id }, singletonKey: episodeSingletonKey(e), expireInSeconds: JOB_EXPIRE_SECONDS, id: orderedJobId(e.position) })));
    });
    const fast = await timed("one statement (fastClaimUnit)", async (runId) => bossQueue(boss).send(await units(runId)));
    console.log(`database ${PG ? "PostgreSQL" : "embedded (PGlite)"}, worker concurrency ${CONCURRENCY}: ratio fast ÷ transaction = ${(fast / slow).toFixed(2)}`);
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
