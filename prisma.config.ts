// Prisma CLI configuration. Offline machines cannot download Prisma's schema-engine binary,
// which every CLI command looks for first, although `prisma generate` never runs it. When no
// engine is installed we point the CLI at a harmless executable so `generate` works; online
// users keep the real engine. Migrations are applied by lib/db/migrate.ts, not the CLI.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";

function hasDownloadedEngine(): boolean {
  const dir = path.join(process.cwd(), "node_modules", "@prisma", "engines");
  try {
    return readdirSync(dir).some((f) => f.startsWith("schema-engine"));
  } catch {
    return false;
  }
}

if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && !hasDownloadedEngine()) {
  const stand_in = ["/bin/true", "/usr/bin/true"].find((p) => existsSync(p));
  if (stand_in) process.env.PRISMA_SCHEMA_ENGINE_BINARY = stand_in;
}

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    // generate needs no database; migrate (online only) uses DATABASE_URL.
    url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/placeholder",
  },
});
