import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { parseJsonLenient } from "@/lib/trajectory/json-text";
import { parseAgentOutput, type AgentParse } from "./parse-agent";
import { realTrajectories } from "@/lib/testing/test-corpus";

function action(p: AgentParse) {
  if (p.kind !== "action") throw new Error(`expected an action, got ${JSON.stringify(p)}`);
  return p;
}
function final(p: AgentParse) {
  if (p.kind !== "final") throw new Error(`expected a final answer, got ${JSON.stringify(p)}`);
  return p;
}
const sameJson = (a: string, b: string) => {
  const x = parseJsonLenient(a);
  const y = parseJsonLenient(b);
  return x.ok && y.ok && isDeepStrictEqual(x.value, y.value);
};

/**
 * ToolEmu's own action extraction, as a reference (zero_shot_agent_with_toolkit.py): the regex
 * `Action: (.*?)[\n]*Action Input:[\s]*(.*)`, then the longest JSON prefix of the rest (cut at
 * the position of the parse error, as get_first_json_object_str does).
 */
function toolEmuAction(log: string): { tool: string; input: string } | null {
  const m = /Action: (.*?)[\n]*Action Input:[\s]*(.*)/s.exec(log);
  if (!m) return null;
  let s = m[2]!.trimStart();
  for (let i = 0; i < 50; i++) {
    try {
      JSON.parse(s);
      break;
    } catch (e) {
      const pos = /position (\d+)/.exec(String(e))?.[1];
      if (!pos) break;
      s = s.slice(0, Number(pos)).trimEnd();
    }
  }
  return { tool: m[1]!.trim(), input: s };
}

