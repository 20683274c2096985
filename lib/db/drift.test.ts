// Guards against prisma/schema.prisma and prisma/migrations drifting apart. The Prisma CLI's own
// drift check needs the native schema engine (not available offline), so we build two databases
// and compare their catalogs instead: one by replaying the migrations as production does, one
// straight from the datamodel via the WASM engine's from-empty diff.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { diffCatalogs, readCatalog, type Catalog } from "@/lib/testing/catalog";
import { createEmptyDatabase } from "@/lib/testing/db";
import { diffSchemas, NO_CHANGES } from "@/scripts/lib/schema-diff";

// Resolved from this file, not the cwd, so the test checks this repo wherever vitest starts.
const PRISMA_DIR = fileURLToPath(new URL("../../prisma/", import.meta.url));
const MIGRATIONS_DIR = `${PRISMA_DIR}migrations`;
const SCHEMA_FILE = `${PRISMA_DIR}schema.prisma`;
// Same folder pattern as scripts/db-diff.ts, so "latest" means what the authoring tool means.
const MIGRATION_FOLDER = /^\d{14}_[a-z0-9_]+$/;
const FIX = "Create the missing migration with: npm run db:diff -- --name <change>";
// What Prisma's schema language cannot say, written by hand into a migration: exactly these lines
// may appear only on the migrations' side (a schema.prisma comment names each one).
const HAND_WRITTEN = [
  // A trajectory belongs to a ToolEmu case or a SAGE scenario, never both or neither (SAGE migration).
  `constraint Trajectory.Trajectory_case_xor_scenario: only in migrations: c: CHECK ((("caseId" IS NULL) <> ("scenarioId" IS NULL)))`,
  // A run episode plays a ToolEmu case or a SAGE scenario, never both or neither (sage_runs migration).
  `constraint RunEpisode.RunEpisode_case_xor_scenario: only in migrations: c: CHECK ((("caseId" IS NULL) <> ("scenarioId" IS NULL)))`,
  // A campaign item is a trajectory or a SAGE scenario, never both or neither (campaign_scenarios_form_versions migration).
  `constraint CampaignItem.CampaignItem_trajectory_xor_scenario: only in migrations: c: CHECK ((("trajectoryId" IS NULL) <> ("scenarioId" IS NULL)))`,
  // Full-text search over trajectories: GIN indexes on the exact expressions the search query uses
  // (trajectory_search migration; lib/toolemu/queries/trajectory-search.ts).
  `index TestCase_search_idx: only in migrations: CREATE INDEX "TestCase_search_idx" ON public."TestCase" USING gin (to_tsvector('english'::regconfig, "userInstruction"))`,
  `index Trajectory_search_idx: only in migrations: CREATE INDEX "Trajectory_search_idx" ON public."Trajectory" USING gin (to_tsvector('english'::regconfig, COALESCE("finalAnswer", ''::text)))`,
  `index Step_search_idx: only in migrations: CREATE INDEX "Step_search_idx" ON public."Step" USING gin (to_tsvector('english'::regconfig, ((((((COALESCE(thought, ''::text) || ' '::text) || COALESCE(action, ''::text)) || ' '::text) || COALESCE("actionInputRaw", ''::text)) || ' '::text) || COALESCE("observationRaw", ''::text))))`,
  // The "data" version counter's deferred triggers are constraint triggers (dashboard_data_version
  // migration; lib/dashboards/data-version.ts).
  ...["Trajectory", "Evaluation", "Step", "TestCase", "Toolkit", "TestCaseToolkit", "Campaign", "CampaignItem", "Run", "RunEpisode", "CriticAssessment", "CriticCheckpoint"].map(
    (t) => `constraint ${t}.${t}_dashboard_data: only in migrations: t: TRIGGER DEFERRABLE INITIALLY DEFERRED`,
  ),
];

async function catalogOf(build: (client: pg.Client) => Promise<unknown>): Promise<Catalog> {
  const db = await createEmptyDatabase();
  const client = new pg.Client({ connectionString: db.url });
  try {
    await client.connect();
    await build(client);
    return await readCatalog(client);
  } finally {
    await client.end().catch(() => {});
    await db.drop();
  }
}

describe("prisma/schema.prisma and prisma/migrations", () => {
  const schema = readFileSync(SCHEMA_FILE, "utf8");

  it("build the same database", async () => {
    const [fromMigrations, fromSchema] = await Promise.all([
      catalogOf((c) => migrate(c, { dir: MIGRATIONS_DIR })),
      catalogOf(async (c) => c.query(await diffSchemas(null, schema))),
    ]);
    // An empty catalog on either side means the build silently did nothing: not a real pass.
    expect(fromSchema.size, "the schema produced no tables").toBeGreaterThan(0);

    const all = diffCatalogs(fromMigrations, fromSchema, "migrations", "schema.prisma");
    // Each hand-written constraint must really be there (a stale entry fails too).
    for (const line of HAND_WRITTEN) expect(all, "a hand-written constraint listed in HAND_WRITTEN is missing from the migrations").toContain(line);
    const drift = all.filter((line) => !HAND_WRITTEN.includes(line));
    const message = [
      "prisma/schema.prisma and prisma/migrations have drifted apart. Differences between a",
      "database built by applying the migrations and one built from schema.prisma:",
      ...drift.map((line) => `  - ${line}`),
      `${FIX} (or correct the migration that was edited by hand)`,
    ].join("\n");
    // expect.fail rather than toEqual([]): the message already lists every difference.
    if (drift.length > 0) expect.fail(message);
  });

  it("match the latest migration's schema.prisma snapshot", async () => {
    const folders = existsSync(MIGRATIONS_DIR)
      ? readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
          .filter((d) => d.isDirectory() && MIGRATION_FOLDER.test(d.name))
          .map((d) => d.name)
          .sort()
      : [];
    const latest = folders.at(-1);
    expect(latest, `prisma/migrations holds no migration yet. ${FIX}`).toBeDefined();
    const snapshotFile = `${MIGRATIONS_DIR}/${latest}/schema.prisma`;
    // db:diff diffs from this snapshot; without it the next migration would be authored blind.
    expect(existsSync(snapshotFile), `prisma/migrations/${latest} has no schema.prisma snapshot`).toBe(true);

    const sql = await diffSchemas(readFileSync(snapshotFile, "utf8"), schema);
    const message =
      `prisma/schema.prisma has changed since the latest migration (${latest}); ` +
      `the change still needs this SQL:\n${sql}\n${FIX}`;
    if (sql !== NO_CHANGES) expect.fail(message);
  });
});
