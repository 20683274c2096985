// The importer against the real shared data (read in place, never copied): counts, content,
// idempotence, dry runs, confirmation of changes, unparsed evaluations, model overrides.
import { sharedDataDir } from "@/lib/testing/shared-data";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { runImport } from "./import";
import { parseJsonlName } from "./file-names";
import { storedSourceName } from "./apply";

const DATA = sharedDataDir();
const TOOLKITS = path.join(DATA, "toolemu/all_toolkits.json");
const CASES = path.join(DATA, "toolemu/all_cases.json");
const TRAJ_DIR = path.join(DATA, "trajectories/qwen2.5-7b-instruct");
const ALL = [path.join(DATA, "toolemu"), path.join(DATA, "trajectories")];
const JUDGES = { "judge-q32": "Qwen/Qwen3-32B", "judge-gpt5m": "gpt-5-mini" } as const;

/* eslint-disable @typescript-eslint/no-explicit-any -- source records are untyped JSON */
type Json = any;
const readJson = (p: string): Json => JSON.parse(readFileSync(p, "utf8"));
const readJsonlFile = (p: string): Json[] => readFileSync(p, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));

const sourceToolkits: Json[] = readJson(TOOLKITS);
const sourceCases: Json[] = readJson(CASES);

/** Every JSONL file of the shared data, with its judge folder and parsed name. */
const jsonlFiles = Object.keys(JUDGES).flatMap((judge) =>
  readdirSync(path.join(TRAJ_DIR, judge))
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => ({ judge: judge as keyof typeof JUDGES, path: path.join(TRAJ_DIR, judge, f), name: f, ...parseJsonlName(f) })),
);
const firstChunk = jsonlFiles.find((f) => f.judge === "judge-q32" && f.role === "trajectories" && f.prefix.includes("_r0-15_"))!;

let t: TestDatabase;
let tmp: string;

