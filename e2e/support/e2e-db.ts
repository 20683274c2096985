// The e2e app's own database, for specs that need data only a long flow would create (e.g. an
// episode paused by the online critic gate): the embedded server `npm start` runs for the e2e
// web server writes its URL to .data-e2e/embedded.json (lib/db/embedded.ts). Seed through the
// lib/testing fixtures, then drive the page; read back what the page stored.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/db/generated/client";

export function e2eDb(): PrismaClient {
  const file = path.join(process.env.TOOLEMU_E2E_DATA_DIR ?? ".data-e2e", "embedded.json");
  const { url } = JSON.parse(readFileSync(file, "utf8")) as { url: string };
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 2 }) });
}
