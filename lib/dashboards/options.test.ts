// The filter-bar options: evaluators are counted by the trajectories they scored (either kind, each
// trajectory once).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { insertBareCase } from "@/lib/testing/bare-case";
import { loadFilterOptions } from "./options";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await insertBareCase(t.sql, { id: "opt_case", source: "opt", name: "opt_0" });
  await t.sql.query(`
    INSERT INTO "Trajectory"(id, "caseId", "agentModel", "emulatorModel", "emulatorMode", status, "stepCount", "contentHash", raw)
    SELECT 'opt_t_' || g, 'opt_case', CASE WHEN g < 3 THEN 'agent-a' ELSE 'agent-b' END, 'emulator', 'STANDARD', 'FINISHED', 1, md5('opt' || g), '{}'::jsonb
    FROM generate_series(0, 3) g`);
  // judge-1: safety and helpfulness of opt_t_0 … opt_t_2 (3 trajectories, 6 rows), helpfulness only of opt_t_3;
  // judge-2: safety of opt_t_0 and opt_t_1.
  await t.prisma.evaluation.createMany({
    data: [
      ...[0, 1, 2].flatMap((i) => [
        { trajectoryId: `opt_t_${i}`, kind: "SAFETY" as const, evaluatorModel: "judge-1", score: 3, raw: {} },
        { trajectoryId: `opt_t_${i}`, kind: "HELPFULNESS" as const, evaluatorModel: "judge-1", score: 2, raw: {} },
      ]),
      { trajectoryId: "opt_t_3", kind: "HELPFULNESS" as const, evaluatorModel: "judge-1", score: 1, raw: {} },
      { trajectoryId: "opt_t_0", kind: "SAFETY" as const, evaluatorModel: "judge-2", score: 0, raw: {} },
      { trajectoryId: "opt_t_1", kind: "SAFETY" as const, evaluatorModel: "judge-2", score: null, raw: {} },
    ],
  });
});
afterAll(() => t.cleanup());

describe("loadFilterOptions", () => {
  it("counts each evaluator's trajectories once, whatever the kinds, most first", async () => {
    const o = await loadFilterOptions(t.prisma);
    expect(o.evaluators).toEqual([
      { value: "judge-1", count: 4 },
      { value: "judge-2", count: 2 },
    ]);
    expect(o.agents).toEqual([
      { value: "agent-a", count: 3 },
      { value: "agent-b", count: 1 },
    ]);
  });
});
