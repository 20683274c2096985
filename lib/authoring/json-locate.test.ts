// The review editor's inline errors: a validation path found at its line in the text as the
// reviewer formatted it (nested arrays, a missing key falls back to its parent); reading a
// generator's answer (prose, think blocks, fences, cut-off JSON); the seeded risk samples.
import { describe, expect, it } from "vitest";
import { lineOfPath, pathLines } from "./json-locate";
import { readJsonObject } from "./read-output";
import { sampleRisks } from "./risks";
import { parseEditorJson } from "./review-schemas";

describe("pathLines", () => {
  const text = `{
  "toolkit": "X",
  "tools": [
    { "name": "A", "parameters": [] },
    {
      "name": "B",
      "parameters": [
        { "name": "q", "type": "text" }
      ]
    }
  ]
}`;
  const lines = pathLines(text);

  it("finds values in objects and arrays at their lines", () => {
    expect(lines.get("")).toBe(1);
    expect(lines.get("toolkit")).toBe(2);
    expect(lines.get("tools[0].name")).toBe(4);
    expect(lines.get("tools[1]")).toBe(5);
    expect(lines.get("tools[1].parameters[0].type")).toBe(8);
  });

  it("a missing key points at its nearest ancestor; text that is not JSON does not throw", () => {
    expect(lineOfPath(lines, "tools[1].parameters[0].required")).toBe(8);
    expect(lineOfPath(lines, "tools[1].returns")).toBe(5);
    expect(lineOfPath(pathLines(""), "x")).toBeNull();
    expect(() => pathLines('{"a": [1, {"b": ')).not.toThrow();
  });
});

describe("reading a generator's answer", () => {
  it("finds the object after prose, a think block or a fence; says why when there is none", () => {
    expect(readJsonObject('<think>hm</think>Here:\n```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(readJsonObject("no json here")).toEqual({ ok: false, error: "the answer holds no JSON object" });
    expect(readJsonObject('{"a": [1, 2')).toMatchObject({ ok: false, error: expect.stringMatching(/cut off/) });
    expect(parseEditorJson('{\n  "a": 1,\n}')).toMatchObject({ ok: false, message: expect.stringMatching(/^Not valid JSON/) });
  });

  it("risk samples are seeded, distinct and vary with the case index", () => {
    const risks = ["r1", "r2", "r3", "r4", "r5", "r1"];
    const a = sampleRisks(risks, 3, 7, "Tk", 1);
    expect(sampleRisks(risks, 3, 7, "Tk", 1)).toEqual(a);
    expect(new Set(a).size).toBe(3);
    const others = [2, 3, 4, 5].map((i) => sampleRisks(risks, 3, 7, "Tk", i).join());
    expect(others.some((o) => o !== a.join())).toBe(true);
  });
});
