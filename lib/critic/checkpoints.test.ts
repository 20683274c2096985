import { describe, expect, it } from "vitest";
import { realToolkits, realTrajectories } from "@/lib/testing/test-corpus";
import { checkpoints, maskActionInput, MASK, renderChain, type CriticStep } from "./checkpoints";
import { defaultCriticalTools } from "./risk-defaults";

// Steps as the engine keeps them carry more than the critic may see: the agent's thought and the
// emulator's notes ride along here so the tests can check they never reach the chain.
const step = (action: string, input: object, n: number) => ({
  action,
  actionInputRaw: JSON.stringify(input),
  observation: `{"result": "OBS-${n}"}`,
  agentLog: `Thought: THOUGHT-${n}\nAction: ${action}`,
  simulatorSummary: `SUMMARY-${n}`,
});

const STEPS = [
  step("GmailSearchEmails", { keywords: ["invoice"] }, 1),
  step("BankManagerTransferFunds", { to_account_number: "123", amount: 500 }, 2),
  step("GmailReadEmail", { email_id: "e9" }, 3),
  step("GmailSendEmail", { to: "bob@example.com", body: "Paid the invoice from ACME" }, 4),
];
const CRITICAL = new Set(["BankManagerTransferFunds", "GmailSendEmail"]);

describe("InferAct checkpoints", () => {
  it("each critical step, then the final answer", () => {
    const cps = checkpoints({ steps: STEPS, finalAnswer: "Done." }, CRITICAL);
    expect(cps.map((c) => [c.index, c.pending.kind, c.earlier.length])).toEqual([
      [1, "tool", 1],
      [3, "tool", 3],
      [4, "final", 4],
    ]);
    expect(checkpoints({ steps: STEPS, finalAnswer: null }, CRITICAL)).toHaveLength(2);
    expect(checkpoints({ steps: [], finalAnswer: "No tools needed." }, CRITICAL)).toHaveLength(1);
  });

  it("S_i: earlier actions with observations, the pending action without its observation; no thoughts or emulator notes", () => {
    const [transfer, send, final] = checkpoints({ steps: STEPS, finalAnswer: "Done." }, CRITICAL).map(renderChain) as [string, string, string];
    expect(transfer).toBe(
      ['Action: GmailSearchEmails', 'Action Input: {"keywords":["invoice"]}', 'Observation: {"result": "OBS-1"}',
        'Action: BankManagerTransferFunds', 'Action Input: {"to_account_number":"123","amount":500}'].join("\n"),
    );
    expect(send).toContain("OBS-3");
    expect(send).not.toContain("OBS-4");
    expect(final.endsWith('Observation: {"result": "OBS-4"}\nFinal Answer: Done.')).toBe(true);
    for (const text of [transfer, send, final]) expect(text).not.toMatch(/THOUGHT|SUMMARY|Thought:/);
  });

  it("masks argument strings copied verbatim from the instruction (case and spacing aside)", () => {
    const instruction = "Pay the invoice from  acme and tell bob@example.com";
    expect(maskActionInput('{"to":"bob@example.com","body":"Paid the invoice from ACME","n":5}', instruction)).toBe(
      `{"to":"${MASK}","body":"Paid the invoice from ACME","n":5}`,
    );
    expect(maskActionInput('{"q":["invoice from ACME","zzz"],"x":{"y":"the"}}', instruction)).toBe(`{"q":["${MASK}","zzz"],"x":{"y":"the"}}`);
    expect(maskActionInput("not json", instruction)).toBe("not json");
    const send = checkpoints({ steps: STEPS, finalAnswer: null }, CRITICAL, { maskFromInstruction: instruction })[1]!;
    expect(send.pending).toEqual({ kind: "tool", action: "GmailSendEmail", input: `{"to":"${MASK}","body":"Paid the invoice from ACME"}` });
    expect(send.earlier[0]!.input).toBe(`{"keywords":["${MASK}"]}`);
  });

  it("on the shared trajectories: counts match the critical steps, and no thought reaches a chain", () => {
    const critical = defaultCriticalTools(realToolkits().flatMap((t) => t.tools));
    const trajectories = realTrajectories();
    expect(trajectories.length).toBe(144);
    let total = 0;
    for (const t of trajectories) {
      const steps: CriticStep[] = t.steps.map((s) => ({ action: s.tool, actionInputRaw: s.toolInput, observation: s.observation }));
      const cps = checkpoints({ steps, finalAnswer: t.finish?.output ?? null }, critical);
      expect(cps.length).toBe(t.steps.filter((s) => critical.has(s.tool)).length + (t.finish ? 1 : 0));
      total += cps.length;
      const thoughts = t.steps
        .map((s) => /Thought:\s*([^\n]{40,})/.exec(s.agentLog)?.[1])
        .filter((x): x is string => x !== undefined);
      for (const cp of cps) {
        const chain = renderChain(cp);
        for (const thought of thoughts) expect(chain.includes(thought), `${t.where}: a thought in the chain`).toBe(false);
      }
    }
    expect(total).toBeGreaterThan(144);
  });
});
