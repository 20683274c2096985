// The bulk path of the importer (COPY on PostgreSQL, jsonb_to_recordset on PGlite, through the pg
// client of the import's own transaction) on a folder large enough for many batches: two agent
// runs × 144 cases × two judges built from the shared real runs. What lands is compared with what
// the pure row functions (normalize.ts) read from the files, field by field through a checksum;
// a failure in the very last row written rolls back everything, toolkits and cases included.
import { sharedDataDir } from "@/lib/testing/shared-data";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { storedSourceName } from "./apply";
import { canonicalJson } from "./canonical";
import { parseJsonlName } from "./file-names";
import { collectFiles } from "./read";
import { runImport } from "./import";
import { evaluationRow, trajectoryRow } from "./normalize";
import { evaluationLineSchema, trajectoryLineSchema } from "./source-schemas";

const DATA = sharedDataDir();
const REAL = path.join(DATA, "trajectories/qwen2.5-7b-instruct");
const JUDGES = { "judge-q32": "Qwen/Qwen3-32B", "judge-gpt5m": "gpt-5-mini" } as const;
const RUNS = 2;
const MARKER = "ROLLBACK-MARKER-LAST-LINE";

let t: TestDatabase;
let dir: string;
let folder: string;

const nonBlank = (file: string) => readFileSync(file, "utf8").split("\n").filter((l) => l.trim());

/** Runs × the shared runs, each run's trajectories tagged so they are distinct; both judges' folders. */
function buildFolder(): void {
  for (let r = 1; r <= RUNS; r++) {
    for (const judge of Object.keys(JUDGES)) {
      mkdirSync(path.join(folder, judge), { recursive: true });
      for (const f of readdirSync(path.join(REAL, judge)).filter((n) => n.endsWith(".jsonl"))) {
        const out = path.join(folder, judge, f.replace("Qwen_Qwen2.5-7B-Instruct", `Qwen_Qwen2.5-7B-Instruct-run${r}`));
        const lines = nonBlank(path.join(REAL, judge, f));
        const trajectories = parseJsonlName(f).role === "trajectories";
        writeFileSync(out, lines.map((l) => (trajectories ? tag(l, r) : l)).join("\n") + "\n");
      }
    }
  }
}

function tag(line: string, run: number): string {
  const v = JSON.parse(line);
  v.input += ` [run ${run}]`;
  return JSON.stringify(v);
}

const sha = (lines: string[]) => createHash("sha256").update(lines.sort().join("\n")).digest("hex");

/** What the files say should be stored: one canonical line per trajectory (with its steps) and per evaluation. */
function expected(): { trajectories: string[]; evaluations: string[] } {
  const byHash = new Map<string, string>();
  const evaluations = new Map<string, string>();
  const files = collectFiles([folder]).files;
  const hashesOf = new Map<string, string[]>(); // prefix → hash per record index
  for (const f of files) {
    const parsed = parseJsonlName(f.path);
    if (parsed.role !== "trajectories") continue;
    const hashes: string[] = [];
    nonBlank(f.path).forEach((text, i) => {
      const value = JSON.parse(text);
      const row = trajectoryRow(trajectoryLineSchema.parse(value), value);
      if ("stepIndex" in row) throw new Error("fixture has a malformed step");
      hashes.push(row.contentHash);
      const { raw, steps, ...fields } = row;
      if (!byHash.has(row.contentHash)) {
        byHash.set(row.contentHash, canonicalJson({ ...fields, raw, steps, agentModel: parsed.agentModel, emulatorModel: parsed.emulatorModel, sourceFile: storedSourceName(f.name), sourceLine: i + 1 }));
      }
    });
    hashesOf.set(parsed.prefix, hashes);
  }
  for (const f of files) {
    const parsed = parseJsonlName(f.path);
    if (parsed.role === "trajectories") continue;
    const kind = parsed.role === "safety" ? "SAFETY" : "HELPFULNESS";
    nonBlank(f.path).forEach((text, i) => {
      const value = JSON.parse(text);
      const line = evaluationLineSchema.parse(value);
      const { contentHash: _unused, ...row } = evaluationRow(kind, line, value);
      const trajectory = hashesOf.get(parsed.prefix)![line.eval_id]!;
      evaluations.set(`${trajectory}|${kind}|${parsed.evaluatorModel}`, canonicalJson({ ...row, trajectory, evaluatorModel: parsed.evaluatorModel, sourceFile: storedSourceName(f.name), sourceLine: i + 1 }));
    });
  }
  return { trajectories: [...byHash.values()], evaluations: [...evaluations.values()] };
}

