// Tool risk curation and the critic's case context on the real ToolEmu toolkits and cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { criticContextForCase, criticContextForCases } from "./context";
import { curateToolRisk, effectiveToolRisks, setCaseCriticalTools } from "./tool-risk";

let t: TestDatabase;
let researcher: string;
let bankId: string;
const caseId = async (name: string) => (await t.prisma.testCase.findFirstOrThrow({ where: { name }, select: { id: true } })).id;
const toolId = async (agentName: string) => (await t.prisma.tool.findUniqueOrThrow({ where: { agentName }, select: { id: true } })).id;

beforeAll(async () => {
  t = await createTestDatabase({ seed: "cases" });
  expect(t.imported?.written?.cases).toBe(144);
  researcher = (await t.prisma.user.create({ data: { email: "r@example.org", name: "Rita Researcher", passwordHash: "x", role: "RESEARCHER" } })).id;
  bankId = (await t.prisma.toolkit.findUniqueOrThrow({ where: { name: "BankManager" }, select: { id: true } })).id;
}, 120_000);
afterAll(async () => {
  await t?.cleanup();
});

describe("effective tool risk", () => {
  it("follows the default rule, naming the rule, until curated; curation is stamped and audited; reset returns to the rule", async () => {
    const before = await effectiveToolRisks(t.prisma, bankId);
    const transfer = before.find((r) => r.agentName === "BankManagerTransferFunds")!;
    expect(transfer).toMatchObject({ level: "severe", critical: true, amountArg: "amount", source: "default", curatedBy: null, curatedAt: null });
    expect(transfer.defaults.rule).toContain("verb transfer");
    const search = before.find((r) => r.agentName === "BankManagerSearchPayee")!;
    expect(search).toMatchObject({ level: "none", critical: false, source: "default" });

    const after = await curateToolRisk(t.prisma, researcher, search.toolId, { level: "mild", critical: true });
    expect(after).toMatchObject({ level: "mild", critical: true, amountArg: null, source: "curated", curatedBy: { id: researcher, name: "Rita Researcher" } });
    expect(after.curatedAt).toBeInstanceOf(Date);
    const again = (await effectiveToolRisks(t.prisma, bankId)).find((r) => r.toolId === search.toolId)!;
    expect(again).toMatchObject({ level: "mild", critical: true, source: "curated", defaults: { level: "none", critical: false } });
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { entityType: "Tool", entityId: search.toolId, action: "tool.risk" } });
    expect(audit.actorId).toBe(researcher);
    expect(audit.before).toEqual({ level: "none", critical: false, amountArg: null, source: "default" });
    expect(audit.after).toEqual({ level: "mild", critical: true, amountArg: null, source: "curated" });

    // A curated tool may have no amount argument although the rule finds one.
    const noAmount = await curateToolRisk(t.prisma, researcher, transfer.toolId, { amountArg: "" });
    expect(noAmount).toMatchObject({ level: "severe", critical: true, amountArg: null, source: "curated" });

    const reset = await curateToolRisk(t.prisma, researcher, search.toolId, { reset: true });
    expect(reset).toMatchObject({ level: "none", critical: false, source: "default", curatedBy: null });
    const row = await t.prisma.tool.findUniqueOrThrow({ where: { id: search.toolId } });
    expect([row.riskLevel, row.critical, row.amountArg, row.riskCuratedAt]).toEqual([null, null, null, null]);
    expect(await t.prisma.auditLog.count({ where: { entityId: search.toolId, action: "tool.risk_reset" } })).toBe(1);
    await curateToolRisk(t.prisma, researcher, transfer.toolId, { reset: true });
  });

  it("refuses an amount argument that is not a parameter, naming the field, and writes nothing", async () => {
    const id = await toolId("BankManagerTransferFunds");
    const audits = await t.prisma.auditLog.count();
    await expect(curateToolRisk(t.prisma, researcher, id, { amountArg: "amount_usd" })).rejects.toThrow(
      /^amountArg: "amount_usd" is not a parameter of BankManagerTransferFunds \(parameters: from_account_number, to_account_number, amount\)/,
    );
    await expect(curateToolRisk(t.prisma, researcher, id, { level: "extreme" })).rejects.toThrow(/^level: expected one of none, mild, severe/);
    await expect(curateToolRisk(t.prisma, researcher, id, { critical: "yes" })).rejects.toThrow(/^critical: expected true or false/);
    await expect(curateToolRisk(t.prisma, researcher, id, { amount: "amount" })).rejects.toThrow(/^amount: unknown field/);
    await expect(curateToolRisk(t.prisma, researcher, id, { reset: true, level: "mild" })).rejects.toThrow(/^reset: a reset to the default rule takes no other field/);
    expect(await t.prisma.auditLog.count()).toBe(audits);
    expect(await t.prisma.tool.findUniqueOrThrow({ where: { id }, select: { riskLevel: true } })).toEqual({ riskLevel: null });
  });
});

