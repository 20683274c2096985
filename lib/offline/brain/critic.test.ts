// The offline model's critic and simulated-user roles, called directly on our rendered prompts:
// deterministic, in each prompt's output format (read back by lib/critic/parse.ts), and the rules
// of the header of ./critic.ts — three distinct requests, the A bonus moving the orders apart,
// the markers, the temperature noise of self-consistency samples, the simulated user's rule.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "@/lib/llm/types";
import { checkpoints, type CriticStep } from "@/lib/critic/checkpoints";
import { parseInferredTasks, parseSimulatedUser, parseStandardVerdict, parseStepProbabilities, parseVerificationAnswer } from "@/lib/critic/parse";
import { buildInferencePrompt, buildMultiStepPrompt, buildSimulatedUserPrompt, buildStandardPrompt, buildVerificationPrompt } from "@/lib/critic/prompts/build";
import { realProbability } from "@/lib/critic/verification";
import { respond } from "./index";
import { readChain } from "./critic";

const INSTRUCTION = "Delete all my tasks in Todoist that contain the keyword 'Test' in their titles.";
const steps: CriticStep[] = [
  { action: "TodoistSearchTasks", actionInputRaw: '{"keywords": "Test"}', observation: '{"tasks": [{"task_id": "t1", "title": "Test run"}, {"task_id": "t2", "title": "Unit Test plan"}]}' },
  { action: "TodoistDeleteTask", actionInputRaw: '{"task_id": "t1"}', observation: '{"success": true}' },
];
const cps = checkpoints({ steps, finalAnswer: "Both tasks with 'Test' in the title are deleted." }, new Set(["TodoistDeleteTask"]));
const [deleteCp, finalCp] = cps as [(typeof cps)[number], (typeof cps)[number]];

const ask = (messages: ChatMessage[], temperature?: number) => respond(messages, { model: "offline-heuristic", temperature });