const TABLES = ["Toolkit", "Tool", "TestCase", "TestCaseToolkit", "Trajectory", "Step", "Evaluation"] as const;
async function rowCounts(): Promise<Record<(typeof TABLES)[number], number>> {
  const out = {} as Record<(typeof TABLES)[number], number>;
  for (const table of TABLES) out[table] = Number((await t.sql.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n);
  return out;
}

beforeAll(async () => {
  t = await createTestDatabase();
  tmp = mkdtempSync(path.join(tmpdir(), "toolemu-import-test-"));
});
afterAll(async () => {
  await t?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("importing the shared ToolEmu data", () => {
  it("the fixture is what this test assumes", () => {
    expect(jsonlFiles).toHaveLength(60);
    for (const judge of Object.keys(JUDGES)) {
      const traj = jsonlFiles.filter((f) => f.judge === judge && f.role === "trajectories");
      expect(traj).toHaveLength(10);
    }
    // The trajectory files of the two judge folders are byte-identical.
    const q = jsonlFiles.filter((f) => f.judge === "judge-q32" && f.role === "trajectories").map((f) => readFileSync(f.path, "utf8")).sort();
    const g = jsonlFiles.filter((f) => f.judge === "judge-gpt5m" && f.role === "trajectories").map((f) => readFileSync(f.path, "utf8")).sort();
    expect(q).toEqual(g);
  });

  it("a dry run reports everything as new and writes nothing", async () => {
    const r = await runImport(t.prisma, ALL, { dryRun: true });
    expect(r.report.issues).toEqual([]);
    expect(r.written).toBeNull();
    expect(r.report.toolkits).toMatchObject({ new: 38, unchanged: 0, changed: 0 });
    expect(r.report.tools).toBe(330);
    expect(r.report.cases).toMatchObject({ new: 144, unchanged: 0, changed: 0 });
    expect(r.report.trajectories).toEqual({ new: 144, unchanged: 0, changed: 0 });
    expect(r.report.evaluations).toEqual({ new: 576, unchanged: 0, changed: 0, unparsed: 0 });
    expect(Object.values(await rowCounts()).every((n) => n === 0)).toBe(true);
  });

  it("imports 38 toolkits, 330 tools, 144 cases, 144 trajectories and 2 × 288 evaluations", async () => {
    const r = await runImport(t.prisma, ALL);
    expect(r.report.issues).toEqual([]);
    expect(r.changes).toEqual([]);
    expect(r.written).toEqual({ toolkits: 38, cases: 144, trajectories: 144, evaluations: 576 });
    expect(r.report.files).toHaveLength(62);

    const counts = await rowCounts();
    expect(counts).toMatchObject({ Toolkit: 38, Tool: 330, TestCase: 144, Trajectory: 144, Evaluation: 576 });
    const expectedLinks = sourceCases.reduce((n, c) => n + c.Toolkits.length, 0);
    expect(counts.TestCaseToolkit).toBe(expectedLinks);

    const byKind = await t.prisma.evaluation.groupBy({ by: ["kind", "evaluatorModel"], _count: true, orderBy: [{ kind: "asc" }, { evaluatorModel: "asc" }] });
    expect(byKind.map((g) => [g.kind, g.evaluatorModel, g._count])).toEqual([
      ["SAFETY", "Qwen/Qwen3-32B", 144],
      ["SAFETY", "gpt-5-mini", 144],
      ["HELPFULNESS", "Qwen/Qwen3-32B", 144],
      ["HELPFULNESS", "gpt-5-mini", 144],
    ]);
    expect(await t.prisma.evaluation.count({ where: { kind: "SAFETY" } })).toBe(288);
    expect(await t.prisma.evaluation.count({ where: { kind: "HELPFULNESS" } })).toBe(288);

    const trajectories = await t.prisma.trajectory.groupBy({ by: ["emulatorMode", "agentModel", "emulatorModel"], _count: true });
    expect(trajectories.map((g) => [g.emulatorMode, g.agentModel, g.emulatorModel, g._count])).toEqual([["ADVERSARIAL", "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen3-8B", 144]]);
    // One trajectory per case, and the steps stored are those of the source lines.
    expect(await t.prisma.testCase.count({ where: { trajectories: { some: {} } } })).toBe(144);
    const sourceSteps = jsonlFiles
      .filter((f) => f.judge === "judge-q32" && f.role === "trajectories")
      .flatMap((f) => readJsonlFile(f.path))
      .reduce((n, line) => n + line.intermediate_steps.filter((s: Json) => Array.isArray(s[0])).length, 0);
    expect(counts.Step).toBe(sourceSteps);
  });

  it("stores the toolkits as given, with tool names as the agent calls them", async () => {
    const stored = await t.prisma.toolkit.findMany({ include: { tools: { orderBy: { position: "asc" } } } });
    const byName = new Map(stored.map((s) => [s.name, s]));
    for (const src of sourceToolkits) {
      const row = byName.get(src.toolkit)!;
      expect(row, src.toolkit).toBeDefined();
      expect(row.nameForModel).toBe(src.name_for_model);
      expect(row.descriptionForModel).toBe(src.description_for_model);
      expect(row.category).toBe(src.category ?? null);
      expect(row.tools.map((x) => x.agentName)).toEqual(src.tools.map((x: Json) => `${src.name_for_model}${x.name}`));
    }
    expect(byName.get("Terminal")!.tools[0]!.agentName).toBe("TerminalExecute");
  });

  it("stores a tool without `exceptions` as [] and a parameter without `required` as not required", async () => {
    const noExceptions = sourceToolkits.flatMap((tk) => tk.tools.filter((x: Json) => !("exceptions" in x)).map((x: Json) => `${tk.name_for_model}${x.name}`));
    const noRequired = sourceToolkits.flatMap((tk) =>
      tk.tools.flatMap((x: Json) => x.parameters.flatMap((p: Json, i: number) => ("required" in p ? [] : [{ agentName: `${tk.name_for_model}${x.name}`, index: i }]))),
    );
    expect(noExceptions).toHaveLength(2);
    expect(noRequired).toHaveLength(2);
    for (const agentName of noExceptions) {
      const tool = await t.prisma.tool.findUniqueOrThrow({ where: { agentName } });
      expect(tool.exceptions, agentName).toEqual([]);
    }
    for (const { agentName, index } of noRequired) {
      const tool = await t.prisma.tool.findUniqueOrThrow({ where: { agentName } });
      const params = tool.parameters as Json[];
      expect(params[index].required, `${agentName} parameter ${index}`).toBe(false);
    }
    // Parameters that have it keep it.
    const execute = await t.prisma.tool.findUniqueOrThrow({ where: { agentName: "TerminalExecute" } });
    expect(execute.parameters).toEqual(sourceToolkits.find((tk) => tk.toolkit === "Terminal").tools[0].parameters);
  });

  it("stores the steps of a trajectory (case official_0) as in its source line", async () => {
    const lines = readJsonlFile(firstChunk.path);
    const lineIndex = lines.findIndex((l) => l.case.name === "official_0");
    const src = lines[lineIndex];
    const actions = src.intermediate_steps.filter((s: Json) => Array.isArray(s[0]));
    const finish = src.intermediate_steps.at(-1)[0];
    expect(finish.type).toBe("AgentFinish");

    const tr = await t.prisma.trajectory.findFirstOrThrow({
      where: { case: { name: "official_0" } },
      include: { steps: { orderBy: { index: "asc" } }, case: true },
    });
    expect(tr.emulatorMode).toBe("ADVERSARIAL");
    expect(tr.status).toBe("FINISHED");
    expect(tr.stepCount).toBe(actions.length);
    expect(tr.steps).toHaveLength(actions.length);
    expect(tr.sourceLine).toBe(lineIndex + 1);
    expect(path.basename(tr.sourceFile!)).toMatch(/_r0-15_2601_115149\.jsonl$/);
    // Stored (and exported) without the server's absolute path.
    expect(path.isAbsolute(tr.sourceFile!)).toBe(false);
    expect(tr.case?.userInstruction).toBe(src.case["User Instruction"]);

    const first = tr.steps[0]!;
    const [[tool, toolInput, agentLog], [observation, summary, emulatorLog]] = actions[0];
    expect(first.action).toBe("TodoistSearchTasks");
    expect(first.action).toBe(tool);
    expect(first.actionInputRaw).toBe(toolInput);
    expect(first.actionInput).toEqual({ keywords: "Test" });
    expect(first.actionInput).toEqual(JSON.parse(toolInput));
    expect(first.thought).toBe(agentLog);
    expect(first.observationRaw).toBe(observation);
    expect(first.observation).toEqual(JSON.parse(observation));
    expect(first.observation).toHaveProperty("tasks");
    expect(first.emulatorSummary).toBe(summary);
    expect(first.emulatorThought).toBe(emulatorLog);

    expect(tr.finalAnswer).toBeTruthy();
    expect(tr.finalAnswer).toBe(finish.return_values.output);
    expect(tr.finalLog).toBe(finish.log);
  });

  it("stores one evaluation's score, label, thought and source line as in its file", async () => {
    const file = jsonlFiles.find((f) => f.judge === "judge-q32" && f.role === "safety" && f.prefix === firstChunk.prefix)!;
    const evalLines = readJsonlFile(file.path);
    const trajLines = readJsonlFile(firstChunk.path);
    const lineIndex = evalLines.findIndex((e) => trajLines[e.eval_id].case.name === "official_0");
    const src = evalLines[lineIndex];

    const ev = await t.prisma.evaluation.findFirstOrThrow({ where: { kind: "SAFETY", evaluatorModel: "Qwen/Qwen3-32B", trajectory: { case: { name: "official_0" } } } });
    expect(ev.score).toBe(src.eval_scores.ToolCallRisk);
    expect(ev.label).toBe(String(src["Overall Qualitative Label"]).replace(/\*\*/g, "").trim());
    expect(ev.label).not.toMatch(/\*/);
    expect(ev.label).toContain(`(${ev.score})`);
    expect(ev.thought).toBe(src["Evaluator Thought"]);
    expect(ev.summary).toBe(src["Evaluator Log Summary"]);
    expect(path.basename(ev.sourceFile!)).toBe(file.name);
    expect(ev.sourceLine).toBe(lineIndex + 1);
  });

  it("stores every evaluation's score as in its source file", async () => {
    const stored = await t.prisma.evaluation.findMany({ select: { kind: true, evaluatorModel: true, score: true, trajectory: { select: { case: { select: { name: true } } } } } });
    const byKey = new Map(stored.map((e) => [`${e.trajectory.case?.name}|${e.kind}|${e.evaluatorModel}`, e.score]));
    let compared = 0;
    for (const f of jsonlFiles.filter((x) => x.role !== "trajectories")) {
      const traj = readJsonlFile(jsonlFiles.find((x) => x.judge === f.judge && x.role === "trajectories" && x.prefix === f.prefix)!.path);
      const kind = f.role === "safety" ? "SAFETY" : "HELPFULNESS";
      for (const e of readJsonlFile(f.path)) {
        const key = `${traj[e.eval_id].case.name}|${kind}|${JUDGES[f.judge]}`;
        expect(byKey.get(key), key).toBe(e.eval_scores[kind === "SAFETY" ? "ToolCallRisk" : "Helpfulness"]);
        compared++;
      }
    }
    expect(compared).toBe(576);
  });

  it("importing the same files again changes nothing", async () => {
    const before = await rowCounts();
    const r = await runImport(t.prisma, ALL);
    expect(r.report.issues).toEqual([]);
    expect(r.changes).toEqual([]);
    expect(r.written).toEqual({ toolkits: 0, cases: 0, trajectories: 0, evaluations: 0 });
    expect(r.report.toolkits).toMatchObject({ new: 0, unchanged: 38, changed: 0 });
    expect(r.report.cases).toMatchObject({ new: 0, unchanged: 144, changed: 0 });
    expect(r.report.trajectories).toEqual({ new: 0, unchanged: 144, changed: 0 });
    expect(r.report.evaluations).toEqual({ new: 0, unchanged: 576, changed: 0, unparsed: 0 });
    expect(await rowCounts()).toEqual(before);
  });

  it("an evaluation file without its trajectory file is a located issue", async () => {
    const file = jsonlFiles.find((f) => f.role === "safety")!;
    const r = await runImport(t.prisma, [file.path]);
    expect(r.written).toBeNull();
    expect(r.report.issues).toEqual([
      { file: file.path, line: null, field: null, message: `no trajectory file ${file.prefix}.jsonl among the imported files to pair this evaluation file with` },
    ]);
  });
});

describe("a changed toolkit", () => {
  const edited = structuredClone(sourceToolkits);
  const target = edited.find((tk: Json) => tk.toolkit === "Terminal");
  target.description_for_model += " (edited by the import test)";
  const linkedCases = sourceCases.filter((c) => c.Toolkits.includes("Terminal")).length;
  let editedPath: string;
  let originalToolIds: string[];

  beforeAll(async () => {
    editedPath = path.join(tmp, "all_toolkits.json");
    writeFileSync(editedPath, JSON.stringify(edited, null, 4));
    originalToolIds = (await t.prisma.tool.findMany({ where: { toolkit: { name: "Terminal" } }, orderBy: { position: "asc" } })).map((x) => x.id);
    expect(linkedCases).toBeGreaterThan(0);
  });

  it("is reported as changed and not written without confirmation", async () => {
    const before = await rowCounts();
    const r = await runImport(t.prisma, [editedPath]);
    expect(r.report.issues).toEqual([]);
    expect(r.report.toolkits).toEqual({ new: 0, unchanged: 37, changed: 1, changedNames: ["Terminal"] });
    expect(r.changes).toEqual(["1 toolkit(s): Terminal"]);
    expect(r.written).toBeNull();
    expect(await rowCounts()).toEqual(before);
    const stored = await t.prisma.toolkit.findUniqueOrThrow({ where: { name: "Terminal" } });
    expect(stored.descriptionForModel).toBe(sourceToolkits.find((tk) => tk.toolkit === "Terminal").description_for_model);
  });

  it("is not written by a dry run even with acceptChanges", async () => {
    const r = await runImport(t.prisma, [editedPath], { dryRun: true, acceptChanges: true });
    expect(r.written).toBeNull();
    expect(r.changes).toHaveLength(1);
    expect((await t.prisma.toolkit.findUniqueOrThrow({ where: { name: "Terminal" } })).descriptionForModel).not.toContain("edited");
  });

  it("is written with acceptChanges: fields updated, tools replaced, cases still linked", async () => {
    const before = await rowCounts();
    const r = await runImport(t.prisma, [editedPath], { acceptChanges: true });
    expect(r.report.issues).toEqual([]);
    expect(r.written).toEqual({ toolkits: 1, cases: 0, trajectories: 0, evaluations: 0 });
    expect(await rowCounts()).toEqual(before);

    const stored = await t.prisma.toolkit.findUniqueOrThrow({ where: { name: "Terminal" }, include: { tools: { orderBy: { position: "asc" } }, cases: true } });
    expect(stored.descriptionForModel).toBe(target.description_for_model);
    expect(stored.raw).toEqual(target);
    expect(stored.tools.map((x) => x.agentName)).toEqual(target.tools.map((x: Json) => `Terminal${x.name}`));
    expect(stored.tools.map((x) => x.id).some((id) => originalToolIds.includes(id))).toBe(false);
    expect(stored.cases).toHaveLength(linkedCases);

    const again = await runImport(t.prisma, [editedPath]);
    expect(again.report.toolkits).toMatchObject({ unchanged: 38, changed: 0 });
  });

  it("the original file then reads as a change back", async () => {
    const r = await runImport(t.prisma, [TOOLKITS], { acceptChanges: true });
    expect(r.report.toolkits.changedNames).toEqual(["Terminal"]);
    expect(r.written).toMatchObject({ toolkits: 1 });
    expect((await t.prisma.toolkit.findUniqueOrThrow({ where: { name: "Terminal" } })).descriptionForModel).toBe(sourceToolkits.find((tk) => tk.toolkit === "Terminal").description_for_model);
  });
});

describe("a changed evaluation", () => {
  it("needs confirmation, then replaces the stored one", async () => {
    const safe = jsonlFiles.find((f) => f.judge === "judge-q32" && f.role === "safety" && f.prefix === firstChunk.prefix)!;
    const lines = readJsonlFile(safe.path);
    const old = lines[0].eval_scores.ToolCallRisk;
    const rescored = { ...lines[0], eval_scores: { ToolCallRisk: (old + 1) % 4 }, "Overall Qualitative Label": "Rescored by the import test" };
    const dir = mkdtempSync(path.join(tmp, "rescored-"));
    const files = [path.join(dir, firstChunk.name), path.join(dir, safe.name)];
    writeFileSync(files[0]!, readFileSync(firstChunk.path));
    writeFileSync(files[1]!, [rescored, ...lines.slice(1)].map((l) => JSON.stringify(l)).join("\n") + "\n");
    const caseName = readJsonlFile(firstChunk.path)[lines[0].eval_id].case.name;
    const where = { kind: "SAFETY" as const, evaluatorModel: "Qwen/Qwen3-32B", trajectory: { case: { name: caseName } } };
    const before = await rowCounts();

    const held = await runImport(t.prisma, files);
    expect(held.report.issues).toEqual([]);
    expect(held.report.trajectories).toEqual({ new: 0, unchanged: 15, changed: 0 });
    expect(held.report.evaluations).toEqual({ new: 0, unchanged: 14, changed: 1, unparsed: 0 });
    expect(held.changes).toEqual(["1 evaluation(s)"]);
    expect(held.written).toBeNull();
    expect((await t.prisma.evaluation.findFirstOrThrow({ where })).score).toBe(old);

    const r = await runImport(t.prisma, files, { acceptChanges: true });
    expect(r.written).toEqual({ toolkits: 0, cases: 0, trajectories: 0, evaluations: 1 });
    const stored = await t.prisma.evaluation.findFirstOrThrow({ where });
    expect([stored.score, stored.label]).toEqual([(old + 1) % 4, "Rescored by the import test"]);
    expect(await rowCounts()).toEqual(before);

    // The shared file puts it back (again only with confirmation).
    const back = await runImport(t.prisma, [firstChunk.path, safe.path], { acceptChanges: true });
    expect(back.written).toMatchObject({ evaluations: 1 });
    expect((await t.prisma.evaluation.findFirstOrThrow({ where })).score).toBe(old);
  });
});

describe("trajectory files beyond the shared data", () => {
  const srcLine = readJsonlFile(firstChunk.path)[0];
  const safeSrc = readJsonlFile(jsonlFiles.find((f) => f.judge === "judge-q32" && f.role === "safety" && f.prefix === firstChunk.prefix)!.path).find((e) => e.eval_id === 0);
  const helpSrc = readJsonlFile(jsonlFiles.find((f) => f.judge === "judge-q32" && f.role === "helpfulness" && f.prefix === firstChunk.prefix)!.path).find((e) => e.eval_id === 0);

  /** Writes a trajectory file (one line, made distinct by `tag`) and its evaluation files. */
  function writeRun(prefix: string, tag: string, evals: { safe?: Json; help?: Json }) {
    const dir = mkdtempSync(path.join(tmp, "run-"));
    const files = [path.join(dir, `${prefix}.jsonl`)];
    writeFileSync(files[0]!, JSON.stringify({ ...srcLine, output: `${srcLine.output} [${tag}]` }) + "\n");
    if (evals.safe) writeFileSync(files[files.push(path.join(dir, `${prefix}_eval_agent_safe.jsonl`)) - 1]!, JSON.stringify(evals.safe) + "\n");
    if (evals.help) writeFileSync(files[files.push(path.join(dir, `${prefix}_eval_agent_help_ignore_safety.jsonl`)) - 1]!, JSON.stringify(evals.help) + "\n");
    return files;
  }

  it("an evaluation line without eval_scores is kept with score null and counted as unparsed", async () => {
    const before = await rowCounts();
    const { eval_scores: _dropped, ...unparsedSafe } = safeSrc;
    expect(_dropped).toBeDefined();
    const prefix = "Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Org_Unparsed-Judge_r0-1_2601_000001";
    const files = writeRun(prefix, "unparsed", { safe: unparsedSafe, help: helpSrc });
    const r = await runImport(t.prisma, files);
    expect(r.report.issues).toEqual([]);
    expect(r.report.trajectories).toEqual({ new: 1, unchanged: 0, changed: 0 });
    expect(r.report.evaluations).toEqual({ new: 2, unchanged: 0, changed: 0, unparsed: 1 });
    expect(r.written).toEqual({ toolkits: 0, cases: 0, trajectories: 1, evaluations: 2 });
    expect(await rowCounts()).toMatchObject({ Trajectory: before.Trajectory + 1, Evaluation: before.Evaluation + 2 });

    const evals = await t.prisma.evaluation.findMany({ where: { evaluatorModel: "Org/Unparsed-Judge" }, orderBy: { kind: "asc" } });
    expect(evals.map((e) => [e.kind, e.score])).toEqual([
      ["SAFETY", null],
      ["HELPFULNESS", helpSrc.eval_scores.Helpfulness],
    ]);
    expect(evals[0]!.raw).not.toHaveProperty("eval_scores");
    expect(evals[0]!.thought).toBe(safeSrc["Evaluator Thought"]);

    const again = await runImport(t.prisma, files);
    expect(again.written).toEqual({ toolkits: 0, cases: 0, trajectories: 0, evaluations: 0 });
    expect(again.report.evaluations).toMatchObject({ unchanged: 2, unparsed: 1 });
  });

  it("an evaluation with empty eval_scores is unparsed too; a wrong score key or value is refused", async () => {
    const prefix = "Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Org_Empty-Scores_r0-1_2601_000003";
    const files = writeRun(prefix, "empty scores", { safe: { ...safeSrc, eval_scores: {} }, help: helpSrc });
    const r = await runImport(t.prisma, files);
    expect(r.report.issues).toEqual([]);
    expect(r.report.evaluations).toEqual({ new: 2, unchanged: 0, changed: 0, unparsed: 1 });
    const evals = await t.prisma.evaluation.findMany({ where: { evaluatorModel: "Org/Empty-Scores" }, orderBy: { kind: "asc" } });
    expect(evals.map((e) => [e.kind, e.score])).toEqual([
      ["SAFETY", null],
      ["HELPFULNESS", helpSrc.eval_scores.Helpfulness],
    ]);

    const before = await rowCounts();
    const bad = writeRun("Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Org_Bad-Scores_r0-1_2601_000004", "bad scores", {
      safe: { ...safeSrc, eval_scores: { ToolCallRisk: 5 } },
      help: { ...helpSrc, eval_scores: { ToolCallRisk: 2 } },
    });
    const refused = await runImport(t.prisma, bad);
    expect(refused.written).toBeNull();
    expect(refused.report.issues).toEqual([
      { file: bad[1], line: 1, field: "eval_scores.ToolCallRisk", message: "expected an integer score from 0 to 3, got 5" },
      { file: bad[2], line: 1, field: "eval_scores", message: "expected eval_scores.Helpfulness in a helpfulness evaluation file" },
    ]);
    expect(await rowCounts()).toEqual(before);
  });

  it("a tool input or observation that is JSON PostgreSQL cannot store is kept as text only", async () => {
    const prefix = "Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Org_Odd-Steps_r0-1_2601_000005";
    const dir = mkdtempSync(path.join(tmp, "odd-steps-"));
    const file = path.join(dir, `${prefix}.jsonl`);
    const line = structuredClone(srcLine);
    const actions = line.intermediate_steps.filter((s: Json) => Array.isArray(s[0]));
    expect(actions.length).toBeGreaterThanOrEqual(1);
    const nulInput = '{"command": "printf \\u0000"}'; // JSON text whose value holds a NUL
    const deepObservation = `{"output": ${"[".repeat(300)}1${"]".repeat(300)}}`; // deeper than 256 levels
    const loneSurrogate = '{"output": "\\ud800"}';
    actions[0][0][1] = nulInput;
    actions[0][1][0] = deepObservation;
    if (actions[1]) actions[1][1][0] = loneSurrogate;
    line.output = `${srcLine.output} [odd steps]`;
    writeFileSync(file, JSON.stringify(line) + "\n");

    const r = await runImport(t.prisma, [file]);
    expect(r.report.issues).toEqual([]);
    expect(r.written).toMatchObject({ trajectories: 1 });
    const tr = await t.prisma.trajectory.findFirstOrThrow({ where: { sourceFile: storedSourceName(file) }, include: { steps: { orderBy: { index: "asc" } } } });
    expect(tr.steps[0]).toMatchObject({ actionInputRaw: nulInput, actionInput: null, observationRaw: deepObservation, observation: null });
    if (actions[1]) expect(tr.steps[1]).toMatchObject({ observationRaw: loneSurrogate, observation: null });
    expect(tr.raw).toEqual(line);
  });

  it("model overrides replace the labels read from the file names", async () => {
    const prefix = "Org_Name-Agent_emu-Org_Name-Emulator_eval-Org_Name-Judge_r0-1_2601_000002";
    const files = writeRun(prefix, "overrides", { safe: safeSrc, help: helpSrc });
    const dry = await runImport(t.prisma, files, { dryRun: true });
    expect(dry.report.files.find((f) => f.kind === "trajectories")).toMatchObject({ agentModel: "Org/Name-Agent", emulatorModel: "Org/Name-Emulator" });

    const overrides = { [prefix]: { agentModel: "Custom/Agent", emulatorModel: " Custom/Emulator ", evaluatorModel: "Custom/Judge" } };
    const r = await runImport(t.prisma, files, { overrides });
    expect(r.report.issues).toEqual([]);
    expect(r.written).toEqual({ toolkits: 0, cases: 0, trajectories: 1, evaluations: 2 });
    expect(r.report.files.filter((f) => f.kind !== "trajectories").map((f) => f.evaluatorModel)).toEqual(["Custom/Judge", "Custom/Judge"]);

    const tr = await t.prisma.trajectory.findFirstOrThrow({ where: { sourceFile: storedSourceName(files[0]!) }, include: { evaluations: true } });
    expect([tr.agentModel, tr.emulatorModel]).toEqual(["Custom/Agent", "Custom/Emulator"]);
    expect(tr.evaluations.map((e) => e.evaluatorModel)).toEqual(["Custom/Judge", "Custom/Judge"]);
    expect(await t.prisma.trajectory.count({ where: { agentModel: "Org/Name-Agent" } })).toBe(0);
    expect(await t.prisma.evaluation.count({ where: { evaluatorModel: "Org/Name-Judge" } })).toBe(0);
  });

  it("overrides make a file name without the model pattern importable", async () => {
    const files = writeRun("my-run", "nameless", { safe: safeSrc });
    const refused = await runImport(t.prisma, files);
    expect(refused.written).toBeNull();
    expect(refused.report.issues.map((i) => [path.basename(i.file), i.message])).toEqual([
      ["my-run.jsonl", expect.stringContaining("cannot read the agent and emulator models from the file name")],
      ["my-run_eval_agent_safe.jsonl", expect.stringContaining("cannot read the evaluator model from the file name")],
    ]);
    const r = await runImport(t.prisma, files, { overrides: { "my-run": { agentModel: "A/a", emulatorModel: "E/e", evaluatorModel: "J/j" } } });
    expect(r.report.issues).toEqual([]);
    expect(r.written).toEqual({ toolkits: 0, cases: 0, trajectories: 1, evaluations: 1 });
  });
});

describe("paths that cannot be imported", () => {
  it("names the path: missing, not JSON, or a folder without .json/.jsonl files", async () => {
    const empty = mkdtempSync(path.join(tmp, "empty-"));
    const text = path.join(empty, "notes.txt");
    writeFileSync(text, "not an import file");
    const missing = path.join(tmp, "does-not-exist.json");
    const before = await rowCounts();
    const r = await runImport(t.prisma, [missing, text]);
    expect(r.written).toBeNull();
    expect(r.report.issues).toEqual([
      { file: missing, line: null, field: null, message: "no such file or folder" },
      { file: text, line: null, field: null, message: "not a .json or .jsonl file" },
    ]);
    const none = await runImport(t.prisma, [empty]);
    expect(none.report.issues).toEqual([{ file: empty, line: null, field: null, message: "no .json or .jsonl files found" }]);
    expect(none.written).toBeNull();
    expect(await rowCounts()).toEqual(before);
  });
});
