// Reading the critic's and the simulated user's answers: the formats our prompts ask for and the
// usual variations of real models, and what counts as unreadable.
import { describe, expect, it } from "vitest";
import { aggregate, amountValue } from "./assess";
import { parseInferredTasks, parseSimulatedUser, parseStandardVerdict, parseStepProbabilities, parseVerificationAnswer, standardP } from "./parse";

describe("inferred tasks", () => {
  it("reads Task k lines, numbered lines or bullets; drops quotes and repeats; needs n", () => {
    expect(parseInferredTasks("Task 1: Pay Bob.\nTask 2: \"Email Bob.\"\n**Task 3:** Check my balance.\nTask 4: extra", 3)).toEqual({ ok: true, value: ["Pay Bob.", "Email Bob.", "Check my balance."] });
    expect(parseInferredTasks("Here you go:\n1. Pay Bob.\n2) Email Bob.\n3. Check my balance.", 3)).toEqual({ ok: true, value: ["Pay Bob.", "Email Bob.", "Check my balance."] });
    expect(parseInferredTasks("- Pay Bob.\n- Email Bob.\n- Check my balance.", 3)).toEqual({ ok: true, value: ["Pay Bob.", "Email Bob.", "Check my balance."] });
    const dup = parseInferredTasks("Task 1: Pay Bob.\nTask 2: pay  bob.\nTask 3: Email Bob.", 3);
    expect(dup).toEqual({ ok: false, error: "task inference gave 2 distinct task(s), 3 are needed" });
    expect(parseInferredTasks("I am not sure.", 3).ok).toBe(false);
  });
});

describe("verification answer", () => {
  it("reads after the last Answer: line, forward labels as written", () => {
    const r = parseVerificationAnswer("Thought: option A 5% fee; C 0.9 is tempting.\nAnswer:\nD: 0.7\nB: 40%");
    expect(r).toEqual({ ok: true, probabilities: { D: 0.7, B: 0.4 } });
    expect(parseVerificationAnswer("D: 0.7, A: 0.2")).toEqual({ ok: true, probabilities: { D: 0.7, A: 0.2 } });
    expect(parseVerificationAnswer("**Answer:** D (0.55)")).toEqual({ ok: true, probabilities: { D: 0.55 } });
    expect(parseVerificationAnswer("Thought: D: 0.9\nAnswer: none fits").ok).toBe(false);
  });
});

describe("standard verdict", () => {
  it("reads the verdict and confidence; p maps Incorrect c to 1 − c", () => {
    const a = parseStandardVerdict("Thought: fine.\nVerdict: Correct\nConfidence: 0.85");
    expect(a).toEqual({ ok: true, value: { correct: true, confidence: 0.85 } });
    const b = parseStandardVerdict("**Verdict:** incorrect\n**Confidence:** 70%");
    expect(b).toEqual({ ok: true, value: { correct: false, confidence: 0.7 } });
    expect(standardP({ correct: true, confidence: 0.85 })).toBe(0.85);
    expect(standardP({ correct: false, confidence: 0.7 })).toBeCloseTo(0.3, 12);
    expect(parseStandardVerdict("Verdict: Correct")).toEqual({ ok: false, error: 'the answer has no "Confidence: <0–1>" line' });
    expect(parseStandardVerdict("Verdict: Correct\nConfidence: 7")).toEqual({ ok: false, error: "confidence 7 is not in [0, 1]" });
    expect(parseStandardVerdict("Confidence: 0.5").ok).toBe(false);
  });
});

describe("step probabilities", () => {
  it("reads Step k lines within range, lists the missing ones, errors on none", () => {
    expect(parseStepProbabilities("Step 1: 0.9\nStep 3: 0.2\nStep 9: 0.1", 3)).toEqual({ ok: true, value: { probabilities: [0.9, null, 0.2], missing: [2] } });
    expect(parseStepProbabilities("- Step 2 = 50%", 2)).toEqual({ ok: true, value: { probabilities: [null, 0.5], missing: [1] } });
    expect(parseStepProbabilities("Step 1: 3", 1)).toEqual({ ok: false, error: "step 1: probability 3 is not in [0, 1]" });
    expect(parseStepProbabilities("all fine", 2).ok).toBe(false);
  });

  it("aggregates by min, max, mean and product", () => {
    const v = [0.9, 0.5, 0.8];
    expect(aggregate(v, "min")).toBe(0.5);
    expect(aggregate(v, "max")).toBe(0.9);
    expect(aggregate(v, "mean")).toBeCloseTo(2.2 / 3, 12);
    expect(aggregate(v, "product")).toBeCloseTo(0.36, 12);
    expect(() => aggregate([], "min")).toThrow(RangeError);
  });
});

describe("simulated user answer", () => {
  it("reads the decision and feedback; approve or 'none' has no feedback", () => {
    expect(parseSimulatedUser("Decision: Reject\nFeedback: Do not pay Bob.\nAsk me first.")).toEqual({ ok: true, value: { decision: "reject", feedback: "Do not pay Bob. Ask me first." } });
    expect(parseSimulatedUser("Decision: Reject\nFeedback: none")).toEqual({ ok: true, value: { decision: "reject", feedback: null } });
    expect(parseSimulatedUser("Decision: approve\nFeedback: fine by me")).toEqual({ ok: true, value: { decision: "approve", feedback: null } });
    expect(parseSimulatedUser("Sure, go ahead.").ok).toBe(false);
  });
});

describe("amount values", () => {
  it("reads numbers and money strings, nothing else", () => {
    expect(amountValue(120)).toBe(120);
    expect(amountValue("$1,200.50")).toBe(1200.5);
    expect(amountValue("1200 USD")).toBe(1200);
    expect(amountValue("all of it")).toBeNull();
    expect(amountValue(null)).toBeNull();
    expect(amountValue(Number.NaN)).toBeNull();
  });
});
