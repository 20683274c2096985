// Multi-run results folders: a run tag between the evaluator and the case range
// (…_eval-<judge>_int4_r0-15_…) belongs to the agent run, never to the evaluator. The fixture is
// built from the shared data in the shape of a real results tree (one agent folder per judge with
// an untagged run, an int4 run and an int8 run in a nested folder), written to a temp dir.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { loadEvaluatorsPanel } from "@/lib/dashboards/evaluators";
import { parseDashboardFilter } from "@/lib/dashboards/filters";
import { agentRunLabel, parseJsonlName, splitRunTag } from "./file-names";
import { runImport } from "./import";
import { reportText } from "./report-text";

const DATA = sharedDataDir();
const SRC = path.join(DATA, "trajectories/qwen2.5-7b-instruct");
const JUDGES = [
  { folder: "judge-q32", fileName: "Qwen_Qwen3-32B", label: "Qwen/Qwen3-32B" },
  { folder: "judge-gpt5m", fileName: "gpt-5-mini", label: "gpt-5-mini" },
] as const;
const AGENT = "Qwen/Qwen3-32B";
const RUNS = [
  { tag: null, stamp: "2601_115149", dir: "" },
  { tag: "int4", stamp: "2601_180441", dir: "" },
  { tag: "int8", stamp: "0102_162853", dir: "int8" }, // a nested subfolder, as in real trees
] as const;
const COMPANIONS = ["", "_eval_agent_safe", "_eval_agent_help_ignore_safety"] as const;

let t: TestDatabase;
let tmp: string;

/** The shared chunk r0-15 of one judge: trajectory lines and both evaluation files, as text lines. */
function sourceChunk(judge: (typeof JUDGES)[number]): Record<(typeof COMPANIONS)[number], string[]> {
  const dir = path.join(SRC, judge.folder);
  const base = readdirSync(dir).find((f) => /_r0-15_\d+_\d+\.jsonl$/.test(f))!.replace(/\.jsonl$/, "");
  const lines = (suffix: string) => readFileSync(path.join(dir, `${base}${suffix}.jsonl`), "utf8").split("\n").filter((l) => l.trim());
  return { "": lines(""), _eval_agent_safe: lines("_eval_agent_safe"), _eval_agent_help_ignore_safety: lines("_eval_agent_help_ignore_safety") };
}

/**
 * Writes <root>/<judge>/Qwen_Qwen3-32B/[<dir>/]<agent>_emu-…_eval-<judge>[_<tag>]_r0-15_<stamp>*.jsonl.
 * Real runs of two quantisations differ in content; here each tagged run's trajectory lines get a
 * marker key so that they are distinct trajectories too (`sameContent` leaves them identical).
 */
function writeTree(root: string, opts: { sameContent?: boolean } = {}): string[] {
  const roots: string[] = [];
  for (const judge of JUDGES) {
    const chunk = sourceChunk(judge);
    for (const run of RUNS) {
      const dir = path.join(root, judge.folder, "Qwen_Qwen3-32B", run.dir);
      mkdirSync(dir, { recursive: true });
      const prefix = `Qwen_Qwen3-32B_emu-Qwen_Qwen3-8B_eval-${judge.fileName}${run.tag ? `_${run.tag}` : ""}_r0-15_${run.stamp}`;
      for (const suffix of COMPANIONS) {
        let lines = chunk[suffix];
        if (suffix === "" && run.tag && !opts.sameContent) lines = lines.map((l) => JSON.stringify({ ...JSON.parse(l), fixture_run: run.tag }));
        writeFileSync(path.join(dir, `${prefix}${suffix}.jsonl`), lines.join("\n") + "\n");
      }
    }
    roots.push(path.join(root, judge.folder));
  }
  return roots;
}

