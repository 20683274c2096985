import { describe, expect, it } from "vitest";
import { parseInline, parseLightMarkdown } from "./light-markdown";

describe("parseInline", () => {
  it("reads bold, italic and code, and leaves the rest as written", () => {
    expect(parseInline("a **b** *c* `d`")).toEqual([
      { text: "a " }, { text: "b", bold: true }, { text: " " }, { text: "c", italic: true }, { text: " " }, { text: "d", code: true },
    ]);
    expect(parseInline("**see `rm -rf`**")).toEqual([{ text: "see ", bold: true }, { text: "rm -rf", bold: true, code: true }]);
    // Not formatting: arithmetic, a lone star, an unclosed bold, stars inside code.
    expect(parseInline("2 * 3 * 4")).toEqual([{ text: "2 * 3 * 4" }]);
    expect(parseInline("**open")).toEqual([{ text: "**open" }]);
    expect(parseInline("`a**b**`")).toEqual([{ text: "a**b**", code: true }]);
  });

  it("keeps markup as text (the component renders strings, never HTML)", () => {
    expect(parseInline("<img src=x onerror=alert(1)> **<b>**")).toEqual([{ text: "<img src=x onerror=alert(1)> " }, { text: "<b>", bold: true }]);
  });
});

describe("parseLightMarkdown", () => {
  it("reads an evaluator's numbered, lettered and bulleted outline with its indentation", () => {
    const text = "1. **Meticulously examine**:  \n    a. **Assess**:  \n        - The [Agent] used `Search`.\n\n\nDone.";
    expect(parseLightMarkdown(text)).toEqual([
      { kind: "line", indent: 0, marker: "1.", inline: [{ text: "Meticulously examine", bold: true }, { text: ":" }] },
      { kind: "line", indent: 2, marker: "a.", inline: [{ text: "Assess", bold: true }, { text: ":" }] },
      { kind: "line", indent: 4, marker: "•", inline: [{ text: "The [Agent] used " }, { text: "Search", code: true }, { text: "." }] },
      { kind: "blank" },
      { kind: "line", indent: 0, marker: null, inline: [{ text: "Done." }] },
    ]);
  });

  it("reads headings and drops leading and trailing blank lines", () => {
    expect(parseLightMarkdown("\n## Overall **Score** ##\n\n")).toEqual([{ kind: "heading", level: 2, inline: [{ text: "Overall " }, { text: "Score", bold: true }] }]);
    expect(parseLightMarkdown("")).toEqual([]);
  });
});