/** The same canonical lines, read back from the database. */
async function stored(): Promise<{ trajectories: string[]; evaluations: string[] }> {
  const steps = new Map<string, unknown[]>();
  const { rows: stepRows } = await t.sql.query(
    `SELECT "trajectoryId", index, thought, action, "actionInputRaw", "actionInput", "observationRaw", observation, "emulatorSummary", "emulatorThought" FROM "Step" ORDER BY "trajectoryId", index`,
  );
  for (const { trajectoryId, ...s } of stepRows) steps.set(trajectoryId, [...(steps.get(trajectoryId) ?? []), s]);
  const { rows: trajectories } = await t.sql.query(
    `SELECT t.id, t."contentHash", c.name AS "caseName", t."emulatorMode", t."finalAnswer", t."finalLog", t.status, t."stepCount", t."hasErrors", t.raw,
            t."agentModel", t."emulatorModel", t."sourceFile", t."sourceLine"
     FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId"`,
  );
  const { rows: evaluations } = await t.sql.query(
    `SELECT e.kind, e.score, e.label, e.thought, e.summary, e.raw, t."contentHash" AS trajectory, e."evaluatorModel", e."sourceFile", e."sourceLine"
     FROM "Evaluation" e JOIN "Trajectory" t ON t.id = e."trajectoryId"`,
  );
  return {
    trajectories: trajectories.map(({ id, ...r }) => canonicalJson({ ...r, steps: steps.get(id) ?? [] })),
    evaluations: evaluations.map((e) => canonicalJson(e)),
  };
}

async function counts() {
  const { rows } = await t.sql.query(
    `SELECT (SELECT count(*) FROM "Toolkit")::int toolkits, (SELECT count(*) FROM "TestCase")::int cases, (SELECT count(*) FROM "Trajectory")::int trajectories,
            (SELECT count(*) FROM "Step")::int steps, (SELECT count(*) FROM "Evaluation")::int evaluations`,
  );
  return rows[0] as { toolkits: number; cases: number; trajectories: number; steps: number; evaluations: number };
}

beforeAll(async () => {
  t = await createTestDatabase();
  dir = mkdtempSync(path.join(tmpdir(), "toolemu-bulk-"));
  folder = path.join(dir, "results");
  buildFolder();
});
afterAll(async () => {
  await t?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("a failure in the last row written (last line of the last file) leaves nothing, toolkits and cases included", { timeout: 300_000 }, async () => {
  // The last file imported is the last evaluation file in order; its last line is the last row written.
  const files = collectFiles([folder]).files.filter((f) => parseJsonlName(f.path).role !== "trajectories");
  const last = files.at(-1)!;
  const lines = nonBlank(last.path);
  const v = JSON.parse(lines.at(-1)!);
  v["Evaluator Log Summary"] = `${v["Evaluator Log Summary"]} ${MARKER}`;
  lines[lines.length - 1] = JSON.stringify(v);
  writeFileSync(last.path, lines.join("\n") + "\n");
  // The database refuses exactly that row (a constraint of this test database only).
  await t.sql.query(`ALTER TABLE "Evaluation" ADD CONSTRAINT bulk_test_refuse CHECK (summary IS NULL OR summary NOT LIKE '%${MARKER}%')`);
  try {
    await expect(runImport(t.prisma, [path.join(DATA, "toolemu"), folder])).rejects.toThrow(/bulk_test_refuse/);
    expect(await counts()).toEqual({ toolkits: 0, cases: 0, trajectories: 0, steps: 0, evaluations: 0 });
  } finally {
    await t.sql.query(`ALTER TABLE "Evaluation" DROP CONSTRAINT bulk_test_refuse`);
  }
});

it("imports the folder in many batches with the rows the files hold, once", { timeout: 300_000 }, async () => {
  const dry = await runImport(t.prisma, [path.join(DATA, "toolemu"), folder], { dryRun: true });
  expect(dry.report.issues).toEqual([]);
  expect(dry.written).toBeNull();
  expect((await counts()).trajectories).toBe(0);

  const first = await runImport(t.prisma, [path.join(DATA, "toolemu"), folder]);
  expect(first.report.issues).toEqual([]);
  expect(first.written).toMatchObject({ trajectories: RUNS * 144, evaluations: RUNS * 144 * 4 });
  const want = expected();
  expect(want.trajectories).toHaveLength(RUNS * 144);
  expect(want.evaluations).toHaveLength(RUNS * 144 * 4);
  const got = await stored();
  const c = await counts();
  expect(c).toMatchObject({ trajectories: RUNS * 144, evaluations: RUNS * 144 * 4 });
  expect(c.steps).toBe((await t.sql.query(`SELECT sum("stepCount")::int n FROM "Trajectory"`)).rows[0].n);
  expect(got.trajectories).toHaveLength(want.trajectories.length);
  expect(sha(got.trajectories)).toBe(sha(want.trajectories));
  expect(sha(got.evaluations)).toBe(sha(want.evaluations));

  const again = await runImport(t.prisma, [path.join(DATA, "toolemu"), folder]);
  expect(again.report.trajectories).toEqual({ new: 0, unchanged: RUNS * 144, changed: 0 });
  expect(again.written).toEqual({ toolkits: 0, cases: 0, trajectories: 0, evaluations: 0 });
  expect(await counts()).toEqual(c);
});
