import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { toolSpecFromRow, toolSpecsFromToolkitJson } from "@/lib/trajectory/tool-spec";
import { checkToolInput, errorObservation, exampleValidInput, type InputCheck } from "./input-check";
import { parseAgentOutput } from "./parse-agent";
import { realToolkits, realTrajectories } from "@/lib/testing/test-corpus";
import type { ToolSpec } from "@/lib/trajectory/types";

const toolkits = realToolkits();
const tools = toolkits.flatMap((t) => t.tools);

function failure(r: InputCheck) {
  if (r.ok) throw new Error("expected the check to fail");
  return r;
}
/** The message inside the error observation (which must be valid JSON of the documented form). */
function message(r: InputCheck): string {
  const f = failure(r);
  const parsed = JSON.parse(f.error) as Record<string, unknown>;
  expect(Object.keys(parsed)).toEqual(["error"]);
  expect(parsed.error).toMatch(/^InvalidRequestException: /);
  return (parsed.error as string).slice("InvalidRequestException: ".length);
}

const WRONG: Record<string, { value: unknown; got: string }> = {
  string: { value: 42, got: "an integer" },
  integer: { value: "7", got: "a string" },
  number: { value: "1.5", got: "a string" },
  boolean: { value: "true", got: "a string" },
  array: { value: { a: 1 }, got: "an object" },
  object: { value: [1], got: "an array" },
};

describe("the real tool specs", () => {
  it("all_toolkits.json: 38 toolkits, 330 tools, agent names = name_for_model + tool name, all distinct", () => {
    expect(toolkits).toHaveLength(38);
    expect(tools).toHaveLength(330);
    expect(new Set(tools.map((t) => t.agentName)).size).toBe(330);
    expect(tools.find((t) => t.agentName === "TerminalExecute")).toMatchObject({ toolkit: "Terminal", name: "Execute" });
  });

  it("the file's quirks: 2 parameters without `required` become optional, 2 tools without `exceptions` get []", () => {
    const raw = JSON.parse(readFileSync(path.join(sharedDataDir(), "toolemu/all_toolkits.json"), "utf8")) as {
      name_for_model: string;
      tools: { name: string; exceptions?: unknown; parameters: { name: string; required?: boolean }[] }[];
    }[];
    const noRequired = raw.flatMap((tk) => tk.tools.flatMap((t) => t.parameters.filter((p) => p.required === undefined).map((p) => [tk.name_for_model + t.name, p.name] as const)));
    const noExceptions = raw.flatMap((tk) => tk.tools.filter((t) => t.exceptions === undefined).map((t) => tk.name_for_model + t.name));
    expect(noRequired).toHaveLength(2);
    expect(noExceptions).toHaveLength(2);
    for (const [agentName, param] of noRequired) expect(tools.find((t) => t.agentName === agentName)!.parameters.find((p) => p.name === param)!.required).toBe(false);
    for (const agentName of noExceptions) expect(tools.find((t) => t.agentName === agentName)!.exceptions).toEqual([]);
  });

  it("toolSpecsFromToolkitJson names the first invalid field", () => {
    expect(() => toolSpecsFromToolkitJson([{ toolkit: "X" }])).toThrow(/^toolkits\[0\]\.name_for_model: /);
    const tk = JSON.parse(readFileSync(path.join(sharedDataDir(), "toolemu/all_toolkits.json"), "utf8")) as unknown[];
    const broken = structuredClone(tk[0]) as { tools: { parameters: { type: string }[] }[] };
    broken.tools[0]!.parameters[0]!.type = "str";
    expect(() => toolSpecsFromToolkitJson([tk[1], broken])).toThrow(/^toolkits\[1\]\.tools\[0\]\.parameters\[0\]\.type: expected one of/);
  });

  it("toolSpecFromRow gives the same spec from a stored Tool row (JSON columns as imported)", () => {
    for (const tk of toolkits) {
      for (const t of tk.tools) {
        const row = { name: t.name, agentName: t.agentName, summary: t.summary, parameters: t.parameters, returns: t.returns, exceptions: t.exceptions };
        expect(toolSpecFromRow(tk.nameForModel, row)).toEqual(t);
      }
    }
  });

  it("toolSpecFromRow tolerates odd JSON: missing required → false, non-objects skipped, no agentName → computed", () => {
    const spec = toolSpecFromRow("Terminal", {
      name: "Execute",
      summary: "Run a command",
      parameters: [{ name: "command", type: "string", description: "the command" }, "junk", null],
      returns: null,
      exceptions: [{ name: "InvalidRequestException", description: "bad" }],
    });
    expect(spec).toEqual({
      agentName: "TerminalExecute",
      toolkit: "Terminal",
      name: "Execute",
      summary: "Run a command",
      parameters: [{ name: "command", type: "string", description: "the command", required: false }],
      returns: [],
      exceptions: [{ name: "InvalidRequestException", description: "bad" }],
    });
  });
});

