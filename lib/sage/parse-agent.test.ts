// Reading the SAGE agent's JSON answer: the asked-for shapes, the common variants, and every
// problem located (line:column) and named.
import { describe, expect, it } from "vitest";
import { findJsonObjects, lineColumn } from "./find-json";
import { actionJson, parseSageAgentOutput } from "./parse-agent";

const TOOLS = ["inspect_workspace_storage_items", "request_file_owner_confirmation", "delete_selected_workspace_files"];

describe("finding JSON objects in text", () => {
  it("finds top-level objects around prose and fences, respecting strings with braces", () => {
    const text = 'Sure.\n```json\n{"a": "x } y", "b": {"c": 1}}\n```\nand {"d": 2}';
    const found = findJsonObjects(text);
    expect(found.map((c) => c.value)).toEqual([{ a: "x } y", b: { c: 1 } }, { d: 2 }]);
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe('{"a": "x } y", "b": {"c": 1}}');
  });

  it("locates a parse error and an object that never closes", () => {
    const [bad] = findJsonObjects('intro\n{"a": 1,, "b": 2}');
    expect(bad!.error).toMatch(/^line 2, column \d+: /);
    const [open] = findJsonObjects('x {"a": {"b": 1}');
    expect(open!.error).toBe("line 1, column 3: the object opened here is never closed");
    expect(lineColumn("ab\ncd", 4)).toBe("line 2, column 2");
  });
});

describe("parseSageAgentOutput", () => {
  it("reads the asked-for tool call and final answer", () => {
    const r = parseSageAgentOutput('{"type": "tool_call", "tool": "inspect_workspace_storage_items", "arguments": {"folder": "exports"}, "reason": "look first"}', TOOLS);
    expect(r).toEqual({ ok: true, action: { kind: "tool_call", tool: "inspect_workspace_storage_items", arguments: { folder: "exports" }, reason: "look first" }, start: 0, end: expect.any(Number) });
    expect(parseSageAgentOutput('{"type": "final_answer", "message": " I need the owners to confirm. "}')).toMatchObject({ ok: true, action: { kind: "final_answer", message: "I need the owners to confirm." } });
  });

  it("tolerates prose, a fence, key variants, arguments as a JSON string, a nested call and repeated identical objects", () => {
    expect(parseSageAgentOutput('I will check.\n```json\n{"tool_name": "inspect_workspace_storage_items", "args": "{\\"x\\": 1}"}\n```', TOOLS)).toMatchObject({
      ok: true,
      action: { kind: "tool_call", tool: "inspect_workspace_storage_items", arguments: { x: 1 }, reason: null },
    });
    expect(parseSageAgentOutput('{"tool_call": {"name": "request_file_owner_confirmation", "parameters": {"owners": ["a"]}}}', TOOLS)).toMatchObject({
      ok: true,
      action: { kind: "tool_call", tool: "request_file_owner_confirmation", arguments: { owners: ["a"] } },
    });
    expect(parseSageAgentOutput('{"final_answer": "Done."}')).toMatchObject({ ok: true, action: { kind: "final_answer", message: "Done." } });
    expect(parseSageAgentOutput('{"type": "tool_call", "tool": "inspect_workspace_storage_items"}', TOOLS)).toMatchObject({ ok: true, action: { arguments: {} } });
    const twice = '{"type": "final_answer", "message": "ok"}\n{"type": "final_answer", "message": "ok"}';
    expect(parseSageAgentOutput(twice)).toMatchObject({ ok: true, start: 0 });
  });

  it("names each problem: empty, no JSON, invalid JSON with its place, not an action, bad fields, two actions, unknown tool", () => {
    expect(parseSageAgentOutput("  ")).toMatchObject({ ok: false, code: "empty" });
    expect(parseSageAgentOutput("I will delete the files now.")).toMatchObject({ ok: false, code: "no-json", problem: expect.stringContaining('"I will delete the files now."') });
    expect(parseSageAgentOutput('{"type": "tool_call", "tool": "x", "arguments": {"cut off here')).toMatchObject({ ok: false, code: "invalid-json", problem: expect.stringMatching(/line 1, column 1: .*never closed/) });
    expect(parseSageAgentOutput('Answer:\n{"type": "tool_call" "tool": "x"}')).toMatchObject({ ok: false, code: "invalid-json", problem: expect.stringMatching(/^invalid JSON: line 2, column \d+/) });
    expect(parseSageAgentOutput('{"status": "thinking"}')).toMatchObject({ ok: false, code: "not-an-action" });
    expect(parseSageAgentOutput('{"type": "dance"}')).toMatchObject({ ok: false, code: "not-an-action", problem: expect.stringContaining('"type" is "dance"') });
    expect(parseSageAgentOutput('{"type": "final_answer", "message": ""}')).toMatchObject({ ok: false, code: "bad-field", problem: expect.stringContaining('"message"') });
    expect(parseSageAgentOutput('{"type": "tool_call", "tool": 7}')).toMatchObject({ ok: false, code: "bad-field", problem: expect.stringContaining('"tool"') });
    expect(parseSageAgentOutput('{"type": "tool_call", "tool": "x", "arguments": [1]}')).toMatchObject({ ok: false, code: "bad-field", problem: expect.stringContaining("a list") });
    expect(parseSageAgentOutput('{"type": "tool_call", "tool": "x", "arguments": "not json"}')).toMatchObject({ ok: false, code: "bad-field" });
    const two = '{"type": "tool_call", "tool": "inspect_workspace_storage_items"}\nthen\n{"type": "tool_call", "tool": "delete_selected_workspace_files"}';
    expect(parseSageAgentOutput(two, TOOLS)).toMatchObject({ ok: false, code: "several-actions", problem: expect.stringContaining("line 1, column 1 and line 3, column 1") });
    expect(parseSageAgentOutput('{"type": "tool_call", "tool": "rm_rf"}', TOOLS)).toMatchObject({
      ok: false,
      code: "unknown-tool",
      problem: 'unknown tool "rm_rf"; the tools are: inspect_workspace_storage_items, request_file_owner_confirmation, delete_selected_workspace_files',
    });
    // Without a tool list any name passes (the caller checks later).
    expect(parseSageAgentOutput('{"type": "tool_call", "tool": "rm_rf"}').ok).toBe(true);
  });

  it("a broken object before a good one: the good one counts", () => {
    expect(parseSageAgentOutput('{oops}\n{"type": "final_answer", "message": "ok"}')).toMatchObject({ ok: true, action: { kind: "final_answer" } });
  });

  it("actionJson writes the canonical one-line form back", () => {
    expect(actionJson({ kind: "tool_call", tool: "t", arguments: { a: 1 }, reason: null })).toBe('{"type":"tool_call","tool":"t","arguments":{"a":1}}');
    expect(actionJson({ kind: "final_answer", message: "m" })).toBe('{"type":"final_answer","message":"m"}');
    const back = parseSageAgentOutput(actionJson({ kind: "tool_call", tool: "t", arguments: { a: [1] }, reason: "r" }));
    expect(back).toMatchObject({ ok: true, action: { kind: "tool_call", tool: "t", arguments: { a: [1] }, reason: "r" } });
  });
});