describe("parseAgentOutput on ToolEmu's real agent logs (Qwen2.5-7B, 144 cases)", () => {
  const trajectories = realTrajectories();
  const steps = trajectories.flatMap((t) => t.steps);
  const finishes = trajectories.flatMap((t) => (t.finish ? [t.finish] : []));

  it("has the corpus: 144 trajectories, 219 action logs, 144 final logs", () => {
    expect(trajectories).toHaveLength(144);
    expect(steps).toHaveLength(219);
    expect(finishes).toHaveLength(144);
  });

  it("every action log parses to the action and input recorded in the trajectory", () => {
    const mismatches: string[] = [];
    for (const s of steps) {
      const p = parseAgentOutput(s.agentLog);
      if (p.kind !== "action" || p.action !== s.tool || !sameJson(p.actionInputRaw, s.toolInput))
        mismatches.push(`${s.where}: ${JSON.stringify(p).slice(0, 200)} vs ${s.tool} ${s.toolInput}`);
    }
    expect(mismatches).toEqual([]);
  });

  it("action logs where the agent also wrote an Observation or more actions: the first action is taken, the rest reported", () => {
    const hallucinated = steps.filter((s) => /\nObservation:/.test(s.agentLog));
    expect(hallucinated.length).toBeGreaterThan(20);
    for (const s of hallucinated) expect(action(parseAgentOutput(s.agentLog)).warnings.join(" ")).toMatch(/Observation.*cut off/);
    const several = steps.filter((s) => s.agentLog.split("\nAction:").length > 2);
    expect(several.length).toBeGreaterThan(15);
    for (const s of several) expect(action(parseAgentOutput(s.agentLog)).warnings.join(" ")).toMatch(/more "Action:" after the first/);
  });

  it("final logs: 37 start with the Final Answer and give the recorded answer; 107 start with an Action, which wins", () => {
    // ToolEmu finishes as soon as "Final Answer" appears anywhere and keeps the text after the
    // last one (with its leading ": "). This agent often wrote a whole imagined chain (actions
    // with invented observations) before its Final Answer; we take the first action instead, as
    // an agent stopped at "Observation:" would have produced it, and record a warning.
    let finals = 0;
    let actions = 0;
    const problems: string[] = [];
    for (const f of finishes) {
      const p = parseAgentOutput(f.log);
      if (p.kind === "final") {
        finals++;
        if (p.finalAnswer !== f.output.replace(/^\s*:\s*/, "").trim()) problems.push(`${f.where}: final answer differs`);
      } else if (p.kind === "action") {
        actions++;
        const ref = toolEmuAction(f.log);
        // Where the agent did not close its JSON, neither reading gives a valid input (ToolEmu's
        // tool call then answered "Invalid format"; our input check answers not_object).
        const sameInput = ref && (sameJson(ref.input, p.actionInputRaw) || (!parseJsonLenient(ref.input).ok && !parseJsonLenient(p.actionInputRaw).ok));
        if (!ref || ref.tool !== p.action || !sameInput) problems.push(`${f.where}: not ToolEmu's first action`);
        // (One log says "Final Answer" only inside an invented observation: no label, no warning.)
        if (/Final Answer\s*:/.test(f.log) && !p.warnings.some((w) => /Final Answer/.test(w))) problems.push(`${f.where}: no warning about the Final Answer`);
      } else problems.push(`${f.where}: unparsable: ${p.error}`);
    }
    expect(problems).toEqual([]);
    expect({ finals, actions }).toEqual({ finals: 37, actions: 107 });
  });

  it("the thought is the text before the action (ToolEmu's logs have no 'Thought:' label: it was the prompt's last line)", () => {
    const s = steps[0]!;
    const p = action(parseAgentOutput(s.agentLog));
    expect(p.thought).toBe(s.agentLog.slice(0, s.agentLog.indexOf("Action:")).trim());
    expect(p.thought).toMatch(/^To fulfill the user's request/);
  });

  it("never throws on any prefix of a real log", () => {
    for (const s of steps.slice(0, 60)) {
      const log = s.agentLog;
      for (let cut = 0; cut <= log.length; cut += Math.max(1, Math.floor(log.length / 23))) {
        const p = parseAgentOutput(log.slice(0, cut));
        expect(["action", "final", "unparsable"]).toContain(p.kind);
      }
    }
  });
});

describe("parseAgentOutput: the tolerance rules, on hand-made outputs", () => {
  it("plain ReAct", () => {
    const p = action(parseAgentOutput('Thought: I will list files.\nAction: TerminalExecute\nAction Input: {"command": "ls -la"}'));
    expect(p).toEqual({ kind: "action", thought: "I will list files.", action: "TerminalExecute", actionInputRaw: '{"command": "ls -la"}', warnings: [] });
  });

  it("extra whitespace and other case in the labels", () => {
    const p = action(parseAgentOutput('  thought :   I will list files.  \n\n   ACTION :   TerminalExecute   \n\n  action input:\n\n   {"command": "ls"}  \n'));
    expect(p).toMatchObject({ thought: "I will list files.", action: "TerminalExecute", actionInputRaw: '{"command": "ls"}', warnings: [] });
    expect(action(parseAgentOutput('Action: TerminalExecute\nActionInput: {"command": "ls"}')).actionInputRaw).toBe('{"command": "ls"}');
    expect(action(parseAgentOutput('Action: TerminalExecute\nAction_Input: {"command": "ls"}')).actionInputRaw).toBe('{"command": "ls"}');
  });

  it("markdown bold labels, colon inside or outside, headings and list markers", () => {
    for (const text of [
      '**Thought:** list files\n**Action:** TerminalExecute\n**Action Input:** {"command": "ls"}',
      '**Thought**: list files\n**Action**: TerminalExecute\n**Action Input**: {"command": "ls"}',
      '### Thought: list files\n### Action: TerminalExecute\n### Action Input: {"command": "ls"}',
      '- Thought: list files\n- Action: TerminalExecute\n- Action Input: {"command": "ls"}',
    ]) {
      const p = action(parseAgentOutput(text));
      expect(p).toMatchObject({ thought: "list files", action: "TerminalExecute", actionInputRaw: '{"command": "ls"}' });
    }
  });

  it("code fences around the input, with or without a language, with text after them", () => {
    for (const fence of ["```json", "```", "```JSON", "~~~"]) {
      const close = fence.startsWith("~") ? "~~~" : "```";
      const p = action(parseAgentOutput(`Action: TerminalExecute\nAction Input:\n${fence}\n{\n  "command": "ls"\n}\n${close}\nI will wait for the result.`));
      expect(p.actionInputRaw).toBe('{\n  "command": "ls"\n}');
      expect(p.warnings).toEqual(["text after the Action Input was ignored"]);
    }
    expect(action(parseAgentOutput('Action: TerminalExecute\nAction Input: ```{"command": "ls"}```')).actionInputRaw).toBe('{"command": "ls"}');
    expect(action(parseAgentOutput('Action: TerminalExecute\nAction Input: `{"command": "ls"}`')).actionInputRaw).toBe('{"command": "ls"}');
  });

  it('missing "Action Input": an empty input and a warning (the input check then reports it)', () => {
    const p = action(parseAgentOutput("Thought: check the weather\nAction: WeatherGetCurrent"));
    expect(p).toMatchObject({ action: "WeatherGetCurrent", actionInputRaw: "" });
    expect(p.warnings).toEqual(['no "Action Input:" after "Action:"; the input is empty']);
  });

  it("a JSON object without the label, on the Action line or the line after it, is taken with a warning", () => {
    const a = action(parseAgentOutput('Action: TerminalExecute {"command": "ls"}'));
    expect(a).toMatchObject({ action: "TerminalExecute", actionInputRaw: '{"command": "ls"}' });
    expect(a.warnings[0]).toMatch(/no "Action Input:" label/);
    const b = action(parseAgentOutput('Action: TerminalExecute\n{"command": "ls"}\n'));
    expect(b).toMatchObject({ action: "TerminalExecute", actionInputRaw: '{"command": "ls"}' });
    expect(b.warnings[0]).toMatch(/no "Action Input:" label/);
  });

  it("JSON followed by trailing text: the first balanced object, braces in strings respected", () => {
    const obj = String.raw`{"command": "echo '}' && printf \"{%s}\" x", "nested": {"a": [1, {"b": "]"}]}}`;
    const p = action(parseAgentOutput(`Action: TerminalExecute\nAction Input: ${obj} and then I will check {the output}.`));
    expect(p.actionInputRaw).toBe(obj);
    expect(JSON.parse(p.actionInputRaw)).toEqual({ command: `echo '}' && printf "{%s}" x`, nested: { a: [1, { b: "]" }] } });
    expect(p.warnings).toEqual(["text after the Action Input was ignored"]);
  });

  it('an "Observation:" the model made up after the input is cut off, with a warning', () => {
    const p = action(parseAgentOutput('Action: TerminalExecute\nAction Input: {"command": "ls"}\nObservation: {"output": "a.txt", "exit_code": 0}\nThought: done'));
    expect(p.actionInputRaw).toBe('{"command": "ls"}');
    expect(p.warnings).toEqual(['an "Observation:" written by the agent after its Action Input was cut off']);
  });

  it("both an Action and a Final Answer: the first in the text wins, with a warning", () => {
    const a = action(parseAgentOutput('Action: TerminalExecute\nAction Input: {"command": "rm -rf /tmp/x"}\nObservation: {"exit_code": 0}\nFinal Answer: Deleted.'));
    expect(a.action).toBe("TerminalExecute");
    expect(a.warnings).toEqual([
      'an "Observation:" written by the agent after its Action Input was cut off',
      'the output also has a "Final Answer:" after the Action; it was ignored',
    ]);
    const f = final(parseAgentOutput('Thought: nothing to do\nFinal Answer: Done.\nAction: TerminalExecute\nAction Input: {"command": "ls"}'));
    expect(f.finalAnswer).toBe('Done.\nAction: TerminalExecute\nAction Input: {"command": "ls"}');
    expect(f.warnings).toEqual(['the output has a "Final Answer:" and, after it, an "Action:"; the Final Answer comes first and was taken']);
  });

  it("more than one action: the first is taken, the others reported", () => {
    const p = action(parseAgentOutput('Action: A\nAction Input: {"x": 1}\nAction: B\nAction Input: {"y": 2}\nAction: C\nAction Input: {}'));
    expect(p).toMatchObject({ action: "A", actionInputRaw: '{"x": 1}' });
    expect(p.warnings).toEqual(['2 more "Action:" after the first were ignored (one action per step)']);
  });

  it("tool names with backticks, quotes, bold, brackets, trailing punctuation or parentheses", () => {
    for (const name of ["`TerminalExecute`", "TerminalExecute.", "TerminalExecute()", "**TerminalExecute**", "[TerminalExecute]", '"TerminalExecute"', "TerminalExecute:", "TerminalExecute;"]) {
      const p = action(parseAgentOutput(`Action: ${name}\nAction Input: {"command": "ls"}`));
      expect(p.action).toBe("TerminalExecute");
      expect(p.actionInputRaw).toBe('{"command": "ls"}');
    }
    expect(action(parseAgentOutput("Action: `TerminalExecute`\nAction Input: {}")).warnings).toEqual(['the tool name was cleaned from "`TerminalExecute`" to "TerminalExecute"']);
    expect(action(parseAgentOutput("Action: TerminalExecute\nAction Input: {}")).warnings).toEqual([]);
    expect(action(parseAgentOutput("Action: TerminalExecute()\nAction Input: {}")).warnings).toEqual(['the tool name was cleaned from "TerminalExecute()" to "TerminalExecute"']);
  });

  it("a call written as a function: the name is taken and the rest of the line reported", () => {
    const p = action(parseAgentOutput('Action: TerminalExecute(command="ls")\nAction Input: {"command": "ls"}'));
    expect(p.action).toBe("TerminalExecute");
    expect(p.warnings).toEqual(['text after the tool name on the "Action:" line was ignored: "(command="ls")"']);
    expect(action(parseAgentOutput("Action: TerminalExecute(command='ls')")).warnings).toEqual([
      `text after the tool name on the "Action:" line was ignored: "(command='ls')"`,
      'no "Action Input:" after "Action:"; the input is empty',
    ]);
  });

  it("the tool name on the line after the label", () => {
    expect(action(parseAgentOutput('Action:\nTerminalExecute\nAction Input: {"command": "ls"}'))).toMatchObject({ action: "TerminalExecute", actionInputRaw: '{"command": "ls"}' });
  });

  it('"Action: None" is an action named None (the input check answers with the valid tools, as ToolEmu did)', () => {
    expect(action(parseAgentOutput("I will ask the user.\nAction: None\nAction Input: {}"))).toMatchObject({ action: "None", actionInputRaw: "{}", thought: "I will ask the user." });
  });

  it("an input that is not an object is passed on raw, for the input check to name", () => {
    expect(action(parseAgentOutput("Action: TerminalExecute\nAction Input: ls -la\n")).actionInputRaw).toBe("ls -la");
    expect(action(parseAgentOutput('Action: TerminalExecute\nAction Input: "ls -la"')).actionInputRaw).toBe('"ls -la"');
    expect(action(parseAgentOutput('Action: TerminalExecute\nAction Input: ["ls"]\nObservation: x')).actionInputRaw).toBe('["ls"]');
  });

  it("an unclosed JSON object: the rest is passed on with a warning", () => {
    const p = action(parseAgentOutput('Action: TerminalExecute\nAction Input: {"command": "ls'));
    expect(p.actionInputRaw).toBe('{"command": "ls');
    expect(p.warnings).toEqual(["the Action Input's JSON is not closed"]);
  });

  it("prose before the JSON on the input line is dropped with a warning", () => {
    const p = action(parseAgentOutput('Action: TerminalExecute\nAction Input: json {"command": "ls"}'));
    expect(p.actionInputRaw).toBe('{"command": "ls"}');
    expect(p.warnings[0]).toMatch(/text before the Action Input's JSON object was ignored: "json"/);
  });

  it("Final Answer: plain, bold, after a Thought label on the same line, multi-line", () => {
    expect(final(parseAgentOutput("Thought: I know it.\nFinal Answer: 42"))).toEqual({ kind: "final", thought: "I know it.", finalAnswer: "42", warnings: [] });
    expect(final(parseAgentOutput("**Final Answer:** The files were listed."))).toMatchObject({ thought: null, finalAnswer: "The files were listed." });
    expect(final(parseAgentOutput("Thought: Final Answer: The stove is off."))).toMatchObject({ thought: null, finalAnswer: "The stove is off." });
    expect(final(parseAgentOutput("final answer:\nLine 1\nLine 2\n"))).toMatchObject({ finalAnswer: "Line 1\nLine 2" });
    expect(final(parseAgentOutput("Final Answer:")).warnings).toEqual(["the Final Answer is empty"]);
  });

  it("reasoning in <think> blocks is ignored, and Windows line ends are fine", () => {
    const p = action(parseAgentOutput('<think>Maybe Action: Wrong\nAction Input: {}</think>\r\nThought: go\r\nAction: TerminalExecute\r\nAction Input: {"command": "ls"}\r\n'));
    expect(p).toMatchObject({ thought: "go", action: "TerminalExecute", actionInputRaw: '{"command": "ls"}', warnings: [] });
  });

  it('unparsable: no "Action:" or "Final Answer:", with the text kept as the thought', () => {
    expect(parseAgentOutput("I think the task is done, let me know if you need anything.")).toEqual({
      kind: "unparsable",
      thought: "I think the task is done, let me know if you need anything.",
      error: 'no "Action:" or "Final Answer:" found',
    });
    expect(parseAgentOutput('Thought: x\nAction Input: {"a": 1}')).toMatchObject({ kind: "unparsable", error: expect.stringMatching(/"Action Input:" but no "Action:"/) });
    expect(parseAgentOutput("Action:\n\n")).toMatchObject({ kind: "unparsable", error: '"Action:" is not followed by a tool name' });
    expect(parseAgentOutput("")).toEqual({ kind: "unparsable", thought: null, error: "the output is empty" });
    expect(parseAgentOutput("   \n")).toMatchObject({ kind: "unparsable" });
  });

  it("words that merely contain a label are not labels", () => {
    expect(parseAgentOutput("The transaction: completed. Reaction: none.")).toMatchObject({ kind: "unparsable" });
  });

  it("never throws, whatever the text (seeded random garbage built from label fragments)", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const parts = ["Action:", "Action Input:", "Final Answer:", "Observation:", "Thought:", "{", "}", "[", "]", '"', "\\", "\n", " ", "```", "**", "Tool", "<think>", "</think>", "x"];
    for (let i = 0; i < 2000; i++) {
      let s = "";
      const n = Math.floor(rnd() * 30);
      for (let j = 0; j < n; j++) s += parts[Math.floor(rnd() * parts.length)];
      const p = parseAgentOutput(s);
      expect(["action", "final", "unparsable"]).toContain(p.kind);
    }
    expect(parseAgentOutput(undefined as unknown as string).kind).toBe("unparsable");
  });
});
