// Import → export (JSONL, ToolEmu's format) → import into a fresh database gives the same
// trajectories: same content hashes, same steps, same model labels.
import { sharedDataDir } from "@/lib/testing/shared-data";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { exportChunks, exportFileName } from "./export";
import { parseTrajectoryFilter } from "./filters";
import { runImport } from "./import";
import { modelPairs } from "./queries/trajectories";

const shared = sharedDataDir();
let a: TestDatabase;
let b: TestDatabase;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});
afterAll(async () => {
  await Promise.all([a?.cleanup(), b?.cleanup()]);
});

async function snapshot(t: TestDatabase) {
  const trajectories = await t.prisma.trajectory.findMany({
    orderBy: { contentHash: "asc" },
    select: {
      contentHash: true, agentModel: true, emulatorModel: true, emulatorMode: true, finalAnswer: true, finalLog: true, status: true, stepCount: true, hasErrors: true, raw: true,
      case: { select: { name: true } },
      steps: { orderBy: { index: "asc" }, select: { index: true, thought: true, action: true, actionInputRaw: true, actionInput: true, observationRaw: true, observation: true, emulatorSummary: true, emulatorThought: true } },
    },
  });
  return trajectories;
}

it("round-trips the shared trajectories through a JSONL export", async () => {
  const first = await runImport(a.prisma, [path.join(shared, "toolemu"), path.join(shared, "trajectories")]);
  expect(first.report.issues).toEqual([]);
  expect(first.written?.trajectories).toBe(144);

  const filter = parseTrajectoryFilter({});
  let jsonl = "";
  for await (const chunk of exportChunks(a.prisma, filter, "jsonl")) jsonl += chunk;
  expect(jsonl.trim().split("\n")).toHaveLength(144);
  const pairs = await modelPairs(a.prisma, filter);
  expect(pairs).toHaveLength(1);
  const dir = mkdtempSync(path.join(os.tmpdir(), "roundtrip-"));
  const file = path.join(dir, exportFileName("jsonl", new Date(), pairs[0]));
  writeFileSync(file, jsonl);

  const second = await runImport(b.prisma, [path.join(shared, "toolemu"), file]);
  expect(second.report.issues).toEqual([]);
  expect(second.written?.trajectories).toBe(144);
  expect(await snapshot(b)).toEqual(await snapshot(a));

  // And exporting from the copy and importing into the original adds nothing.
  let again = "";
  for await (const chunk of exportChunks(b.prisma, filter, "jsonl")) again += chunk;
  writeFileSync(file, again);
  const third = await runImport(a.prisma, [file]);
  expect(third.report.trajectories).toEqual({ new: 0, unchanged: 144, changed: 0 });
});
