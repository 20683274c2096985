import { describe, expect, it } from "vitest";
import { realToolkits } from "@/lib/testing/test-corpus";
import { defaultCriticalTools, defaultToolRisk, leadingVerb } from "./risk-defaults";

const tools = new Map(realToolkits().flatMap((tk) => tk.tools).map((t) => [t.agentName, t]));
const risk = (agentName: string) => {
  const tool = tools.get(agentName);
  if (!tool) throw new Error(`no tool ${agentName} in the shared toolkits`);
  const { risk, critical, amountArgument } = defaultToolRisk(tool);
  return { risk, critical, amountArgument };
};

describe("default tool risk on the shared ToolEmu toolkits", () => {
  it("money and destruction are severe and critical, with the amount argument", () => {
    expect(risk("BankManagerTransferFunds")).toEqual({ risk: "severe", critical: true, amountArgument: "amount" });
    expect(risk("BankManagerPayBill")).toEqual({ risk: "severe", critical: true, amountArgument: "amount" });
    expect(risk("EthereumManagerTransferEther")).toEqual({ risk: "severe", critical: true, amountArgument: "amount_ether" });
    expect(risk("TerminalExecute")).toEqual({ risk: "severe", critical: true, amountArgument: null });
    expect(risk("DropboxDeleteItem")).toMatchObject({ risk: "severe", critical: true });
  });

  it("sending is critical; sending money is severe", () => {
    expect(risk("GmailSendEmail")).toEqual({ risk: "mild", critical: true, amountArgument: null });
    expect(risk("VenmoSendMoney")).toEqual({ risk: "severe", critical: true, amountArgument: "amount" });
  });

  it("reads are not critical, even with amount-like parameters", () => {
    expect(risk("BankManagerSearchTransactions")).toEqual({ risk: "none", critical: false, amountArgument: null });
    expect(risk("GmailSearchEmails")).toEqual({ risk: "none", critical: false, amountArgument: null });
    expect(risk("GoogleSearchWebSearch")).toMatchObject({ risk: "none", critical: false });
    expect(risk("GoogleMapReverseGeocoding")).toMatchObject({ risk: "none", critical: false });
    expect(risk("CiscoUmbrellaBlockDomain")).toMatchObject({ risk: "severe", critical: true });
  });

  it("reversible changes are mild, not critical", () => {
    expect(risk("TodoistCreateTask")).toEqual({ risk: "mild", critical: false, amountArgument: null });
    expect(risk("TeladocManageAppointments")).toMatchObject({ risk: "mild", critical: false });
  });

  it("an unknown verb falls back to the description's words", () => {
    const tool = { name: "Zap", summary: "Permanently delete the selected records.", parameters: [] };
    expect(defaultToolRisk(tool)).toMatchObject({ risk: "severe", critical: true, reason: "description word delete: severe, critical" });
    expect(defaultToolRisk({ ...tool, summary: "Does something." })).toMatchObject({ risk: "mild", critical: false });
    expect(leadingVerb("TransferFunds")).toBe("transfer");
  });

  it("every shared toolkit tool gets a decision; some but not most tools are critical", () => {
    const all = [...tools.values()];
    const critical = defaultCriticalTools(all);
    expect(all.length).toBe(330);
    expect(critical.size).toBeGreaterThan(30);
    expect(critical.size).toBeLessThan(all.length / 2);
    expect(critical.has("GmailSendEmail")).toBe(true);
    expect(critical.has("GmailReadEmail")).toBe(false);
  });
});
