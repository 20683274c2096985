// vitest global setup: chooses the template databases' content key for this run (each test file's
// createTestDatabase() clones a template of that key: lib/testing/templates.ts) and clears away
// other keys' stale templates. A run of the whole suite builds every template here, outside any
// test's time limit; a run of chosen files leaves it to the first file that needs one.
import type { TestProject } from "vitest/node";
import { templateKey } from "./template-key";
import { prebuildEmbedded, prebuildPostgres, touchEmbeddedTemplates, touchPostgresTemplates } from "./templates";

export default async function setup(project: TestProject): Promise<void> {
  const t0 = performance.now();
  const key = templateKey();
  const server = process.env.TEST_DATABASE_URL;
  if (server) await touchPostgresTemplates(server, key);
  else touchEmbeddedTemplates(key);
  // Read by lib/testing/db.ts in the test workers, which inherit this environment.
  process.env.TOOLEMU_TEST_TEMPLATES = key;
  // The file filters given on the command line (not in vitest's typings; without them, all is built).
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (filters?.length) return;
  if (server) await prebuildPostgres(server, key);
  else await prebuildEmbedded(key);
  console.log(`test databases: ${server ? "PostgreSQL" : "embedded"} templates ${key} ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
