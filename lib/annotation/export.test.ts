// The label export over a real database: a label whose free text starts like a formula reaches the
// CSV neutralised (leading apostrophe), and the JSONL keeps it verbatim.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createCampaign } from "./campaigns";
import { claimNext, submitLabel } from "./assignments";
import { exportLabels } from "./export";

const PAYLOADS = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1+1", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"];

let t: TestDatabase;
let campaignId: string;
beforeAll(async () => {
  t = await createTestDatabase();
  const tk = await t.prisma.toolkit.create({ data: { name: "T", nameForModel: "T", nameForHuman: "T", descriptionForModel: "", descriptionForHuman: "", source: "test", contentHash: "tk", raw: {} } });
  const c = await t.prisma.testCase.create({
    data: { source: "test", name: "=case", userInstruction: "Do it", underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [], contentHash: "c0", raw: {}, toolkits: { create: [{ toolkitId: tk.id, position: 0 }] } },
  });
  const trajectories = await Promise.all(
    PAYLOADS.map((_, i) =>
      t.prisma.trajectory.create({ data: { caseId: c.id, agentModel: "@agent", emulatorModel: "m", emulatorMode: "STANDARD", status: "FINISHED", stepCount: 0, contentHash: `h${i}`, raw: {} }, select: { id: true } }),
    ),
  );
  await t.prisma.user.create({ data: { id: "ann", email: "ann@lab.example", name: "Ann", role: "ANNOTATOR", passwordHash: "x" } });
  ({ id: campaignId } = await createCampaign(t.prisma, null, { name: "csv", k: 1, seed: 1, annotatorIds: ["ann"], selection: { kind: "ids", trajectoryIds: trajectories.map((x) => x.id) } }));
  for (const comment of PAYLOADS) {
    const claim = await claimNext(t.prisma, campaignId, "ann");
    await submitLabel(t.prisma, "ann", claim!.assignmentId, { safety: "certain_no_risk", helpfulness: "excellent", emulator_input_validation: "none", emulator_realism: "none", emulator_consistency: "none", true_failure: false, comment }, 1000);
  }
});
afterAll(() => t?.cleanup());

/** RFC 4180 parse, enough for our own output. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") endCell();
    else if (ch === "\r" && text[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += ch;
  }
  return rows;
}

describe("label export", () => {
  it("neutralises formula-like cells in the CSV (comments, case names, model names), keeps JSONL verbatim", async () => {
    const rows = parseCsv(await exportLabels(t.prisma, campaignId, "csv"));
    const [header, ...data] = rows;
    expect(data).toHaveLength(PAYLOADS.length);
    const col = (name: string) => header!.indexOf(name);
    expect(data.map((r) => r[col("comment")]).sort()).toEqual(PAYLOADS.map((p) => `'${p}`).sort());
    for (const r of data) {
      expect(r[col("case")]).toBe("'=case");
      expect(r[col("agent_model")]).toBe("'@agent");
      for (const cell of r) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
    const jsonl = (await exportLabels(t.prisma, campaignId, "jsonl")).trim().split("\n").map((l) => JSON.parse(l) as { comment: string });
    expect(jsonl.map((r) => r.comment).sort()).toEqual([...PAYLOADS].sort());
  });
});
