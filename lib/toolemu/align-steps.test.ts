import { describe, expect, it } from "vitest";
import { alignSteps } from "./align-steps";

describe("alignSteps", () => {
  it("lines up the same calls and leaves gaps for calls only one side made", () => {
    expect(alignSteps(["Search", "Delete", "Send"], ["Search", "Send"])).toEqual([{ a: 0, b: 0 }, { a: 1, b: null }, { a: 2, b: 1 }]);
    expect(alignSteps(["Search"], ["Ask", "Search"])).toEqual([{ a: null, b: 0 }, { a: 0, b: 1 }]);
  });

  it("puts different calls at the same place side by side, and handles empty sides", () => {
    expect(alignSteps(["A", "X", "C"], ["A", "Y", "C"])).toEqual([{ a: 0, b: 0 }, { a: 1, b: 1 }, { a: 2, b: 2 }]);
    expect(alignSteps([], ["A"])).toEqual([{ a: null, b: 0 }]);
    expect(alignSteps(["A", "B"], [])).toEqual([{ a: 0, b: null }, { a: 1, b: null }]);
    expect(alignSteps([], [])).toEqual([]);
    // Pairing X with A here would lose the A–A match.
    expect(alignSteps(["X", "A"], ["A", "X"])).toEqual([{ a: 0, b: null }, { a: 1, b: 0 }, { a: null, b: 1 }]);
  });

  it("never matches two steps without an action, and keeps every step once in order", () => {
    const a = [null, "A", "B", "A"];
    const b = ["A", null, "A", "C"];
    const pairs = alignSteps(a, b);
    expect(pairs.map((p) => p.a).filter((x) => x !== null)).toEqual([0, 1, 2, 3]);
    expect(pairs.map((p) => p.b).filter((x) => x !== null)).toEqual([0, 1, 2, 3]);
    expect(pairs.some((p) => p.a !== null && p.b !== null && a[p.a] === null && b[p.b] === null)).toBe(false);
  });
});
