// The one Prisma client of a process. Server-only: a client component importing it fails the
// build (and the lint rule in eslint.config.js names the offending import).
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";

export type Db = PrismaClient;

// The URL each client was made with: bulk writers (lib/toolemu/apply.ts) open a `pg` connection to
// the same database for COPY-speed inserts that Prisma cannot do.
// On globalThis: Next's server bundles can hold two copies of this module (the import ran through
// a server action and found no URL for the app's client: a module-level map was a different one).
const gUrls = globalThis as unknown as { __toolemuPrismaUrls?: WeakMap<PrismaClient, string> };
const urls = (gUrls.__toolemuPrismaUrls ??= new WeakMap<PrismaClient, string>());

/** The connection string `createPrisma` made this client with, or null for a client made elsewhere. */
export function connectionStringOf(client: PrismaClient): string | null {
  return urls.get(client) ?? null;
}

export function createPrisma(connectionString: string): PrismaClient {
  const client = new PrismaClient({
    adapter: new PrismaPg({ connectionString, max: poolSize() }),
    // Prisma's defaults (wait 2 s for a connection, 5 s per transaction) are too short when many
    // people write at once, above all on the embedded database, which runs transactions one at a time.
    transactionOptions: { maxWait: 20_000, timeout: 30_000 },
  });
  urls.set(client, connectionString);
  return client;
}

function poolSize(): number {
  const n = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

// Kept on globalThis so Next's dev-mode module reloads reuse one pool.
const g = globalThis as unknown as { __toolemuPrisma?: PrismaClient };

export function db(): PrismaClient {
  if (!g.__toolemuPrisma) {
    const url = process.env.DATABASE_URL;
    if (!url) {
      throw new Error("DATABASE_URL is not set. Start the app with `npm start`, which sets it in embedded mode.");
    }
    g.__toolemuPrisma = createPrisma(url);
  }
  return g.__toolemuPrisma;
}
