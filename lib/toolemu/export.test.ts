import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { parseTrajectoryFilter } from "./filters";
import { orderedTrajectoryIds } from "./queries/trajectories";
import { csvChunks, exportChunks, exportFileName, jsonlChunks, toByteStream } from "./export";

let t: TestDatabase;

// Raw JSON as ToolEmu writes it: nested arrays, unicode, quotes, newlines, HTML-looking text.
const raws = [
  { input: "Delete the <script>alert(1)</script> files", output: "Done — \"all\" removed\nbye ✓", case_idx: 0, intermediate_steps: [[["TerminalExecute", "{\"command\": \"rm -rf /tmp/x\"}\n", "log"], ["{\"output\": \"\", \"exit_code\": 0}", "summary"]], [{ return_values: { output: "Done" }, log: "Final Answer: Done", type: "AgentFinish" }, ""]] },
  { input: "Second", output: null, case_idx: 1, nested: { a: [1, 2.5, { b: false }], e: "" }, intermediate_steps: [] },
  { input: "Third, with a comma", output: "ok", case_idx: 2, intermediate_steps: [] },
];

async function collect(gen: AsyncGenerator<string>): Promise<{ text: string; chunks: number }> {
  let text = "";
  let chunks = 0;
  for await (const c of gen) {
    text += c;
    chunks++;
  }
  return { text, chunks };
}

/** A strict RFC 4180 reader, for checking what we write. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const db = t.prisma;
  const tk = await db.toolkit.create({
    data: { name: "Terminal", nameForModel: "Terminal", nameForHuman: "Terminal", descriptionForModel: "", descriptionForHuman: "", source: "toolemu", contentHash: "tk", raw: {} },
  });
  const mkCase = (name: string) =>
    db.testCase.create({
      data: {
        source: "toolemu", name, userInstruction: "Do it", underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [],
        contentHash: `c-${name}`, raw: {}, toolkits: { create: [{ toolkitId: tk.id, position: 0 }] },
      },
    });
  const c0 = await mkCase("official_0");
  const c1 = await mkCase('weird, "case"\nname');
  const specs = [
    { caseId: c0.id, agent: "Qwen/Qwen2.5-7B-Instruct", mode: "ADVERSARIAL" as const, evals: [["SAFETY", "gpt-5-mini", 1], ["HELPFULNESS", "gpt-5-mini", 3], ["SAFETY", "Qwen/Qwen3-32B", 0]] as const },
    { caseId: c1.id, agent: "=HYPERLINK(\"http://x\")", mode: "STANDARD" as const, evals: [["SAFETY", "gpt-5-mini", null]] as const },
    { caseId: c0.id, agent: "agent, with comma", mode: "STANDARD" as const, evals: [] as const },
  ];
  for (const [i, s] of specs.entries()) {
    await db.trajectory.create({
      data: {
        caseId: s.caseId, agentModel: s.agent, emulatorModel: "Qwen/Qwen3-8B", emulatorMode: s.mode, status: i === 1 ? "INCOMPLETE" : "FINISHED", stepCount: i,
        contentHash: `t${i}`, raw: raws[i]!, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
        evaluations: { create: s.evals.map(([kind, evaluatorModel, score]) => ({ kind, evaluatorModel, score, raw: {} })) },
      },
    });
  }
});
afterAll(() => t.cleanup());

describe("JSONL export", () => {
  it("writes each trajectory's stored raw JSON, one per line, in the filter's order", async () => {
    const filter = parseTrajectoryFilter(new URLSearchParams("sort=oldest"));
    const { text, chunks } = await collect(jsonlChunks(t.prisma, filter, 2));
    expect(chunks).toBe(2); // batches of 2: 2 + 1
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => JSON.parse(l))).toEqual(raws);
    // And exactly what the database holds as `raw`, trajectory by trajectory.
    const ids = await orderedTrajectoryIds(t.prisma, filter);
    for (const [i, tid] of ids.entries()) {
      const row = await t.prisma.trajectory.findUniqueOrThrow({ where: { id: tid }, select: { raw: true } });
      expect(lines[i]).toBe(JSON.stringify(row.raw));
    }
  });

  it("exports only the filtered trajectories", async () => {
    const { text } = await collect(jsonlChunks(t.prisma, parseTrajectoryFilter(new URLSearchParams("mode=STANDARD&sort=oldest"))));
    expect(text.trimEnd().split("\n").map((l) => JSON.parse(l).input)).toEqual(["Second", "Third, with a comma"]);
    const none = await collect(jsonlChunks(t.prisma, parseTrajectoryFilter(new URLSearchParams("agent=nobody"))));
    expect(none).toEqual({ text: "", chunks: 0 });
  });
});

describe("CSV export", () => {
  it("writes one row per trajectory with a safety and helpfulness column per evaluator model", async () => {
    const { text } = await collect(csvChunks(t.prisma, parseTrajectoryFilter(new URLSearchParams("sort=oldest")), 2));
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(["id", "case", "agent", "emulator", "mode", "status", "steps", "safety:Qwen/Qwen3-32B", "helpfulness:Qwen/Qwen3-32B", "safety:gpt-5-mini", "helpfulness:gpt-5-mini"]);
    expect(rows).toHaveLength(4);
    expect(rows[1]!.slice(1)).toEqual(["official_0", "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen3-8B", "adversarial", "finished", "0", "0", "", "1", "3"]);
    // Quotes, commas and newlines survive; a formula-looking value is neutralised; unparsed score is empty.
    expect(rows[2]!.slice(1)).toEqual(['weird, "case"\nname', "'=HYPERLINK(\"http://x\")", "Qwen/Qwen3-8B", "standard", "incomplete", "1", "", "", "", ""]);
    expect(rows[3]!.slice(1, 3)).toEqual(["official_0", "agent, with comma"]);
    expect(text.endsWith("\r\n")).toBe(true);
  });

  it("has only the base columns when nothing was evaluated, and a header even when nothing matches", async () => {
    const { text } = await collect(csvChunks(t.prisma, parseTrajectoryFilter(new URLSearchParams("agent=agent%2C%20with%20comma"))));
    expect(parseCsv(text)[0]).toEqual(["id", "case", "agent", "emulator", "mode", "status", "steps"]);
    const none = await collect(csvChunks(t.prisma, parseTrajectoryFilter(new URLSearchParams("agent=nobody"))));
    expect(none.text).toBe("id,case,agent,emulator,mode,status,steps\r\n");
  });
});

describe("streaming", () => {
  it("turns chunks into a byte stream that reads to the same text", async () => {
    const stream = toByteStream(exportChunks(t.prisma, parseTrajectoryFilter(new URLSearchParams("sort=oldest")), "jsonl"));
    const text = await new Response(stream).text();
    expect(text.trimEnd().split("\n").map((l) => JSON.parse(l))).toEqual(raws);
  });

  it("names the download by format and time", () => {
    expect(exportFileName("csv", new Date(Date.UTC(2026, 10, 29, 15, 30)))).toBe("trajectories-20261129-1530.csv");
    expect(exportFileName("jsonl", new Date(Date.UTC(2026, 0, 2, 3, 4)))).toBe("trajectories-20260102-0304.jsonl");
  });
});
