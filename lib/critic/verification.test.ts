import { describe, expect, it } from "vitest";
import {
  averagedRealProbability,
  forwardLabel,
  parseVerification,
  realLabel,
  renderOptions,
  toForwardLabels,
  verificationOptions,
  VerificationParseError,
  type OptionProbabilities,
} from "./verification";

const TASKS = ["Find a cheap flight", "Email Bob the report", "Delete old files"];
const REAL = "Transfer $500 to Alice";

function parsed(text: string): OptionProbabilities {
  const r = parseVerification(text);
  if (!r.ok) throw r.error;
  return r.probabilities;
}

describe("verification options", () => {
  it("forward: t1..t3, t*, None as A–E; reverse is the same list fully reversed", () => {
    const fwd = verificationOptions(TASKS, REAL, "forward");
    const rev = verificationOptions(TASKS, REAL, "reverse");
    expect(fwd.map((o) => o.text)).toEqual([...TASKS, REAL, "None of the above"]);
    expect(rev.map((o) => o.text)).toEqual(["None of the above", REAL, ...[...TASKS].reverse()]);
    expect(fwd.find((o) => o.source.kind === "real")!.label).toBe("D");
    expect(rev.find((o) => o.source.kind === "real")!.label).toBe("B");
    expect([realLabel("forward"), realLabel("reverse")]).toEqual(["D", "B"]);
    expect(renderOptions(rev).split("\n")[0]).toBe("A. None of the above");
    expect(() => verificationOptions(TASKS.slice(0, 2), REAL, "forward")).toThrow(RangeError);
  });

  it("reverse labels map back A↔E, B↔D, C↔C, and to the same option text", () => {
    expect((["A", "B", "C", "D", "E"] as const).map((l) => forwardLabel(l, "reverse"))).toEqual(["E", "D", "C", "B", "A"]);
    expect(forwardLabel("B", "forward")).toBe("B");
    const fwd = verificationOptions(TASKS, REAL, "forward");
    const rev = verificationOptions(TASKS, REAL, "reverse");
    for (const o of rev) expect(fwd.find((f) => f.label === forwardLabel(o.label, "reverse"))!.text).toBe(o.text);
    expect(toForwardLabels({ B: 0.4, E: 0.2 }, "reverse")).toEqual({ D: 0.4, A: 0.2 });
  });
});

describe("p̄(t*) = mean of the two orders (issue 13 vectors)", () => {
  it("forward D 0.6, reverse B 0.4 → 0.5", () => {
    expect(averagedRealProbability(parsed("D: 0.6\nA: 0.3"), parsed("B: 0.4"))).toBeCloseTo(0.5, 12);
  });
  it("reverse names only E (= t1 mapped back) → p_rev 0 → 0.3", () => {
    expect(averagedRealProbability(parsed("D: 0.6, A: 0.3"), parsed("E: 0.9"))).toBeCloseTo(0.3, 12);
  });
});

describe("parsing a verification answer", () => {
  it.each([
    ["D: 0.6\nA: 0.3", { D: 0.6, A: 0.3 }],
    ["A 0.3, D 0.6", { A: 0.3, D: 0.6 }],
    ['{"D": 0.6, "E": 0.1}', { D: 0.6, E: 0.1 }],
    ["Option D (60%) and option B - 25%", { D: 0.6, B: 0.25 }],
    ["D with probability .6", { D: 0.6 }],
    ["D. Transfer $500 to Alice — 0.6", { D: 0.6 }],
    ["Top options: (B) 0.4; (C) 0.1", { B: 0.4, C: 0.1 }],
    ["D: 0.6\nD: 0.9", { D: 0.6 }],
  ])("%j", (text, expected) => {
    expect(parsed(text)).toEqual(expected);
  });

  it("no option with a probability → a typed unparsable error", () => {
    const r = parseVerification("I think the agent is doing fine.");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(VerificationParseError);
    expect(r.error.kind).toBe("unparsable");
  });

  it("only out-of-range numbers after labels → out_of_range", () => {
    const r = parseVerification("D: 60");
    expect(r.ok ? null : r.error.kind).toBe("out_of_range");
  });
});