describe("checkToolInput against every one of the 330 tools", () => {
  it("the generated valid input passes (and has a type-correct value for each required parameter only)", () => {
    for (const t of tools) {
      const input = exampleValidInput(t);
      expect(Object.keys(input).sort()).toEqual(t.parameters.filter((p) => p.required).map((p) => p.name).sort());
      const r = checkToolInput(tools, t.agentName, JSON.stringify(input));
      expect(r, t.agentName).toEqual({ ok: true, tool: t, input });
    }
  });

  it("an optional parameter of the right type passes too; a number parameter accepts an integer", () => {
    let n = 0;
    for (const t of tools) {
      for (const p of t.parameters) {
        const value = p.type === "number" ? 3 : ({ string: "x", integer: 2, boolean: false, array: ["a"], object: { k: "v" } } as Record<string, unknown>)[p.type];
        const r = checkToolInput(tools, t.agentName, JSON.stringify({ ...exampleValidInput(t), [p.name]: value }));
        expect(r.ok, `${t.agentName}.${p.name}`).toBe(true);
        n++;
      }
    }
    expect(n).toBe(728);
  });

  it("removing a required parameter gives missing_required naming it (each of the 458 required parameters)", () => {
    let n = 0;
    for (const t of tools) {
      for (const p of t.parameters.filter((x) => x.required)) {
        const input = exampleValidInput(t);
        delete input[p.name];
        const r = checkToolInput(tools, t.agentName, JSON.stringify(input));
        expect(failure(r).kind, `${t.agentName}.${p.name}`).toBe("missing_required");
        expect(failure(r).tool).toBe(t);
        expect(message(r)).toMatch(new RegExp(`^Missing required parameter: ${p.name}\\. `));
        n++;
      }
    }
    expect(n).toBe(458);
  });

  it("a wrong primitive type gives wrong_type naming the parameter, the expected and the given type (each of the 728 parameters)", () => {
    let n = 0;
    for (const t of tools) {
      for (const p of t.parameters) {
        const wrong = WRONG[p.type]!;
        const r = checkToolInput(tools, t.agentName, JSON.stringify({ ...exampleValidInput(t), [p.name]: wrong.value }));
        expect(failure(r).kind, `${t.agentName}.${p.name}`).toBe("wrong_type");
        expect(message(r)).toContain(`Invalid type: ${p.name} should be ${p.type === "integer" || p.type === "array" || p.type === "object" ? "an" : "a"} ${p.type}, got ${wrong.got}.`);
        n++;
      }
    }
    expect(n).toBe(728);
  });

  it("an integer parameter refuses a fraction; null is a wrong type (leave optional ones out)", () => {
    const tool = tools.find((t) => t.parameters.some((p) => p.type === "integer" && !p.required))!;
    const p = tool.parameters.find((x) => x.type === "integer" && !x.required)!;
    expect(message(checkToolInput(tools, tool.agentName, JSON.stringify({ ...exampleValidInput(tool), [p.name]: 1.5 })))).toContain(`${p.name} should be an integer, got a number`);
    const nul = checkToolInput(tools, tool.agentName, JSON.stringify({ ...exampleValidInput(tool), [p.name]: null }));
    expect(failure(nul).kind).toBe("wrong_type");
    expect(message(nul)).toContain(`${p.name} should be an integer, got null (leave an optional argument out instead of passing null)`);
  });

  it("a parameter the tool does not declare gives unexpected_parameter (as ToolEmu's check does)", () => {
    for (const t of tools) {
      const r = checkToolInput(tools, t.agentName, JSON.stringify({ ...exampleValidInput(t), not_a_parameter: 1 }));
      expect(failure(r).kind).toBe("unexpected_parameter");
      expect(message(r)).toMatch(/^Unexpected parameter: not_a_parameter \(/);
    }
  });

  it("a non-object gives not_object naming the problem", () => {
    const cases: [string, RegExp][] = [
      ["[]", /must be a JSON object, not an array/],
      ['"ls -la"', /must be a JSON object, not a string/],
      ["42", /must be a JSON object, not an integer/],
      ["null", /must be a JSON object, not null/],
      ["true", /must be a JSON object, not a boolean/],
      ["ls -la", /is not valid JSON \(/],
      ['{"command": "ls"', /is not valid JSON \(/],
      ["{'command': 'ls'}", /is not valid JSON \(/],
      ["", /is missing/],
      ["   ", /is missing/],
    ];
    for (const t of tools) {
      for (const [raw, re] of cases) {
        const r = checkToolInput(tools, t.agentName, raw);
        expect(failure(r).kind, `${t.agentName} ${raw}`).toBe("not_object");
        expect(message(r)).toMatch(re);
        expect(message(r)).toContain(t.parameters.length ? "its arguments are" : "it takes no arguments");
      }
    }
  });

  it("an unknown tool gives unknown_tool listing the valid names (of the tools the agent was given)", () => {
    for (const tk of toolkits) {
      const r = checkToolInput(tk.tools, "NoSuchTool", "{}");
      expect(failure(r)).toMatchObject({ kind: "unknown_tool", tool: null });
      expect(message(r)).toBe(
        `NoSuchTool is not a valid tool. The available tools are [${tk.tools.map((t) => t.agentName).join(", ")}]; use one of them, or, if no tool is needed, give your Final Answer.`,
      );
    }
    expect(message(checkToolInput(tools, "terminalexecute", "{}"))).toMatch(/^terminalexecute is not a valid tool \(did you mean TerminalExecute\?\)/);
    expect(message(checkToolInput(tools, "", "{}"))).toMatch(/^No tool name was given\. /);
    // A tool of another toolkit is unknown when the agent was not given it.
    expect(failure(checkToolInput(toolkits[0]!.tools, toolkits[1]!.tools[0]!.agentName, "{}")).kind).toBe("unknown_tool");
  });
});

describe("checkToolInput on the real runs", () => {
  it("accepts exactly the calls ToolEmu accepted and rejects the 11 it rejected, for the same reasons", () => {
    const byName = new Map(toolkits.map((t) => [t.name, t.tools]));
    const got: Record<string, number> = {};
    const disagreements: string[] = [];
    let n = 0;
    for (const traj of realTrajectories()) {
      const given = traj.toolkits.flatMap((name) => byName.get(name)!);
      for (const s of traj.steps) {
        const p = parseAgentOutput(s.agentLog);
        if (p.kind !== "action") throw new Error(s.where);
        const r = checkToolInput(given, p.action, p.actionInputRaw);
        n++;
        // ToolEmu's code-made observations are those equal to the whole simulator log (no emulator ran).
        const toolEmuRejected = s.observation !== "" && s.observation === s.simulatorLog;
        if (r.ok === toolEmuRejected) disagreements.push(`${s.where}: ours ${r.ok ? "ok" : failure(r).error} / ToolEmu ${s.observation.slice(0, 120)}`);
        if (!r.ok) got[r.kind] = (got[r.kind] ?? 0) + 1;
      }
    }
    expect(disagreements).toEqual([]);
    expect(n).toBe(219);
    expect(got).toEqual({ unknown_tool: 7, unexpected_parameter: 2, wrong_type: 2 });
  });

  it("accepts what ToolEmu's loader accepts: raw newlines inside strings, Python True/False", () => {
    const tool = tools.find((t) => t.agentName === "GmailSendEmail") as ToolSpec;
    const r = checkToolInput(tools, tool.agentName, '{"to": "a@b.com", "subject": "Hi", "body": "Line 1\nLine 2"}');
    expect(r).toMatchObject({ ok: true, input: { body: "Line 1\nLine 2" } });
  });
});

describe("errorObservation", () => {
  it("is one JSON object with an error string, the exception name first", () => {
    expect(errorObservation('bad "input"\nhere')).toBe('{"error": "InvalidRequestException: bad \\"input\\"\\nhere"}');
    expect(JSON.parse(errorObservation("x", "NotFoundException"))).toEqual({ error: "NotFoundException: x" });
  });
});
