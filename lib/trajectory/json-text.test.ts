import { describe, expect, it } from "vitest";
import { jsonTypeName, parseJsonLenient, repairJson, scanBalanced, stripCodeFence, stripThinkBlocks } from "./json-text";

describe("scanBalanced", () => {
  it("takes the first balanced object and stops there", () => {
    const t = 'x {"a": {"b": [1, 2]}} trailing {"c": 3}';
    const s = scanBalanced(t, 2);
    expect(s).toMatchObject({ ok: true, text: '{"a": {"b": [1, 2]}}' });
  });

  it("respects braces, brackets, quotes and escapes inside strings", () => {
    const obj = String.raw`{"cmd": "echo '}' \"{\" ] [ \\", "n": "a\\\"}"}`;
    expect(JSON.parse(obj)).toBeTruthy();
    const s = scanBalanced(`${obj} and more }`, 0);
    expect(s).toMatchObject({ ok: true, text: obj });
  });

  it("scans arrays too", () => {
    expect(scanBalanced("[1, {\"a\": [2]}] x", 0)).toMatchObject({ ok: true, text: '[1, {"a": [2]}]' });
  });

  it("reports unterminated and mismatched input instead of throwing", () => {
    expect(scanBalanced('{"a": [1, 2}', 0)).toEqual({ ok: false, start: 0, reason: "mismatched" });
    expect(scanBalanced('{"a": "}', 0)).toEqual({ ok: false, start: 0, reason: "unterminated" });
    expect(scanBalanced("abc", 0)).toEqual({ ok: false, start: 0, reason: "mismatched" });
    expect(scanBalanced("", 5)).toEqual({ ok: false, start: 5, reason: "mismatched" });
  });
});

describe("parseJsonLenient", () => {
  it("parses JSON as JSON.parse does", () => {
    expect(parseJsonLenient('{"a": 1}')).toEqual({ ok: true, value: { a: 1 }, repaired: false });
  });

  it("accepts what ToolEmu's loader accepts: raw control characters in strings, \\_ and Python literals", () => {
    expect(parseJsonLenient('{"body": "line 1\nline 2\ttab"}')).toEqual({ ok: true, value: { body: "line 1\nline 2\ttab" }, repaired: true });
    expect(parseJsonLenient(String.raw`{"file\_name": "a\_b"}`)).toEqual({ ok: true, value: { file_name: "a_b" }, repaired: true });
    expect(parseJsonLenient('{"x": True, "y": False, "z": None, "s": "True"}')).toEqual({ ok: true, value: { x: true, y: false, z: null, s: "True" }, repaired: true });
  });

  it("reports the parse error of what it cannot repair", () => {
    const r = parseJsonLenient("{'a': 1}");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/JSON/);
  });

  it("repairJson leaves valid JSON unchanged", () => {
    const s = '{"a": [1, 2.5, true, null, "x\\n\\"y\\""], "b": {"c": "\\u00e9"}}';
    expect(repairJson(s)).toBe(s);
  });
});

describe("helpers", () => {
  it("stripCodeFence", () => {
    expect(stripCodeFence('```json\n{"a": 1}\n```\nafter')).toEqual({ text: '{"a": 1}\n', fenced: true });
    expect(stripCodeFence('{"a": 1}')).toEqual({ text: '{"a": 1}', fenced: false });
  });

  it("stripThinkBlocks", () => {
    expect(stripThinkBlocks("<think>Action: X</think>\nFinal Answer: y")).toBe("\nFinal Answer: y");
  });

  it("jsonTypeName", () => {
    expect([{}, [], "s", 1, 1.5, true, null].map(jsonTypeName)).toEqual(["object", "array", "string", "integer", "number", "boolean", "null"]);
  });
});
