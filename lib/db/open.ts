// How a process (start script, worker, CLI) finds its database:
//   DATABASE_URL set            → that PostgreSQL;
//   an embedded server running  → the URL it published in the data folder;
//   otherwise                   → start the embedded database in this process.
import { connectClient } from "./connect";
import { dataDir, runningEmbedded, startEmbedded, type EmbeddedDatabase } from "./embedded";

export interface OpenedDatabase {
  url: string;
  mode: "external" | "embedded-shared" | "embedded-own";
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
}

export async function openDatabase(opts: { port?: number } = {}): Promise<OpenedDatabase> {
  const external = process.env.DATABASE_URL;
  if (external) {
    // Fail early with one clear line if it is unreachable.
    const client = await connectClient(external);
    await client.end();
    return { url: external, mode: "external", embedded: null, close: async () => {} };
  }
  const running = runningEmbedded();
  if (running) {
    return { url: running.url, mode: "embedded-shared", embedded: null, close: async () => {} };
  }
  const embedded = await startEmbedded({ dir: dataDir(), port: opts.port });
  return { url: embedded.url, mode: "embedded-own", embedded, close: () => embedded.stop() };
}
