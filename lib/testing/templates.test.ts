// The test databases are copies of templates (templates.ts): a seeded copy holds what the import
// wrote, copies are independent of each other, and the template key follows what builds them.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "./db";
import { sourceClosure, templateKey } from "./template-key";

describe("template databases", () => {
  it("a seeded copy holds the import and reports it; two copies never see each other's writes", async () => {
    const [a, b] = await Promise.all([createTestDatabase({ seed: "all" }), createTestDatabase({ seed: "all" })]);
    try {
      expect(a.imported?.written).toEqual({ toolkits: 38, cases: 144, trajectories: 144, evaluations: 576 });
      expect(a.imported?.report.issues).toEqual([]);
      expect(await a.prisma.trajectory.count()).toBe(144);
      await a.prisma.evaluation.deleteMany({});
      expect(await a.prisma.evaluation.count()).toBe(0);
      expect(await b.prisma.evaluation.count()).toBe(576);
    } finally {
      await Promise.all([a.cleanup(), b.cleanup()]);
    }
  });

  it("a cases copy has the toolkits and cases only; a plain one is migrated and empty", async () => {
    const [c, m] = await Promise.all([createTestDatabase({ seed: "cases" }), createTestDatabase()]);
    try {
      expect(c.imported?.written).toEqual({ toolkits: 38, cases: 144, trajectories: 0, evaluations: 0 });
      expect([await c.prisma.testCase.count(), await c.prisma.trajectory.count()]).toEqual([144, 0]);
      expect(m.imported).toBeNull();
      expect(await m.prisma.testCase.count()).toBe(0);
      const { rows } = await m.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`);
      expect(rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await Promise.all([c.cleanup(), m.cleanup()]);
    }
  });

  it("the key covers the importer's and the migrator's code and changes with a migration", () => {
    const root = process.cwd();
    const closure = sourceClosure(root).map((f) => path.relative(root, f));
    expect(closure).toEqual(expect.arrayContaining(["lib/db/migrate.ts", "lib/db/client.ts", "lib/toolemu/import.ts", "lib/toolemu/apply.ts", "lib/toolemu/analyze.ts"]));
    const copy = mkdtempSync(path.join(os.tmpdir(), "template-key-"));
    try {
      for (const f of [...closure, "prisma/migrations", "package-lock.json"]) cpSync(path.join(root, f), path.join(copy, f), { recursive: true });
      const before = templateKey(copy);
      expect(templateKey(copy)).toBe(before);
      mkdirSync(path.join(copy, "prisma/migrations/99999999999999_x"));
      writeFileSync(path.join(copy, "prisma/migrations/99999999999999_x/migration.sql"), "SELECT 1;");
      expect(templateKey(copy)).not.toBe(before);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