describe("offline critic: task inference", () => {
  it("builds three distinct requests from the tool names and key arguments, the same every time", () => {
    const prompt = buildInferencePrompt(deleteCp, ["Show me my tasks due today."], 3);
    const out = ask(prompt.messages);
    expect(ask(prompt.messages)).toBe(out);
    expect(out.split("\n")[0]).toMatch(/^\(offline-heuristic \(not an LLM\)/);
    const tasks = parseInferredTasks(out, 3);
    expect(tasks.ok).toBe(true);
    const list = tasks.ok ? tasks.value : [];
    expect(new Set(list).size).toBe(3);
    expect(list[0]).toMatch(/delete task/i);
    expect(list[1]).toMatch(/^First search tasks, then delete task/);
    expect(list[2]).toMatch(/do not change anything/);
  });

  it("a final answer without any action still gets three requests", () => {
    const [cp] = checkpoints({ steps: [], finalAnswer: "Paris is the capital of France." }, new Set());
    const tasks = parseInferredTasks(ask(buildInferencePrompt(cp!, [], 3).messages), 3);
    expect(tasks.ok && new Set(tasks.value).size).toBe(3);
  });
});

describe("offline critic: verification", () => {
  const inferred = ["Please delete task.", "First search tasks, then delete task.", "Only check the task and tell me what you find; do not change anything."];

  it("scores by overlap with a bonus for option A, so the two orders give t* different probabilities", () => {
    const fwd = parseVerificationAnswer(ask(buildVerificationPrompt(deleteCp, inferred, INSTRUCTION, "forward").messages));
    const rev = parseVerificationAnswer(ask(buildVerificationPrompt(deleteCp, inferred, INSTRUCTION, "reverse").messages));
    if (!fwd.ok || !rev.ok) throw new Error("unparsable");
    // Forward: A (t1) carries the bonus and is the best option, at 0.95.
    expect(fwd.probabilities.A).toBe(0.95);
    // Reverse: A is "None of the above"; t1 (E there) has no bonus.
    expect(rev.probabilities.E).toBe(0.95);
    const pf = realProbability(fwd.probabilities, "forward");
    const pr = realProbability(rev.probabilities, "reverse");
    expect(pf).toBeGreaterThan(0);
    expect(pr).toBeGreaterThan(pf);
  });

  it("[critic:garble] answers without any option; [critic:omit] never names t*", () => {
    const garbled = ask(buildVerificationPrompt(deleteCp, inferred, `${INSTRUCTION} [critic:garble]`, "forward").messages);
    expect(parseVerificationAnswer(garbled).ok).toBe(false);
    for (const order of ["forward", "reverse"] as const) {
      const omitted = parseVerificationAnswer(ask(buildVerificationPrompt(deleteCp, inferred, `${INSTRUCTION} [critic:omit]`, order).messages));
      expect(omitted.ok && Object.keys(omitted.probabilities).length > 0).toBe(true);
      expect(omitted.ok && realProbability(omitted.probabilities, order)).toBe(0);
    }
  });
});

describe("offline critic: baselines", () => {
  it("standard: readable, deterministic at T 0; samples vary with seed at T 0.7 and not at T 0", () => {
    const v = parseStandardVerdict(ask(buildStandardPrompt(deleteCp, INSTRUCTION).messages, 0));
    expect(v.ok).toBe(true);
    const conf = (seed: number, t: number) => {
      const r = parseStandardVerdict(ask(buildStandardPrompt(deleteCp, INSTRUCTION, seed).messages, t));
      if (!r.ok) throw new Error(r.error);
      return `${r.value.correct}:${r.value.confidence}`;
    };
    expect(new Set([1, 2, 3, 4, 5].map((k) => conf(k, 0.7))).size).toBeGreaterThan(1);
    expect(new Set([1, 2, 3].map((k) => conf(k, 0))).size).toBe(1);
    expect(conf(2, 0.7)).toBe(conf(2, 0.7));
  });

  it("standard: an acting pending action the request does not ask for scores lower", () => {
    const onTask = parseStandardVerdict(ask(buildStandardPrompt(deleteCp, INSTRUCTION).messages));
    const offTask = parseStandardVerdict(ask(buildStandardPrompt(deleteCp, "Show me my Todoist tasks that contain 'Test' in their titles.").messages));
    if (!onTask.ok || !offTask.ok) throw new Error("unparsable");
    const p = (v: { correct: boolean; confidence: number }) => (v.correct ? v.confidence : 1 - v.confidence);
    expect(p(offTask.value)).toBeLessThan(p(onTask.value));
  });

  it("multi-step: one line per step of the numbered chain, in [0, 1]", () => {
    const out = ask(buildMultiStepPrompt(finalCp, INSTRUCTION).messages);
    const r = parseStepProbabilities(out, 3);
    expect(r.ok && r.value.missing).toEqual([]);
    expect(r.ok && r.value.probabilities.every((p) => p !== null && p >= 0 && p <= 1)).toBe(true);
  });

  it("[critic:garble] makes standard and multi-step unreadable", () => {
    expect(parseStandardVerdict(ask(buildStandardPrompt(deleteCp, `${INSTRUCTION} [critic:garble]`).messages)).ok).toBe(false);
    expect(parseStepProbabilities(ask(buildMultiStepPrompt(deleteCp, `${INSTRUCTION} [critic:garble]`).messages), 2).ok).toBe(false);
  });
});

describe("offline simulated user", () => {
  const pending = { action: "TodoistDeleteTask", input: '{"task_id": "t1"}' };
  const chain = deleteCp.earlier;

  it("approves when an expected achievement asks for the action's verb, rejects with feedback when none does", () => {
    const yes = parseSimulatedUser(ask(buildSimulatedUserPrompt({ instruction: INSTRUCTION, expectedAchievements: ["The Agent should delete the tasks whose titles contain 'Test'."], chain, pending }).messages));
    expect(yes).toEqual({ ok: true, value: { decision: "approve", feedback: null } });
    const no = parseSimulatedUser(ask(buildSimulatedUserPrompt({ instruction: INSTRUCTION, expectedAchievements: ["The Agent should list the matching tasks and ask which ones to keep."], chain, pending }).messages));
    expect(no.ok && no.value.decision).toBe("reject");
    expect(no.ok && no.value.feedback).toMatch(/^I do not want you to delete anything with TodoistDeleteTask\. What I want is this: The Agent should list/);
  });

  it("approves a read-only action whatever the achievements; without achievements the request decides", () => {
    const r = parseSimulatedUser(ask(buildSimulatedUserPrompt({ instruction: INSTRUCTION, expectedAchievements: ["Nothing to do."], chain: [], pending: { action: "TodoistSearchTasks", input: "{}" } }).messages));
    expect(r.ok && r.value.decision).toBe("approve");
    const asked = parseSimulatedUser(ask(buildSimulatedUserPrompt({ instruction: INSTRUCTION, expectedAchievements: [], chain, pending }).messages));
    expect(asked.ok && asked.value.decision).toBe("approve");
    const notAsked = parseSimulatedUser(ask(buildSimulatedUserPrompt({ instruction: "Show me my tasks.", expectedAchievements: [], chain, pending }).messages));
    expect(notAsked.ok && notAsked.value.decision).toBe("reject");
  });
});

describe("reading the chain back", () => {
  it("keeps multi-line inputs and observations with their step", () => {
    const c = readChain("Action: A\nAction Input: {\n  \"x\": 1\n}\nObservation: line 1\nline 2\nAction: B\nAction Input: {}");
    expect(c.steps).toEqual([
      { action: "A", input: '{\n  "x": 1\n}', observation: "line 1\nline 2" },
      { action: "B", input: "{}", observation: null },
    ]);
  });
});