beforeAll(async () => {
  t = await createTestDatabase();
  tmp = mkdtempSync(path.join(tmpdir(), "toolemu-runs-test-"));
});
afterAll(async () => {
  await t?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("reading a run tag from a file name", () => {
  it("keeps the tag with the agent run, never with the evaluator", () => {
    expect(parseJsonlName("Qwen_Qwen3-32B_emu-Qwen_Qwen3-8B_eval-gpt-5-mini_int4_r0-15_2601_180441_eval_agent_safe.jsonl")).toEqual({
      prefix: "Qwen_Qwen3-32B_emu-Qwen_Qwen3-8B_eval-gpt-5-mini_int4_r0-15_2601_180441",
      role: "safety",
      agentModel: "Qwen/Qwen3-32B · int4",
      emulatorModel: "Qwen/Qwen3-8B",
      evaluatorModel: "gpt-5-mini",
      runTag: "int4",
    });
    expect(parseJsonlName("Qwen_Qwen3-32B_emu-Qwen_Qwen3-8B_eval-Qwen_Qwen3-32B_int8_r15-30_0102_162853.jsonl")).toMatchObject({
      role: "trajectories",
      agentModel: "Qwen/Qwen3-32B · int8",
      evaluatorModel: "Qwen/Qwen3-32B",
      runTag: "int8",
    });
    // Untagged names read as before.
    expect(parseJsonlName("Qwen_Qwen2.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-Qwen_Qwen3-32B_r0-15_2601_115149.jsonl")).toMatchObject({
      agentModel: "Qwen/Qwen2.5-7B-Instruct",
      evaluatorModel: "Qwen/Qwen3-32B",
      runTag: null,
    });
  });

  it("tells an org_name evaluator from a name_tag one", () => {
    expect(splitRunTag("Qwen_Qwen3-32B")).toEqual({ evaluator: "Qwen_Qwen3-32B", tag: null });
    expect(splitRunTag("gpt-5-mini")).toEqual({ evaluator: "gpt-5-mini", tag: null });
    expect(splitRunTag("gpt-5-mini_int4")).toEqual({ evaluator: "gpt-5-mini", tag: "int4" });
    expect(splitRunTag("Qwen_Qwen3-32B_fp8")).toEqual({ evaluator: "Qwen_Qwen3-32B", tag: "fp8" });
    // After org_name, anything is a tag; before it, only what looks like a quantisation.
    expect(splitRunTag("Qwen_Qwen3-32B_nothink_awq")).toEqual({ evaluator: "Qwen_Qwen3-32B", tag: "nothink_awq" });
    expect(agentRunLabel("A/b", null)).toBe("A/b");
    expect(agentRunLabel("A/b", "int4")).toBe("A/b · int4");
  });
});

describe("importing two judges' trees of a multi-run agent folder in one command", () => {
  let trees: string[];
  const all = () => [path.join(DATA, "toolemu"), ...trees];

  beforeAll(() => {
    trees = writeTree(path.join(tmp, "results"));
  });

  it("identical trajectories under two run tags are refused with both places named", async () => {
    const same = writeTree(path.join(tmp, "same-content"), { sameContent: true });
    const r = await runImport(t.prisma, [path.join(DATA, "toolemu"), ...same], { dryRun: true });
    expect(r.report.issues.length).toBeGreaterThan(0);
    // Files are read in name order: the int4 run ("…_int4_r0-15…") comes before the untagged one.
    const first = r.report.issues[0]!;
    expect(first.file).toMatch(/judge-q32\/Qwen_Qwen3-32B\/Qwen_Qwen3-32B_emu-Qwen_Qwen3-8B_eval-Qwen_Qwen3-32B_r0-15_2601_115149\.jsonl$/);
    expect(first.line).toBe(1);
    expect(first.message).toMatch(
      /^the same trajectory is in \S*_eval-Qwen_Qwen3-32B_int4_r0-15_2601_180441\.jsonl:1 under agent Qwen\/Qwen3-32B · int4 \(emulator Qwen\/Qwen3-8B\), here under agent Qwen\/Qwen3-32B \(emulator Qwen\/Qwen3-8B\); a trajectory belongs to one agent run/,
    );
    // 15 lines × (untagged and int8 against int4) × 2 judges' copies.
    expect(r.report.issues).toHaveLength(60);
    expect(await t.prisma.trajectory.count()).toBe(0);
  });

  it("the dry run shows three agent runs, the tags with the agent, two evaluators", async () => {
    const r = await runImport(t.prisma, all(), { dryRun: true });
    expect(r.report.issues).toEqual([]);
    const evaluators = [...JUDGES.map((j) => j.label)].sort();
    expect(r.report.runs).toEqual([
      { agentModel: AGENT, emulatorModel: "Qwen/Qwen3-8B", runTag: null, files: 2, trajectories: 15, evaluators },
      { agentModel: `${AGENT} · int4`, emulatorModel: "Qwen/Qwen3-8B", runTag: "int4", files: 2, trajectories: 15, evaluators },
      { agentModel: `${AGENT} · int8`, emulatorModel: "Qwen/Qwen3-8B", runTag: "int8", files: 2, trajectories: 15, evaluators },
    ]);
    expect(new Set(r.report.files.filter((f) => f.evaluatorModel).map((f) => f.evaluatorModel))).toEqual(new Set(evaluators));
    expect(r.report.trajectories).toEqual({ new: 45, unchanged: 0, changed: 0 });
    expect(r.report.evaluations).toMatchObject({ new: 45 * 4 });
    const text = reportText(r.report, r.written, r.changes);
    expect(text).toContain("Agent runs (3):");
    expect(text).toContain("Qwen/Qwen3-32B · int8 (tag int8 from the file names), emulator Qwen/Qwen3-8B: 15 trajectories in 2 files; evaluators Qwen/Qwen3-32B, gpt-5-mini");
    expect(text).toContain("Qwen/Qwen3-32B, emulator Qwen/Qwen3-8B: 15 trajectories in 2 files");
  });

  it("writes three distinct agents, and both judges are paired on every trajectory of each run", async () => {
    const r = await runImport(t.prisma, all());
    expect(r.report.issues).toEqual([]);
    expect(r.written).toEqual({ toolkits: 38, cases: 144, trajectories: 45, evaluations: 180 });
    const agents = await t.prisma.trajectory.groupBy({ by: ["agentModel"], _count: true, orderBy: { agentModel: "asc" } });
    expect(agents.map((a) => [a.agentModel, a._count])).toEqual([[AGENT, 15], [`${AGENT} · int4`, 15], [`${AGENT} · int8`, 15]]);
    const evaluators = await t.prisma.evaluation.groupBy({ by: ["evaluatorModel"], _count: true, orderBy: { evaluatorModel: "asc" } });
    expect(evaluators.map((e) => [e.evaluatorModel, e._count])).toEqual([["Qwen/Qwen3-32B", 90], ["gpt-5-mini", 90]]);

    for (const agent of [AGENT, `${AGENT} · int4`, `${AGENT} · int8`]) {
      for (const kind of ["SAFETY", "HELPFULNESS"] as const) {
        const panel = await loadEvaluatorsPanel(t.prisma, parseDashboardFilter({ agent, kind }));
        expect(panel.trajectories).toBe(15);
        expect(panel.evaluators.map((e) => [e.value, e.count]).sort()).toEqual([["Qwen/Qwen3-32B", 15], ["gpt-5-mini", 15]]);
        expect(new Set([panel.pair?.a, panel.pair?.b])).toEqual(new Set(["Qwen/Qwen3-32B", "gpt-5-mini"]));
        // Every trajectory of the run is a pair (scored by both, or both evaluated and unparsed).
        expect(panel.comparison!.summary.n + panel.comparison!.unparsed).toBe(15);
      }
    }
  });

  it("ANALYZEs the tables it wrote", async () => {
    const tables = ["Toolkit", "Tool", "TestCase", "TestCaseToolkit", "Trajectory", "Step", "Evaluation"];
    if (t.kind !== "postgres") {
      // PGlite keeps no per-table statistics views worth asserting on; the import above did not fail.
      expect(await t.prisma.trajectory.count()).toBe(45);
      return;
    }
    await t.sql.query("SELECT pg_stat_clear_snapshot()");
    const rows = (await t.sql.query(`SELECT relname, last_analyze, analyze_count FROM pg_stat_user_tables WHERE relname = ANY($1) ORDER BY relname`, [tables])).rows;
    expect(rows.map((r) => r.relname).sort()).toEqual([...tables].sort());
    for (const r of rows) {
      expect(r.last_analyze, r.relname).not.toBeNull();
      expect(Number(r.analyze_count), r.relname).toBeGreaterThan(0);
    }
  });

  it("a run stored under another label is relabelled only once confirmed", async () => {
    const int8 = readdirSync(path.join(trees[0]!, "Qwen_Qwen3-32B", "int8")).map((f) => path.join(trees[0]!, "Qwen_Qwen3-32B", "int8", f));
    const prefix = parseJsonlName(int8[0]!).prefix;
    // As an importer that dropped the tag would have stored it.
    const old = await runImport(t.prisma, int8, { overrides: { [prefix]: { agentModel: AGENT } }, acceptChanges: true });
    expect(old.written).toMatchObject({ trajectories: 15 });
    expect(await t.prisma.trajectory.count({ where: { agentModel: AGENT } })).toBe(30);

    const check = await runImport(t.prisma, int8);
    expect(check.report.trajectories).toEqual({ new: 0, unchanged: 0, changed: 15 });
    expect(check.changes).toEqual([`15 trajectory(ies) change agent run, e.g. ${AGENT} (emulator Qwen/Qwen3-8B) → ${AGENT} · int8 (emulator Qwen/Qwen3-8B)`]);
    expect(check.written).toBeNull();
    expect(await t.prisma.trajectory.count({ where: { agentModel: AGENT } })).toBe(30);

    const applied = await runImport(t.prisma, int8, { acceptChanges: true });
    expect(applied.written).toEqual({ toolkits: 0, cases: 0, trajectories: 15, evaluations: 0 });
    expect(await t.prisma.trajectory.count({ where: { agentModel: `${AGENT} · int8` } })).toBe(15);
    expect(await t.prisma.trajectory.count({ where: { agentModel: AGENT } })).toBe(15);
  });
});
