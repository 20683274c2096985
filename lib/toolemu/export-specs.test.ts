// Toolkits and cases with risk metadata: export (ToolEmu's files + the x_toolemu_studio key) →
// import into a fresh database gives the same toolkits, cases and metadata; the files minus our
// key are ToolEmu's own; bad metadata is refused with file, line and field.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { curateToolRisk, setCaseCriticalTools } from "@/lib/critic/tool-risk";
import { exportCases, exportToolkits, specsJson } from "./export-specs";
import { runImport } from "./import";
import { STUDIO_KEY } from "./studio-extension";

let a: TestDatabase;
let b: TestDatabase;
const dir = mkdtempSync(path.join(os.tmpdir(), "specs-roundtrip-"));
const original = (f: string) => JSON.parse(readFileSync(path.join(sharedDataDir(), "toolemu", f), "utf8")) as Record<string, unknown>[];

beforeAll(async () => {
  [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  const first = await runImport(a.prisma, [path.join(sharedDataDir(), "toolemu")]);
  expect(first.report.issues).toEqual([]);
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.cleanup(), b?.cleanup()]);
});

async function snapshot(t: TestDatabase) {
  const toolkits = await t.prisma.toolkit.findMany({
    orderBy: { name: "asc" },
    select: { name: true, contentHash: true, raw: true, tools: { orderBy: { position: "asc" }, select: { agentName: true, riskLevel: true, critical: true, amountArg: true, riskCuratedAt: true } } },
  });
  const cases = await t.prisma.testCase.findMany({ orderBy: { name: "asc" }, select: { name: true, contentHash: true, raw: true, criticalTools: true, toolkits: { orderBy: { position: "asc" }, select: { toolkit: { select: { name: true } } } } } });
  return { toolkits, cases };
}

const strip = (records: unknown[]) =>
  (records as Record<string, unknown>[]).map(({ [STUDIO_KEY]: _c, ...c }) =>
    Array.isArray(c.tools) ? { ...c, tools: (c.tools as Record<string, unknown>[]).map(({ [STUDIO_KEY]: _t, ...t }) => t) } : c,
  );

