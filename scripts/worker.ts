// `npm run worker`: a background worker playing the episodes of runs (pg-boss queue `episode`).
// Several workers — on one machine or many, pointing at the same PostgreSQL — share the work;
// per-endpoint concurrency limits hold across all of them. In embedded mode `npm start` starts
// one beside the web server.
//
//   WORKER_CONCURRENCY    episodes played at once by this process (default 8)
//   WORKER_DRAIN_SECONDS  on SIGTERM/SIGINT, how long running episodes may finish (default 30);
//                         those still running then go back to the queue and restart elsewhere
//   RUN_LEASE_SECONDS     an episode's lease, renewed every quarter of it (default 60)
//   WORKER_POLL_MS        how often an idle worker looks for new jobs (default 1000)
//
// Finds its database like the CLI: DATABASE_URL, else the running embedded server, else its own.
import { openDatabase } from "@/lib/db/open";
import { engineRunner } from "@/lib/runs/engine-runner";
import { startRunWorker } from "@/lib/runs/worker";
import { fail, info } from "./lib/output";

async function main() {
  const opened = await openDatabase();
  const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 8);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`WORKER_CONCURRENCY=${process.env.WORKER_CONCURRENCY} is not a positive integer.`);
  const worker = await startRunWorker({ url: opened.url, runner: engineRunner(), concurrency, log: (l) => info(`worker: ${l}`) });
  info(`Worker ${worker.workerId} started: up to ${concurrency} episodes at once. Ctrl-C (SIGTERM) stops it gracefully.`);
  // Lets a parent (the benchmark, the reliability tests) know it is ready.
  process.send?.({ type: "ready", workerId: worker.workerId });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      info("Stopping at once.");
      process.exit(1);
    }
    stopping = true;
    info(`${signal}: no new episodes; waiting for ${worker.dispatcher.running} running one(s) to finish…`);
    try {
      await worker.stop();
      await opened.close();
    } catch (e) {
      fail(e);
    }
    const rss = process.resourceUsage().maxRSS;
    info(`Worker stopped (peak memory ${Math.round(rss / 1024)} MiB).`);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((e) => {
  fail(e);
  process.exit(1);
});
