// "JSONL + evaluations" export: a zip in ToolEmu's layout that the importer reads back into the
// same trajectories and evaluations. Fixture: the first 15 shared trajectories, scored by both judges.
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync, strFromU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { parseTrajectoryFilter } from "./filters";
import { runImport } from "./import";
import { evaluationLine, evaluationsZipChunks, groupPrefix } from "./export-evaluations";
import { parseJsonlName } from "./file-names";

const shared = sharedDataDir();
const judges = path.join(shared, "trajectories", "qwen2.5-7b-instruct");
// One chunk of cases (r0-15) per judge: the trajectory file and its two companions.
const fixtureFiles = ["judge-gpt5m", "judge-q32"].flatMap((dir) =>
  readdirSync(path.join(judges, dir)).filter((f) => f.includes("_r0-15_")).map((f) => path.join(judges, dir, f)),
);

let a: TestDatabase;
let b: TestDatabase;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  const first = await runImport(a.prisma, [path.join(shared, "toolemu"), ...fixtureFiles]);
  expect(first.report.issues).toEqual([]);
}, 300_000);
afterAll(async () => {
  await Promise.all([a?.cleanup(), b?.cleanup()]);
});

async function evaluations(t: TestDatabase) {
  const rows = await t.prisma.evaluation.findMany({
    select: { kind: true, evaluatorModel: true, score: true, label: true, thought: true, summary: true, raw: true, trajectory: { select: { contentHash: true } } },
  });
  return rows
    .map((r) => ({ ...r, raw: { ...(r.raw as Record<string, unknown>), eval_id: null } }))
    .sort((x, y) => (`${x.trajectory.contentHash}${x.kind}${x.evaluatorModel}` < `${y.trajectory.contentHash}${y.kind}${y.evaluatorModel}` ? -1 : 1));
}

async function zipOf(t: TestDatabase, qs: string, now: Date): Promise<Record<string, string>> {
  const parts: Uint8Array[] = [];
  for await (const c of evaluationsZipChunks(t.prisma, parseTrajectoryFilter(new URLSearchParams(qs)), now)) parts.push(c);
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return Object.fromEntries(Object.entries(unzipSync(all)).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

describe("JSONL + evaluations export", () => {
  const now = new Date(Date.UTC(2026, 11, 2, 7, 15));

  it("writes, per evaluator, a trajectory file and its two companions pointing into it by eval_id", async () => {
    const files = await zipOf(a, "", now);
    const names = Object.keys(files).sort();
    expect(names).toHaveLength(6);
    for (const name of names) expect(name).toMatch(/^Qwen_Qwen2\.5-7B-Instruct_emu-Qwen_Qwen3-8B_eval-(gpt-5-mini|Qwen_Qwen3-32B)_20261202_0715(_eval_agent_safe|_eval_agent_help_ignore_safety)?\.jsonl$/);
    const prefix = groupPrefix("Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen3-8B", "Qwen/Qwen3-32B", now);
    // The importer reads the models back from the names.
    expect(parseJsonlName(`${prefix}_eval_agent_safe.jsonl`)).toMatchObject({ role: "safety", agentModel: "Qwen/Qwen2.5-7B-Instruct", emulatorModel: "Qwen/Qwen3-8B", evaluatorModel: "Qwen/Qwen3-32B" });
    const trajectories = files[`${prefix}.jsonl`]!.trim().split("\n").map((l) => JSON.parse(l));
    const safety = files[`${prefix}_eval_agent_safe.jsonl`]!.trim().split("\n").map((l) => JSON.parse(l));
    expect(trajectories).toHaveLength(15);
    expect(safety).toHaveLength(15);
    // eval_id is the line of the trajectory the evaluation is about: the stored pairing survives.
    for (const line of safety) {
      const traj = trajectories[line.eval_id];
      const stored = await a.prisma.evaluation.findFirst({ where: { kind: "SAFETY", evaluatorModel: "Qwen/Qwen3-32B", trajectory: { raw: { equals: traj } } }, select: { thought: true } });
      expect(stored?.thought).toBe(line["Evaluator Thought"]);
    }
  });

  it("round-trips: importing the zip's files into an empty database gives the same evaluations", async () => {
    const files = await zipOf(a, "", now);
    const dir = mkdtempSync(path.join(os.tmpdir(), "export-evals-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const second = await runImport(b.prisma, [path.join(shared, "toolemu"), dir]);
    expect(second.report.issues).toEqual([]);
    expect(second.written?.trajectories).toBe(15);
    expect(await b.prisma.evaluation.count()).toBe(await a.prisma.evaluation.count());
    expect(await evaluations(b)).toEqual(await evaluations(a));
  });

  it("follows the filter: one evaluator, a safety score", async () => {
    const files = await zipOf(a, "evaluator=gpt-5-mini&safety=0", now);
    const names = Object.keys(files);
    expect(names.every((n) => n.includes("_eval-gpt-5-mini_"))).toBe(true);
    const want = await a.prisma.trajectory.count({ where: { evaluations: { some: { evaluatorModel: "gpt-5-mini", kind: "SAFETY", score: 0 } } } });
    const trajFile = names.find((n) => parseJsonlName(n).role === "trajectories")!;
    expect(files[trajFile]!.trim().split("\n")).toHaveLength(want);
  });
});

describe("evaluationLine", () => {
  it("keeps an imported line as written and sets eval_id", () => {
    const raw = { eval_id: 9, "Evaluator Thought": "t", "Overall Qualitative Label": "**Certain No Risk (3)**", "Overall Quantitative Score": "3", "Evaluator Log Summary": "s", eval_scores: { ToolCallRisk: 3 } };
    expect(evaluationLine({ kind: "SAFETY", score: 3, label: "Certain No Risk (3)", thought: "t", summary: "s", raw }, 2)).toEqual({ ...raw, eval_id: 2 });
  });

  it("completes an evaluation this app produced from its columns", () => {
    expect(evaluationLine({ kind: "HELPFULNESS", score: 1, label: "Unsatisfactory (1)", thought: "why", summary: "short", raw: { output: "…" } }, 0)).toEqual({
      output: "…",
      "Evaluator Thought": "why",
      "Overall Qualitative Label": "Unsatisfactory (1)",
      "Overall Quantitative Score": "1",
      "Evaluator Log Summary": "short",
      eval_scores: { Helpfulness: 1 },
      eval_id: 0,
    });
    // Unparsed: no eval_scores, so the importer keeps it unparsed too.
    expect(evaluationLine({ kind: "SAFETY", score: null, label: null, thought: null, summary: null, raw: null }, 4)).not.toHaveProperty("eval_scores");
  });
});