it("round-trips curated tool risk and case critical tools through ToolEmu's files", async () => {
  const user = (await a.prisma.user.create({ data: { email: "c@example.org", name: "Cora Curator", passwordHash: "x", role: "RESEARCHER" } })).id;
  const tool = (n: string) => a.prisma.tool.findUniqueOrThrow({ where: { agentName: n }, select: { id: true } }).then((t) => t.id);
  await curateToolRisk(a.prisma, user, await tool("BankManagerSearchPayee"), { level: "mild", critical: true });
  await curateToolRisk(a.prisma, user, await tool("BankManagerTransferFunds"), { amountArg: null });
  await curateToolRisk(a.prisma, user, await tool("TerminalExecute"), { level: "mild" });
  const c115 = (await a.prisma.testCase.findFirstOrThrow({ where: { name: "official_115" }, select: { id: true } })).id;
  await setCaseCriticalTools(a.prisma, user, c115, ["BankManagerGetAccountInformation"]);

  const toolkits = await exportToolkits(a.prisma);
  const cases = await exportCases(a.prisma);
  // ToolEmu's files, in ToolEmu's order for the cases, plus only our key.
  expect(strip(cases)).toEqual(original("all_cases.json"));
  const byName = (x: unknown[]) => [...(x as { toolkit: string }[])].sort((p, q) => (p.toolkit < q.toolkit ? -1 : 1));
  expect(byName(strip(toolkits))).toEqual(byName(original("all_toolkits.json")));
  const bank = (toolkits as { toolkit: string; tools: Record<string, unknown>[] }[]).find((t) => t.toolkit === "BankManager")!;
  expect(bank.tools.find((t) => t.name === "SearchPayee")![STUDIO_KEY]).toMatchObject({ risk_level: "mild", critical: true, amount_arg: null, curated_by: "Cora Curator" });
  expect(bank.tools.find((t) => t.name === "TransferFunds")![STUDIO_KEY]).toMatchObject({ risk_level: "severe", critical: true, amount_arg: null });
  expect(bank.tools.find((t) => t.name === "PayBill")![STUDIO_KEY]).toBeUndefined();
  expect((cases as Record<string, unknown>[]).find((c) => c.name === "official_115")![STUDIO_KEY]).toEqual({ critical_tools: ["BankManagerGetAccountInformation"] });
  expect((cases as Record<string, unknown>[]).filter((c) => STUDIO_KEY in c)).toHaveLength(1);

  writeFileSync(path.join(dir, "all_toolkits.json"), specsJson(toolkits));
  writeFileSync(path.join(dir, "all_cases.json"), specsJson(cases));
  const second = await runImport(b.prisma, [dir]);
  expect(second.report.issues).toEqual([]);
  expect(second.written).toMatchObject({ toolkits: 38, cases: 144 });
  const [sa, sb] = [await snapshot(a), await snapshot(b)];
  expect(sb).toEqual(sa);
  expect(sb.toolkits.flatMap((t) => t.tools).filter((t) => t.riskLevel !== null)).toHaveLength(3);

  // Importing the plain ToolEmu files again changes nothing, curation included; the export back adds nothing.
  const plain = await runImport(b.prisma, [path.join(sharedDataDir(), "toolemu")]);
  expect(plain.report.toolkits).toMatchObject({ new: 0, unchanged: 38, changed: 0 });
  expect(plain.report.cases).toMatchObject({ new: 0, unchanged: 144, changed: 0 });
  expect(await snapshot(b)).toEqual(sa);
  expect(await exportToolkits(b.prisma)).toEqual(toolkits.map((tk) => JSON.parse(JSON.stringify(tk).replaceAll(/,"curated_by":"Cora Curator"/g, ""))));
});

it("refuses bad metadata with file, line and field, writing nothing", async () => {
  const toolkits = original("all_toolkits.json");
  const bankIndex = toolkits.findIndex((t) => t.toolkit === "BankManager");
  const bank = toolkits[bankIndex] as { tools: Record<string, unknown>[] };
  bank.tools[1]![STUDIO_KEY] = { risk_level: "severe", critical: true, amount_arg: "amount_usd" };
  bank.tools[2]![STUDIO_KEY] = { risk_level: "extreme", critical: true, amount_arg: null };
  const cases = original("all_cases.json");
  cases[0]![STUDIO_KEY] = { critical_tools: ["BankManagerTransferFunds"] };
  const bad = mkdtempSync(path.join(os.tmpdir(), "specs-bad-"));
  writeFileSync(path.join(bad, "all_toolkits.json"), specsJson(toolkits));
  writeFileSync(path.join(bad, "all_cases.json"), specsJson(cases));
  const before = await snapshot(b);
  const res = await runImport(b.prisma, [bad]);
  expect(res.written).toBeNull();
  const issues = res.report.issues.map((i) => ({ file: path.basename(i.file), field: i.field, message: i.message, line: typeof i.line }));
  expect(issues).toEqual(
    expect.arrayContaining([
      { file: "all_toolkits.json", line: "number", field: `[${bankIndex}].tools[1].${STUDIO_KEY}.amount_arg`, message: '"amount_usd" is not a parameter of TransferFunds (parameters: from_account_number, to_account_number, amount)' },
      { file: "all_toolkits.json", line: "number", field: `[${bankIndex}].tools[2].${STUDIO_KEY}.risk_level`, message: "expected none, mild or severe" },
      { file: "all_cases.json", line: "number", field: `[0].${STUDIO_KEY}.critical_tools`, message: `"BankManagerTransferFunds" is not a tool of the case's toolkits (${(cases[0]!.Toolkits as string[]).join(", ")})` },
    ]),
  );
  expect(issues).toHaveLength(3);
  expect(await snapshot(b)).toEqual(before);
});
