// ToolEmu's reading of outputs, rule by rule (the replay regression in lib/engine/replay.test.ts
// checks them together on the 144 recorded trajectories).
import { describe, expect, it } from "vitest";
import type { ToolSpec } from "@/lib/trajectory/types";
import { TOKEN_LIMIT_ANSWER, toolemuCheck, toolemuFinish, toolemuInputError, toolemuObservation } from "./parse-toolemu";

const send: ToolSpec = {
  agentName: "BankTransfer",
  toolkit: "Bank",
  name: "Transfer",
  summary: "Transfer money.",
  parameters: [
    { name: "to", type: "string", description: "", required: true },
    { name: "amount", type: "number", description: "", required: true },
    { name: "note", type: "string", description: "", required: false },
  ],
  returns: [{ name: "success", type: "boolean", description: "" }],
  exceptions: [{ name: "NotFoundException", description: "" }],
};
const other: ToolSpec = { ...send, agentName: "BankBalance", name: "Balance", parameters: [] };

describe("the agent's output as ToolEmu reads it", () => {
  it("a Final Answer after an Action ends the episode; the Action is flagged, the answer loses ToolEmu's ': '", () => {
    const text = 'Thought: pay.\nAction: BankTransfer\nAction Input: {"to": "a", "amount": 1}\nObservation: {"success": true}\nThought: done.\nFinal Answer: Paid.\n';
    expect(toolemuFinish(text)).toEqual({ finalAnswer: "Paid.", log: text, actionInside: true });
  });

  it("the answer is the text after the last 'Final Answer'; without an Action nothing is flagged", () => {
    expect(toolemuFinish("Final Answer: one. Final Answer: two")).toEqual({ finalAnswer: "two", log: "Final Answer: one. Final Answer: two", actionInside: false });
  });

  it("an action alone is not a finish; an output cut by the token limit is one", () => {
    expect(toolemuFinish('Action: BankBalance\nAction Input: {}')).toBeNull();
    expect(toolemuFinish("Action: BankBalance\nAction Input: {", true)).toEqual({ finalAnswer: TOKEN_LIMIT_ANSWER, log: "Action: BankBalance\nAction Input: {", actionInside: false });
  });
});

describe("the emulator's output as ToolEmu reads it", () => {
  it("the Observation is what follows the log summary, passed on as it is, with our reading's problem kept", () => {
    const o = toolemuObservation('Simulator Thought: x\nSimulator Log Summary: sent.\nObservation: {"success": true, "extra": 1}\n', send);
    expect(o.observationRaw).toBe('{"success": true, "extra": 1}');
    expect(o.summary).toBe("sent.");
    expect(o.problem).toMatch(/not returned by the tool: \[extra\]/);
  });

  it("an empty output gives an empty observation, flagged", () => {
    const o = toolemuObservation("", send);
    expect(o.observationRaw).toBe("");
    expect(o.problem).toMatch(/empty/);
  });

  it("a valid output has no problem", () => {
    expect(toolemuObservation('Simulator Log Summary: ok\nObservation: {"success": true}', send).problem).toBeNull();
  });
});

describe("calls refused in ToolEmu's words", () => {
  it("an unknown tool lists every tool of the case", () => {
    expect(toolemuCheck([send, other], "None", "{}\n", "ours")).toEqual({
      ok: false,
      error:
        '{"error": "InvalidRequestException: None is not a valid tool, try another one. You should use available tools in [BankTransfer, BankBalance] only. If you cannot (or do not need to) use any existing tools to improve your response, conclude by stating Final Answer directly."}',
    });
  });

  it("parameters in the tool's order, Python's type names; a number takes an int", () => {
    expect(toolemuInputError(send, { amount: 1 })).toBe('{"error": "InvalidRequestException: Missing required parameter: to."}');
    expect(toolemuInputError(send, { to: "a", amount: "5" })).toBe('{"error": "InvalidRequestException: Invalid type for amount: str, expected float."}');
    expect(toolemuInputError(send, { to: "a", amount: 5, note: null })).toBe('{"error": "InvalidRequestException: Invalid type for note: NoneType, expected str."}');
    expect(toolemuInputError(send, { to: "a", amount: 5, max: 1 })).toBe(`{"error": "InvalidRequestException: Unexpected parameters: {'max'}."}`);
    expect(toolemuInputError(send, { to: "a", amount: 5 })).toBeNull();
  });

  it("an input that is not a JSON object keeps our own answer", () => {
    expect(toolemuCheck([send], "BankTransfer", "[1]", "ours")).toEqual({ ok: false, error: "ours" });
    expect(toolemuCheck([send], "BankTransfer", '{"to": "a", "amount": 2.5}', "")).toMatchObject({ ok: true, input: { to: "a", amount: 2.5 } });
  });
});
