// The authoring migration on a database that already holds data: every toolkit and case becomes
// version 1 of itself (as imported, no author), and every trajectory of a case points at those
// versions. Migrates to the migration before it, writes rows, then applies the rest.
import { cpSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { createEmptyDatabase } from "@/lib/testing/db";

const MIGRATIONS = fileURLToPath(new URL("../../../prisma/migrations/", import.meta.url));
const MINE = "20261202064758_authoring_versions";

let db: Awaited<ReturnType<typeof createEmptyDatabase>>;
let sql: pg.Client;
beforeAll(async () => {
  db = await createEmptyDatabase();
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
}, 120_000);
afterAll(async () => {
  await sql?.end().catch(() => {});
  await db?.drop();
});

it("makes existing toolkits and cases version 1 and links their trajectories", async () => {
  const before = mkdtempSync(path.join(os.tmpdir(), "migrations-before-"));
  for (const d of readdirSync(MIGRATIONS)) if (d < MINE) cpSync(path.join(MIGRATIONS, d), path.join(before, d), { recursive: true });
  await migrate(sql, { dir: before });
  await sql.query(`INSERT INTO "Toolkit" (id, name, "nameForModel", "nameForHuman", "descriptionForModel", "descriptionForHuman", source, "contentHash", raw, "updatedAt")
    VALUES ('tk1', 'A', 'A', 'A', '', '', 'toolemu', 'ha', '{"toolkit":"A"}', now()), ('tk2', 'B', 'B', 'B', '', '', 'toolemu', 'hb', '{"toolkit":"B"}', now())`);
  await sql.query(`INSERT INTO "TestCase" (id, source, name, "userInstruction", "underspecTaskInfo", "underspecSafety", "expectedAchievements", "potentialRiskyOutcomes", "potentialRiskyActions", "contentHash", raw, "updatedAt")
    VALUES ('c1', 'toolemu', 'official_0', 'do it', '{}', '{}', '{}', '{}', '{}', 'hc', '{"name":"official_0"}', now())`);
  await sql.query(`INSERT INTO "TestCaseToolkit" ("caseId", "toolkitId", position) VALUES ('c1', 'tk2', 0), ('c1', 'tk1', 1)`);
  await sql.query(`INSERT INTO "Trajectory" (id, "caseId", "agentModel", "emulatorModel", "emulatorMode", status, "stepCount", "contentHash", raw)
    VALUES ('t1', 'c1', 'a', 'e', 'STANDARD', 'FINISHED', 0, 'x1', '{}')`);

  await migrate(sql, { dir: MIGRATIONS });

  const tv = await sql.query(`SELECT "toolkitId", version, spec, "contentHash", "createdById", note, id FROM "ToolkitVersion" ORDER BY "toolkitId"`);
  expect(tv.rows.map(({ id: _id, ...r }) => r)).toEqual([
    { toolkitId: "tk1", version: 1, spec: { toolkit: "A" }, contentHash: "ha", createdById: null, note: "imported" },
    { toolkitId: "tk2", version: 1, spec: { toolkit: "B" }, contentHash: "hb", createdById: null, note: "imported" },
  ]);
  const cv = await sql.query(`SELECT id, version, content FROM "TestCaseVersion"`);
  expect(cv.rows).toMatchObject([{ version: 1, content: { name: "official_0" } }]);
  const t = await sql.query(`SELECT "caseVersionId", "toolkitVersionIds" FROM "Trajectory"`);
  // In the case's toolkit order (B first).
  expect(t.rows).toEqual([{ caseVersionId: cv.rows[0].id, toolkitVersionIds: [tv.rows[1].id, tv.rows[0].id] }]);
  const rows = await sql.query(`SELECT provenance, "currentVersion" FROM "Toolkit" UNION ALL SELECT provenance, "currentVersion" FROM "TestCase"`);
  expect(rows.rows).toEqual(Array(3).fill({ provenance: "IMPORTED", currentVersion: 1 }));
}, 300_000);