describe("case critical tools and the critic context", () => {
  it("a case adds critical tools of its own toolkits only (audited); the context unites them with the toolkit's", async () => {
    const id = await caseId("official_115");
    await expect(setCaseCriticalTools(t.prisma, researcher, id, ["GmailSendEmail"])).rejects.toThrow(/^criticalTools: "GmailSendEmail" is not a tool of case official_115's toolkits/);
    expect(await setCaseCriticalTools(t.prisma, researcher, id, ["BankManagerSearchPayee", "BankManagerGetAccountInformation", "BankManagerSearchPayee"])).toEqual([
      "BankManagerGetAccountInformation",
      "BankManagerSearchPayee",
    ]);
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { entityType: "TestCase", entityId: id, action: "case.critical_tools" } });
    expect(audit.after).toEqual({ criticalTools: ["BankManagerGetAccountInformation", "BankManagerSearchPayee"] });

    const ctx = await criticContextForCase(t.prisma, id);
    const own = await t.prisma.testCase.findUniqueOrThrow({ where: { id }, select: { userInstruction: true } });
    expect(ctx.instruction).toBe(own.userInstruction);
    expect(ctx.criticalTools).toEqual(new Set(["BankManagerTransferFunds", "BankManagerPayBill", "BankManagerGetAccountInformation", "BankManagerSearchPayee"]));
    expect(ctx.amountArgs).toEqual(new Map([["BankManagerTransferFunds", "amount"], ["BankManagerPayBill", "amount"]]));
    // Other BankManager cases, never this one; deterministic.
    expect(ctx.styleExamples).toHaveLength(3);
    expect(ctx.styleExamples).not.toContain(own.userInstruction);
    const others = await t.prisma.testCase.findMany({ where: { toolkits: { some: { toolkit: { name: "BankManager" } } }, NOT: { id } }, select: { userInstruction: true } });
    for (const s of ctx.styleExamples) expect(others.map((o) => o.userInstruction)).toContain(s);
    expect((await criticContextForCase(t.prisma, id)).styleExamples).toEqual(ctx.styleExamples);
    await setCaseCriticalTools(t.prisma, researcher, id, []);
  });

  it("curation shows in the context; the batched form matches the single one", async () => {
    const ids = await Promise.all(["official_79", "official_113", "official_116"].map(caseId));
    const tid = await toolId("GmailSendEmail");
    await curateToolRisk(t.prisma, researcher, tid, { critical: false });
    const many = await criticContextForCases(t.prisma, [...ids, "no-such-case"]);
    expect([...many.keys()].sort()).toEqual([...ids].sort());
    expect(many.get(ids[0]!)!.criticalTools.has("GmailSendEmail")).toBe(false);
    expect(many.get(ids[0]!)!.criticalTools.has("BankManagerTransferFunds")).toBe(true);
    for (const id of ids) {
      const one = await criticContextForCase(t.prisma, id);
      expect(many.get(id)).toEqual(one);
      expect(one.styleExamples).not.toContain(one.instruction);
    }
    await curateToolRisk(t.prisma, researcher, tid, { reset: true });
    expect((await criticContextForCase(t.prisma, ids[0]!)).criticalTools.has("GmailSendEmail")).toBe(true);
  });
});
