import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { parseJsonLenient } from "@/lib/trajectory/json-text";
import { parseEmulatorOutput, type EmulatorParse } from "./parse-emulator";
import { splitCritique } from "./self-critique";
import { realTools, realTrajectories } from "@/lib/testing/test-corpus";
import type { ToolSpec } from "@/lib/trajectory/types";

const tools = new Map(realTools().map((t) => [t.agentName, t]));
const tool = (name: string) => tools.get(name)!;

function ok(p: EmulatorParse) {
  if (!p.ok) throw new Error(`expected a valid observation, got: ${p.problem}`);
  return p;
}
function bad(p: EmulatorParse) {
  if (p.ok) throw new Error(`expected a problem, got ${JSON.stringify(p.observation)}`);
  return p;
}

// A tool with a number return and two declared exceptions, made up for the type and error rules.
const SPEC: ToolSpec = {
  agentName: "BankGetBalance",
  toolkit: "Bank",
  name: "GetBalance",
  summary: "Get the balance of an account.",
  parameters: [{ name: "account", type: "string", description: "account number", required: true }],
  returns: [
    { name: "balance", type: "number", description: "balance" },
    { name: "currency", type: "string", description: "currency" },
  ],
  exceptions: [
    { name: "NotFoundException", description: "no such account" },
    { name: "AuthorizationException", description: "not yours" },
  ],
};
const emu = (observation: string, pre = "Simulator Thought: The call is valid.\n\nSimulator Log Summary: Balance returned.\n\n") => parseEmulatorOutput(`${pre}Observation: ${observation}`, SPEC);

describe("parseEmulatorOutput on ToolEmu's real simulator logs (Qwen3-8B, adversarial)", () => {
  const steps = realTrajectories().flatMap((t) => t.steps);
  // ToolEmu stored the whole simulator log as the observation when its own code answered (input
  // check), and empty strings when it could not find an Observation in the emulator's output.
  const emulated = steps.filter((s) => s.simulatorLog !== "" && s.simulatorLog !== s.observation);

  it("has the corpus: 190 simulator logs (of 219 steps: 11 answered by ToolEmu's input checks, 18 empty)", () => {
    expect(emulated).toHaveLength(190);
    expect(steps.filter((s) => s.simulatorLog === "")).toHaveLength(18);
    expect(steps.filter((s) => s.simulatorLog !== "" && s.simulatorLog === s.observation)).toHaveLength(11);
  });

  it("173 yield exactly the recorded observation, summary and a thought; 17 are invalid: 7 with keys not matching the returns, 10 not complete JSON", () => {
    const results = { ok: 0, keys: 0, json: 0 };
    const unexpected: string[] = [];
    for (const s of emulated) {
      const t = tool(s.tool);
      const p = parseEmulatorOutput(s.simulatorLog, t);
      const recorded = parseJsonLenient(s.observation);
      if (p.ok) {
        results.ok++;
        if (!recorded.ok || !isDeepStrictEqual(recorded.value, p.observation)) unexpected.push(`${s.where}: observation differs`);
        if (p.summary !== s.simulatorSummary.trim()) unexpected.push(`${s.where}: summary differs`);
        if (!p.thought?.startsWith("1. Validate the tool call")) unexpected.push(`${s.where}: thought ${p.thought?.slice(0, 40)}`);
      } else if (/^Your Observation has the keys /.test(p.problem)) {
        results.keys++;
        // The recorded observation is valid JSON whose keys are not the tool's returns.
        const keys = recorded.ok ? Object.keys(recorded.value as object) : [];
        for (const k of keys.filter((k) => !t.returns.some((r) => r.name === k))) expect(p.problem).toContain(k);
        expect(p.problem).toContain(`${t.agentName} returns [${t.returns.map((r) => r.name).join(", ")}]`);
      } else {
        results.json++;
        // ToolEmu's recorded observation is not valid JSON either (cut off by the output limit,
        // or broken quoting).
        if (recorded.ok) unexpected.push(`${s.where}: ${p.problem}`);
        expect(p.problem).toMatch(/cut off|mismatched|not valid JSON/);
      }
    }
    expect(unexpected).toEqual([]);
    expect(results).toEqual({ ok: 173, keys: 7, json: 10 });
  });

  it("errors in the real observations use declared exceptions (30) or the generic InvalidRequestException (1)", () => {
    let declared = 0;
    let generic = 0;
    for (const s of emulated) {
      const t = tool(s.tool);
      const p = parseEmulatorOutput(s.simulatorLog, t);
      if (!p.ok || !("error" in p.observation)) continue;
      const name = String(p.observation.error).split(":")[0]!;
      if (t.exceptions.some((e) => e.name === name)) declared++;
      else if (name === "InvalidRequestException") generic++;
    }
    expect({ declared, generic }).toEqual({ declared: 30, generic: 1 });
  });

  it("never throws on any prefix of a real log", () => {
    for (const s of emulated.slice(0, 40)) {
      for (let cut = 0; cut <= s.simulatorLog.length; cut += Math.max(1, Math.floor(s.simulatorLog.length / 29))) {
        const p = parseEmulatorOutput(s.simulatorLog.slice(0, cut), tool(s.tool));
        expect(typeof p.ok).toBe("boolean");
      }
    }
  });
});

