// `npm run db:serve`: only the embedded database, served on localhost (for psql, a separate
// `next dev`, or tests that need it in another process). Prints its URL, stops on Ctrl-C.
import { dataDir, startEmbedded } from "@/lib/db/embedded";
import { fail, info } from "./lib/output";

try {
  const port = process.env.TOOLEMU_EMBEDDED_PORT ? Number(process.env.TOOLEMU_EMBEDDED_PORT) : undefined;
  const db = await startEmbedded({ dir: dataDir(), port });
  console.log(`DATABASE_URL=${db.url}`);
  info("Embedded database ready (no migrations applied; `npm start` or `npm run db:migrate` do that). Ctrl-C to stop.");
  const stop = async () => {
    await db.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} catch (e) {
  fail(e);
  process.exit(1);
}
