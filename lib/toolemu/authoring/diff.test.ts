// The structural diff and the JSON line locator the editor and history pages use. Pure.
import { describe, expect, it } from "vitest";
import { diffSpecs } from "./diff";
import { jsonValueLines, lineOfPath } from "./json-lines";

describe("diffSpecs", () => {
  const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, summary: `${name}.`, parameters: [{ name: "id", type: "string", description: "", required: true }], ...extra });

  it("matches tools and parameters by name, so an inserted tool is one addition", () => {
    const a = { toolkit: "T", tools: [tool("A"), tool("B")] };
    const b = { toolkit: "T", tools: [tool("New"), tool("A"), tool("B", { summary: "Changed." })] };
    expect(diffSpecs(a, b).map((d) => [d.kind, d.path.join("/")])).toEqual([
      ["changed", "tools/B/summary"],
      ["added", "tools/New"],
    ]);
  });

  it("compares lists of text as sets, and reports a reordering once", () => {
    expect(diffSpecs({ x: ["a", "b"] }, { x: ["b", "c"] })).toEqual([
      { path: ["x"], kind: "removed", before: "a" },
      { path: ["x"], kind: "added", after: "c" },
    ]);
    expect(diffSpecs({ Toolkits: ["A", "B"] }, { Toolkits: ["B", "A"] })).toEqual([{ path: ["Toolkits"], kind: "changed", before: ["A", "B"], after: ["B", "A"] }]);
    expect(diffSpecs({ x: ["a"] }, { x: ["a"] })).toEqual([]);
  });

  it("reports added and removed keys, and lists without names by index", () => {
    expect(diffSpecs({ a: 1, b: [{ v: 1 }] }, { c: 2, b: [{ v: 2 }, { v: 3 }] }).map((d) => [d.kind, d.path.join("/")])).toEqual([
      ["removed", "a"],
      ["changed", "b/[0]/v"],
      ["added", "b/[1]"],
      ["added", "c"],
    ]);
  });
});

describe("jsonValueLines", () => {
  const text = JSON.stringify({ toolkit: "T", tools: [{ name: "A", parameters: [{ name: "id", type: "str" }] }], "User Instruction": "x" }, null, 2);

  it("gives the line of every value by its issue path", () => {
    const lines = jsonValueLines(text);
    const lineOf = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
    expect(lines.get("tools[0].parameters[0].type")).toBe(lineOf('"type": "str"'));
    expect(lines.get("User Instruction")).toBe(lineOf('"User Instruction"'));
    expect(lines.get("")).toBe(1);
  });

  it("falls back to the nearest existing ancestor for a missing field", () => {
    const lines = jsonValueLines(text);
    expect(lineOfPath(lines, "tools[0].parameters[0].description")).toBe(lines.get("tools[0].parameters[0]"));
    expect(lineOfPath(lines, "tools[3].name")).toBe(lines.get("tools"));
  });

  it("handles escapes and compact text, and gives nothing for text that is not JSON", () => {
    expect(jsonValueLines('{"a\\"b":[1,{"c":"}\\n"}],"d":null}').get("a\"b[1].c")).toBe(1);
    expect(jsonValueLines("{\n\"a\":\n[\n1]}").get("a[0]")).toBe(4);
    expect(lineOfPath(jsonValueLines(""), "x")).toBe(null);
  });
});

describe("inToolemuOrder", () => {
  it("puts ToolEmu's keys in its files' order, unknown keys after, values untouched", async () => {
    const { inToolemuOrder } = await import("./key-order");
    const v = inToolemuOrder("toolkit", { tools: [{ returns: [], name: "A", parameters: [{ required: true, name: "x", type: "string", description: "" }] }], extra: 1, toolkit: "T" }) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["toolkit", "tools", "extra"]);
    const tool = (v.tools as Record<string, unknown>[])[0]!;
    expect(Object.keys(tool)).toEqual(["name", "parameters", "returns"]);
    expect(Object.keys((tool.parameters as object[])[0]!)).toEqual(["name", "type", "description", "required"]);
    expect(Object.keys(inToolemuOrder("case", { Underspecifications: { "Safety & Security Constraints": [], "Task Information": [] }, name: "c" }) as object)).toEqual(["name", "Underspecifications"]);
  });
});