describe("parseEmulatorOutput: hand-made outputs", () => {
  it("the three sections", () => {
    expect(emu('{"balance": 12.5, "currency": "USD"}')).toEqual({
      ok: true,
      thought: "The call is valid.",
      summary: "Balance returned.",
      observation: { balance: 12.5, currency: "USD" },
      observationRaw: '{"balance": 12.5, "currency": "USD"}',
    });
  });

  it("labels in any case, bold, as headings; reasoning in <think> ignored", () => {
    const p = ok(
      parseEmulatorOutput(
        '<think>Observation: {"wrong": 1}</think>\n**Simulator Thought:** fine\n### simulator log summary\nok\n**Observation**:\n{"balance": 1, "currency": "EUR"}',
        SPEC,
      ),
    );
    expect(p).toMatchObject({ thought: "fine", summary: "ok", observation: { balance: 1, currency: "EUR" } });
  });

  it("a fenced observation, and trailing text after the JSON", () => {
    expect(ok(emu('```json\n{"balance": 1, "currency": "EUR"}\n```\nThat is all.')).observationRaw).toBe('{"balance": 1, "currency": "EUR"}');
    expect(ok(emu('{"balance": 1, "currency": "EUR"} Note: the balance is low. {"x": 1}')).observation).toEqual({ balance: 1, currency: "EUR" });
    expect(ok(emu('Here it is: {"balance": 1, "currency": "EUR"}')).observation).toEqual({ balance: 1, currency: "EUR" });
  });

  it("an output that is only a JSON object is taken as the observation", () => {
    expect(ok(parseEmulatorOutput('{"balance": 1, "currency": "EUR"}', SPEC))).toMatchObject({ thought: null, summary: null });
    expect(ok(parseEmulatorOutput('```json\n{"balance": 1, "currency": "EUR"}\n```', SPEC)).observation).toEqual({ balance: 1, currency: "EUR" });
  });

  it("without a thought label, the text before the first label is the thought", () => {
    expect(ok(parseEmulatorOutput('It is valid.\nSimulator Log Summary: s\nObservation: {"balance": 1, "currency": "EUR"}', SPEC)).thought).toBe("It is valid.");
  });

  it("the Observation after the log summary is the one taken (the thought may mention one)", () => {
    const p = ok(parseEmulatorOutput('Simulator Thought: an Observation: {"bad": 1} would be wrong\nSimulator Log Summary: s\nObservation: {"balance": 2, "currency": "EUR"}', SPEC));
    expect(p.observation).toEqual({ balance: 2, currency: "EUR" });
  });

  it("missing and extra keys are named, with the tool's returns", () => {
    expect(bad(emu('{"balance": 1}')).problem).toBe(
      'Your Observation has the keys [balance] but BankGetBalance returns [balance, currency] (missing [currency]). Return exactly those fields, or {"error": "<Exception>: <message>"} with one of [NotFoundException, AuthorizationException, InvalidRequestException].',
    );
    expect(bad(emu('{"balance": 1, "currency": "EUR", "owner": "x"}')).problem).toMatch(/^Your Observation has the keys \[balance, currency, owner\] but BankGetBalance returns \[balance, currency\] \(not returned by the tool: \[owner\]\)/);
    expect(bad(emu('{"success": false, "error": "NotFoundException: no"}')).problem).toMatch(/missing \[balance, currency\]; not returned by the tool: \[success, error\].*must be \{"error": "<Exception>: <message>"\} alone/);
  });

  it("return values of the wrong type are named; a number field accepts an integer", () => {
    expect(bad(emu('{"balance": "12", "currency": 1}')).problem).toBe("Your Observation has fields of the wrong type for BankGetBalance: balance should be number, not string; currency should be string, not integer.");
    expect(ok(emu('{"balance": 12, "currency": "USD"}')).observation.balance).toBe(12);
    expect(bad(emu('{"balance": null, "currency": "USD"}')).problem).toContain("balance should be number, not null");
  });

  it("errors: a declared exception or InvalidRequestException pass; others are named", () => {
    expect(ok(emu('{"error": "NotFoundException: The account 123 does not exist."}')).observation).toEqual({ error: "NotFoundException: The account 123 does not exist." });
    expect(ok(emu('{"error": "InvalidRequestException: account must be a number"}')).ok).toBe(true);
    expect(bad(emu('{"error": "ConflictException: busy"}')).problem).toBe(
      'Your Observation raises ConflictException, which BankGetBalance does not declare; use one of [NotFoundException, AuthorizationException, InvalidRequestException] as "<Exception>: <message>".',
    );
    expect(bad(emu('{"error": "The account does not exist"}')).problem).toMatch(/should read "<Exception>: <message>"/);
    expect(bad(emu('{"error": "NotFoundException:"}')).problem).toMatch(/should read "<Exception>: <message>"/);
    expect(bad(emu('{"error": {"code": 404}}')).problem).toMatch(/"error" must be a string of the form "<Exception>: <message>", not an object/);
  });

  it("a tool without declared exceptions still accepts InvalidRequestException", () => {
    const t = realTools().find((x) => x.exceptions.length === 0)!;
    expect(parseEmulatorOutput('Observation: {"error": "InvalidRequestException: no"}', t).ok).toBe(true);
  });

  it("broken outputs give a problem the engine can send back", () => {
    const hint = 'End your output with "Observation:" followed by exactly one JSON object with the fields [balance, currency], or {"error": "<Exception>: <message>"} using one of [NotFoundException, AuthorizationException, InvalidRequestException].';
    expect(parseEmulatorOutput("", SPEC)).toEqual({ ok: false, thought: null, summary: null, observationRaw: null, problem: `Your output is empty. ${hint}` });
    expect(bad(parseEmulatorOutput("Simulator Thought: hmm\nSimulator Log Summary: s", SPEC))).toMatchObject({ thought: "hmm", summary: "s", observationRaw: null, problem: `Your output has no "Observation:" section. ${hint}` });
    expect(bad(emu(""))).toMatchObject({ observationRaw: null, problem: `Your "Observation:" is empty. ${hint}` });
    expect(bad(emu("The balance is 12 USD."))).toMatchObject({ observationRaw: "The balance is 12 USD.", problem: `Your Observation is not a JSON object. ${hint}` });
    expect(bad(emu('{"balance": 12, "currency": "US'))).toMatchObject({ observationRaw: '{"balance": 12, "currency": "US', problem: expect.stringMatching(/^Your Observation's JSON is cut off/) });
    expect(bad(emu('The tool failed.\nSimulator Thought: retry {"balance": 1, "currency": "EUR"}')).problem).toMatch(/^Your Observation is not a JSON object\./);
    expect(bad(emu('[{"balance": 1}]')).problem).toMatch(/^Your Observation must be a JSON object, not an array\./);
    expect(bad(emu("{'balance': 1, 'currency': 'EUR'}")).problem).toMatch(/^Your Observation is not valid JSON \(/);
  });

  it("never throws (seeded random garbage)", () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const parts = ["Simulator Thought:", "Simulator Log Summary:", "Observation:", "{", "}", "[", "]", '"', "\\", "\n", " ", "```", '"error"', ":", '"balance"', "1", "<think>", "</think>"];
    for (let i = 0; i < 2000; i++) {
      let s = "";
      const n = Math.floor(rnd() * 30);
      for (let j = 0; j < n; j++) s += parts[Math.floor(rnd() * parts.length)];
      expect(typeof parseEmulatorOutput(s, SPEC).ok).toBe("boolean");
    }
    expect(parseEmulatorOutput(null as unknown as string, SPEC).ok).toBe(false);
  });
});

describe("self-critique answers", () => {
  it("split into the critique and the revised output, with or without labels", () => {
    expect(splitCritique("Critique: the balance contradicts step 2.\nSimulator Thought: fixed.\nSimulator Log Summary: s\nObservation: {}")).toEqual({
      critique: "the balance contradicts step 2.",
      revision: "Simulator Thought: fixed.\nSimulator Log Summary: s\nObservation: {}",
    });
    expect(splitCritique("**Critique**: none.\nRevised Simulator Thought: same.\nObservation: {}")).toEqual({ critique: "none.", revision: "Simulator Thought: same.\nObservation: {}" });
    expect(splitCritique("Observation: {}")).toEqual({ critique: null, revision: "Observation: {}" });
  });
});
