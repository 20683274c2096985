// `npm run worker`: the background worker process. Jobs (runs of episodes on pg-boss) arrive
// with the runs issue; for now it connects, applies nothing, reports it is alive and waits, so
// deployments (docker compose) can already run it.
import { connectClient } from "@/lib/db/connect";
import { openDatabase } from "@/lib/db/open";
import { fail, info } from "./lib/output";

async function main() {
  const opened = await openDatabase();
  const client = await connectClient(opened.url);
  await client.query("SELECT 1");
  await client.end();
  info("Worker started; no job types are defined yet, waiting. Ctrl-C to stop.");
  const stop = async () => {
    await opened.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  setInterval(() => {}, 1 << 30);
}

main().catch((e) => {
  fail(e);
  process.exit(1);
});
