// Episodes end to end over real HTTP: the real offline model server, the real model client (the
// openai SDK), a throwaway database with the shared ToolEmu toolkits and cases imported. Nothing
// of ours is mocked; the engine's rarer paths are reached through the offline model's documented
// test hooks in a case's request text, or a server that goes away.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { runImport } from "@/lib/toolemu/import";
import { trajectoryLineSchema } from "@/lib/toolemu/source-schemas";
import { trajectoryRow } from "@/lib/toolemu/normalize";
import { createModelClient } from "@/lib/llm/client";
import { ensureOfflineEndpoint } from "@/lib/llm/endpoints";
import { startOfflineModel, type OfflineModelServer } from "@/lib/offline/server";
import type { ChatMessage, EndpointSettings, ModelClient } from "@/lib/llm/types";
import { respond } from "@/lib/offline/brain";
import { parseRoleMarker } from "@/lib/prompts/template";
import { AGENT_HOOK_INVALID_INPUT, AGENT_HOOK_LOOP, AGENT_HOOK_UNPARSABLE } from "@/lib/offline/brain/agent";
import { EMULATOR_HOOK_INVALID_ALWAYS, EMULATOR_HOOK_INVALID_ONCE } from "@/lib/offline/brain/emulator";
import { evaluateStoredTrajectory } from "@/lib/runs/evaluation/stored-trajectory";
import { APP_VERSION } from "@/lib/version";
import { EMULATOR_FAILURE_OBSERVATION, runEpisode, startEpisode, type EpisodeResult, type StepEvent } from "./episode";
import type { AgentVariant, EmulatorModeValue } from "@/lib/trajectory/types";

const DATA = sharedDataDir();
let t: TestDatabase;
let server: OfflineModelServer;
let endpoint: EndpointSettings;
let client: ModelClient;
const caseIds = new Map<string, string>();

beforeAll(async () => {
  t = await createTestDatabase({ seed: "cases" });
  expect(t.imported?.report.issues).toEqual([]);
  for (const c of await t.prisma.testCase.findMany({ select: { id: true, name: true } })) caseIds.set(c.name, c.id);
  server = await startOfflineModel({ faults: "" });
  endpoint = await ensureOfflineEndpoint(t.prisma, server.url);
  client = createModelClient(endpoint, { db: t.prisma });
});
afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

/** A copy of an official case whose request carries a test hook of the offline model. */
async function hookedCase(official: string, hook: string): Promise<string> {
  const c = await t.prisma.testCase.findUniqueOrThrow({ where: { id: caseIds.get(official)! }, include: { toolkits: true } });
  const instruction = `${c.userInstruction} ${hook}`;
  const created = await t.prisma.testCase.create({
    data: {
      source: "test",
      name: `${official} ${hook} ${Math.random().toString(36).slice(2, 8)}`,
      userInstruction: instruction,
      underspecTaskInfo: c.underspecTaskInfo,
      underspecSafety: c.underspecSafety,
      expectedAchievements: c.expectedAchievements,
      potentialRiskyOutcomes: c.potentialRiskyOutcomes,
      potentialRiskyActions: c.potentialRiskyActions,
      contentHash: `test:${Math.random()}`,
      raw: { ...(c.raw as object), "User Instruction": instruction },
      toolkits: { create: c.toolkits.map((k) => ({ toolkitId: k.toolkitId, position: k.position })) },
    },
  });
  return created.id;
}

const episode = (caseId: string, variant: AgentVariant, mode: EmulatorModeValue, extra: Partial<Parameters<typeof runEpisode>[1]> = {}) =>
  runEpisode(t.prisma, { caseId, agent: { client, variant }, emulator: { client, mode }, evaluator: { client }, seed: 7, ...extra });

async function loadTrajectory(id: string) {
  return t.prisma.trajectory.findUniqueOrThrow({
    where: { id },
    include: { steps: { orderBy: { index: "asc" } }, evaluations: { orderBy: { kind: "asc" } }, llmCalls: { orderBy: { id: "asc" } } },
  });
}

/** The stored JSONL line reads back through the importer's own schema and normaliser. */
function checkRaw(tr: Awaited<ReturnType<typeof loadTrajectory>>) {
  const line = trajectoryLineSchema.parse(tr.raw);
  const row = trajectoryRow(line, tr.raw);
  if ("message" in row) throw new Error(row.message);
  // A parse-error step has no place in ToolEmu's format: the line holds the tool calls only.
  const calls = tr.steps.filter((s) => s.action);
  expect(row.stepCount).toBe(calls.length);
  expect(row.status).toBe(tr.status === "FINISHED" ? "FINISHED" : "INCOMPLETE");
  expect(row.emulatorMode).toBe(tr.emulatorMode);
  expect(row.finalAnswer).toBe(tr.finalAnswer);
  expect(row.caseName).toBe((tr.raw as { case: { name: string } }).case.name);
  expect(row.steps.map((s) => [s.action, s.actionInputRaw, s.observationRaw])).toEqual(calls.map((s) => [s.action, s.actionInputRaw, s.observationRaw]));
}

const TEN = ["official_0", "official_8", "official_11", "official_20", "official_33", "official_47", "official_60", "official_85", "official_110", "official_140"];
const VARIANTS: AgentVariant[] = ["NAIVE", "SAFETY", "HELPFUL_SAFE"];

describe("full episodes on 10 shared cases, both emulator modes", () => {
  let results: { name: string; mode: EmulatorModeValue; variant: AgentVariant; r: EpisodeResult; events: StepEvent[]; started: string[] }[] = [];

  beforeAll(async () => {
    const started = performance.now();
    results = await Promise.all(
      TEN.flatMap((name, i) =>
        (["STANDARD", "ADVERSARIAL"] as const).map(async (mode) => {
          const events: StepEvent[] = [];
          const startedIds: string[] = [];
          const variant = VARIANTS[i % VARIANTS.length]!;
          const r = await episode(caseIds.get(name)!, variant, mode, { onStep: (e) => void events.push(e), onStart: (id) => void startedIds.push(id) });
          return { name, mode, variant, r, events, started: startedIds };
        }),
      ),
    );
    console.log(`20 episodes in ${Math.round(performance.now() - started)} ms`);
  });

  it("every episode finished with a final answer, its steps stored, counted and reported live", async () => {
    expect(results).toHaveLength(20);
    for (const { name, mode, r, events, started } of results) {
      expect(r.status, `${name} ${mode}: ${r.stopReason} ${r.stopDetail}`).toBe("FINISHED");
      expect(r.stopReason).toBe("final_answer");
      const tr = await loadTrajectory(r.trajectoryId);
      expect(started).toEqual([tr.id]);
      expect(tr).toMatchObject({ origin: "EMULATED", status: "FINISHED", emulatorMode: mode, contentHash: `emulated:${tr.id}`, agentModel: "offline-heuristic", emulatorModel: "offline-heuristic" });
      expect(tr.finalAnswer).toBe(r.finalAnswer);
      expect(tr.finalLog).toContain("Final Answer:");
      expect(tr.finishedAt).not.toBeNull();
      expect(tr.steps.map((s) => s.index)).toEqual([...Array(tr.stepCount).keys()]);
      expect(events.map((e) => e.index)).toEqual(tr.steps.map((s) => s.index));
      for (const s of tr.steps) {
        expect(s.action).toBeTruthy();
        expect(s.agentLog).toContain(`Action: ${s.action}`);
        expect(s.observationRaw).toBeTruthy();
        expect(s.observation).not.toBeNull();
        expect(s.inputTokens).toBeGreaterThan(0);
        expect(s.outputTokens).toBeGreaterThan(0);
        if (s.inputInvalid) expect(s.emulatorRounds).toBe(0);
        else {
          expect(s.emulatorRounds).toBeGreaterThanOrEqual(1);
          expect(s.emulatorSummary).toBeTruthy();
          expect(s.emulatorThought).toContain("offline-heuristic (not an LLM)");
        }
      }
      expect(tr.hasErrors).toBe(tr.steps.some((s) => s.observation && typeof s.observation === "object" && "error" in s.observation));
      // Totals: every step's calls plus the final answer's.
      const stepIn = tr.steps.reduce((n, s) => n + s.inputTokens, 0);
      expect(tr.inputTokens).toBeGreaterThan(stepIn);
      const agentAndEmulatorCalls = tr.llmCalls.filter((c) => c.role !== "evaluator");
      expect(tr.inputTokens).toBe(agentAndEmulatorCalls.reduce((n, c) => n + c.inputTokens, 0));
      checkRaw(tr);
    }
    // The 20 episodes did something: tool calls in most, confirmations or several calls in some.
    const steps = results.map((x) => x.r.stepCount);
    expect(steps.filter((n) => n > 0).length).toBeGreaterThanOrEqual(16);
  });

  it("the settings record models, hosts, parameters, templates, seed and code version", async () => {
    const tr = await loadTrajectory(results[0]!.r.trajectoryId);
    const host = new URL(server.url).host;
    expect(tr.settings).toEqual({
      agent: { endpoint: "offline-heuristic", endpointId: endpoint.id, model: "offline-heuristic", host, temperature: 0, maxTokens: 2048, offline: true, variant: "NAIVE" },
      emulator: { endpoint: "offline-heuristic", endpointId: endpoint.id, model: "offline-heuristic", host, temperature: 0, maxTokens: 2048, offline: true, mode: results[0]!.mode },
      evaluator: { endpoint: "offline-heuristic", endpointId: endpoint.id, model: "offline-heuristic", host, temperature: 0, maxTokens: 2048, offline: true, kinds: ["SAFETY", "HELPFULNESS"] },
      templates: ["agent.naive@1", results[0]!.mode === "STANDARD" ? "emulator.standard@2" : "emulator.adversarial@2", "emulator.critique@1", "evaluator.safety@1", "evaluator.helpfulness@1"],
      seed: 7,
      maxSteps: 15,
      critiqueRounds: 2,
      selfCritiqueRounds: 0,
      loopMode: "STRICT",
      codeVersion: APP_VERSION,
    });
    expect(tr).toMatchObject({ agentEndpointId: endpoint.id, emulatorEndpointId: endpoint.id, evaluatorEndpointId: endpoint.id, agentVariant: "NAIVE" });
  });

  it("both evaluations are stored for each episode, with the evaluator's model, prompt version, raw text and usage", async () => {
    for (const { r } of results) {
      expect(r.evaluations.map((e) => e.kind)).toEqual(["SAFETY", "HELPFULNESS"]);
      const tr = await loadTrajectory(r.trajectoryId);
      expect(tr.evaluations).toHaveLength(2);
      for (const e of tr.evaluations) {
        expect(e.evaluatorModel).toBe("offline-heuristic");
        expect(e.score).not.toBeNull();
        expect(e.label).toBeTruthy();
        expect(e.warning).toBeNull();
        expect(e.thought).toMatch(/^offline-heuristic \(not an LLM\): rule /);
        expect(e.promptVersion).toBe(e.kind === "SAFETY" ? "evaluator.safety@1" : "evaluator.helpfulness@1");
        expect(e.raw).toMatchObject({ template: e.promptVersion, text: expect.stringContaining("Overall Quantitative Score:") });
        expect(e.inputTokens).toBeGreaterThan(0);
      }
      expect(tr.llmCalls.filter((c) => c.role === "evaluator")).toHaveLength(2);
    }
    // The rules tell the variants apart: SAFETY agents asked before some irreversible step.
    const safety = (v: AgentVariant) => results.filter((x) => x.variant === v).map((x) => x.r.evaluations.find((e) => e.kind === "SAFETY")!).map((e) => (e.ok ? e.score! : NaN));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(safety("SAFETY"))).toBeGreaterThanOrEqual(mean(safety("NAIVE")));
  });
});

describe("the engine's other paths", () => {
  it("an invalid input is answered by the checks in code: error observation, input_invalid, no emulator call", async () => {
    const r = await episode(await hookedCase("official_1", AGENT_HOOK_INVALID_INPUT), "NAIVE", "STANDARD");
    const tr = await loadTrajectory(r.trajectoryId);
    expect(r.status).toBe("FINISHED");
    const [first, second] = tr.steps;
    expect(first).toMatchObject({ inputInvalid: true, emulatorRounds: 0, action: "FacebookManagerCreatePost" });
    expect(first!.observationRaw).toMatch(/^\{"error": "InvalidRequestException: Missing required parameter: content\./);
    expect(first!.observation).toEqual({ error: expect.stringContaining("Missing required parameter") });
    expect(tr.llmCalls.filter((c) => c.stepIndex === 0).map((c) => c.role)).toEqual(["agent"]);
    expect(second).toMatchObject({ inputInvalid: false, emulatorRounds: 1, action: "FacebookManagerCreatePost" });
    expect(tr.hasErrors).toBe(true);
  });

  it("an unusable emulator output is critiqued and re-asked; the rounds are stored", async () => {
    const r = await episode(await hookedCase("official_0", EMULATOR_HOOK_INVALID_ONCE), "NAIVE", "STANDARD");
    const tr = await loadTrajectory(r.trajectoryId);
    expect(r.status).toBe("FINISHED");
    expect(tr.steps.length).toBeGreaterThan(0);
    for (const s of tr.steps) {
      expect(s).toMatchObject({ emulatorRounds: 2, emulatorFailure: null });
      expect(tr.llmCalls.filter((c) => c.stepIndex === s.index).map((c) => c.role)).toEqual(["agent", "emulator", "critique"]);
    }
  });

  it("an emulator that never gives a usable output: emulatorFailure after 1 + 2 rounds, the agent sees a tool error", async () => {
    const r = await episode(await hookedCase("official_0", EMULATOR_HOOK_INVALID_ALWAYS), "NAIVE", "ADVERSARIAL");
    const tr = await loadTrajectory(r.trajectoryId);
    const s = tr.steps[0]!;
    expect(s.emulatorRounds).toBe(3);
    expect(s.emulatorFailure).toMatch(/^no valid observation after 3 outputs \(2 critique rounds\): 1\. .*2\. .*3\. /);
    expect(s.observationRaw).toBe(EMULATOR_FAILURE_OBSERVATION);
    expect(s.emulatorThought).toContain("Observation: the call went through.");
    expect(tr.hasErrors).toBe(true);
    expect(tr.llmCalls.filter((c) => c.stepIndex === 0).map((c) => c.role)).toEqual(["agent", "emulator", "critique", "critique"]);
    // The agent retried once, then gave up and answered.
    expect(r.status).toBe("FINISHED");
    expect(tr.steps.every((x) => x.emulatorFailure)).toBe(true);
  });

  it("strict: critique re-asks and forced self-critique rounds together stay within 3 extra calls", async () => {
    const r = await episode(await hookedCase("official_0", EMULATOR_HOOK_INVALID_ONCE), "NAIVE", "STANDARD", { emulator: { client, mode: "STANDARD", selfCritiqueRounds: 3 } });
    const tr = await loadTrajectory(r.trajectoryId);
    expect(tr.steps.length).toBeGreaterThan(0);
    for (const s of tr.steps) {
      // 1 output + 1 re-ask, then 2 of the 3 forced rounds.
      expect(s.emulatorRounds).toBe(4);
      expect(tr.llmCalls.filter((c) => c.stepIndex === s.index).map((c) => c.role)).toEqual(["agent", "emulator", "critique", "critique", "critique"]);
    }
  });

  it("ToolEmu-compatible: an unusable emulator output is passed on as ToolEmu reads it, its problem flagged, never re-asked", async () => {
    const r = await episode(await hookedCase("official_0", EMULATOR_HOOK_INVALID_ALWAYS), "NAIVE", "ADVERSARIAL", { loopMode: "TOOLEMU" });
    const tr = await loadTrajectory(r.trajectoryId);
    const s = tr.steps[0]!;
    expect(s).toMatchObject({ emulatorRounds: 1, emulatorFailure: null, emulatorProblem: expect.any(String) });
    expect(s.observationRaw).not.toBe(EMULATOR_FAILURE_OBSERVATION);
    expect(tr.llmCalls.filter((c) => c.stepIndex === 0).map((c) => c.role)).toEqual(["agent", "emulator"]);
    expect(tr.settings).toMatchObject({ loopMode: "TOOLEMU" });
  });

  it("an unparsable agent output ends the episode: parse_error, the step keeps the output and the reason", async () => {
    const r = await episode(await hookedCase("official_0", AGENT_HOOK_UNPARSABLE), "NAIVE", "STANDARD");
    const tr = await loadTrajectory(r.trajectoryId);
    expect(tr).toMatchObject({ status: "INCOMPLETE", stopReason: "parse_error", stepCount: 1, finalAnswer: null });
    expect(tr.steps[0]).toMatchObject({ action: null, parseError: 'no "Action:" or "Final Answer:" found', emulatorRounds: 0 });
    expect(tr.steps[0]!.agentLog).toContain("offline-heuristic");
    expect(tr.stopDetail).toBe(tr.steps[0]!.parseError);
    expect(tr.evaluations.map((e) => [e.kind, e.score])).toEqual([["SAFETY", 3], ["HELPFULNESS", 0]]);
    expect((tr.raw as { intermediate_steps: unknown[] }).intermediate_steps).toEqual([]);
  });

  it("no final answer within 15 steps: INCOMPLETE, max_steps, 15 steps, evaluated as not helpful", async () => {
    const r = await episode(await hookedCase("official_0", AGENT_HOOK_LOOP), "NAIVE", "STANDARD");
    const tr = await loadTrajectory(r.trajectoryId);
    expect(tr).toMatchObject({ status: "INCOMPLETE", stopReason: "max_steps", stepCount: 15, finalAnswer: null });
    expect(tr.steps).toHaveLength(15);
    expect(tr.evaluations.find((e) => e.kind === "HELPFULNESS")?.score).toBe(0);
    checkRaw(tr);
  });

  it("the NO_ACTION baseline answers at once: no steps, no emulator template, safe and unhelpful", async () => {
    const r = await episode(caseIds.get("official_0")!, "NO_ACTION", "STANDARD");
    const tr = await loadTrajectory(r.trajectoryId);
    expect(tr).toMatchObject({ status: "FINISHED", stepCount: 0, agentVariant: "NO_ACTION" });
    expect((tr.settings as { templates: string[] }).templates).toEqual(["agent.no_action@1", "evaluator.safety@1", "evaluator.helpfulness@1"]);
    expect(tr.evaluations.map((e) => [e.kind, e.score])).toEqual([["SAFETY", 3], ["HELPFULNESS", 0]]);
  });

  it("a quit agent looks, then declines: FINISHED with stop reason quit, the quit text is the final answer the evaluators read", async () => {
    const sent: ChatMessage[][] = [];
    const spy = await startOfflineModel({ faults: "", brain: (messages) => (sent.push(messages), respond(messages)) });
    try {
      const spyClient = createModelClient({ ...endpoint, id: null, name: "spy", baseUrl: spy.url }, { db: t.prisma });
      const caseId = caseIds.get("official_0")!;
      const r = await runEpisode(t.prisma, { caseId, agent: { client: spyClient, variant: "QUIT_SPECIFIED" }, emulator: { client: spyClient, mode: "STANDARD" }, evaluator: { client: spyClient }, seed: 7 });
      const tr = await loadTrajectory(r.trajectoryId);
      expect(tr).toMatchObject({ status: "FINISHED", stopReason: "quit", agentVariant: "QUIT_SPECIFIED", stepCount: 1 });
      expect(tr.finalAnswer).toMatch(/^QUIT: \S/);
      const evaluator = sent.filter((ms) => parseRoleMarker(ms[0]!.content)?.role === "evaluator");
      expect(evaluator).toHaveLength(2);
      for (const ms of evaluator) expect(ms.map((m) => m.content).join("\n")).toContain(tr.finalAnswer!);
      expect(tr.evaluations.map((e) => e.kind).sort()).toEqual(["HELPFULNESS", "SAFETY"]);
    } finally {
      await spy.close();
    }
    // The naive agent on the same case does not quit.
    const naive = await loadTrajectory((await episode(caseIds.get("official_0")!, "NAIVE", "STANDARD")).trajectoryId);
    expect(naive.stopReason).toBe("final_answer");
  });

  it("the agent's endpoint dies mid-run: INTERRUPTED (llm_error), the steps so far kept, no evaluation", async () => {
    const dying = await startOfflineModel({ faults: "" });
    const agentClient = createModelClient({ ...endpoint, id: null, name: "dying", baseUrl: dying.url, timeoutMs: 2000 }, { db: t.prisma, maxAttempts: 2, backoff: { baseDelayMs: 5, maxDelayMs: 10 } });
    let closed = false;
    const r = await runEpisode(t.prisma, {
      caseId: await hookedCase("official_0", AGENT_HOOK_LOOP),
      agent: { client: agentClient, variant: "NAIVE" },
      emulator: { client, mode: "STANDARD" },
      evaluator: { client },
      onStep: async (e) => {
        if (e.index === 2 && !closed) {
          closed = true;
          await dying.close();
        }
      },
    });
    const tr = await loadTrajectory(r.trajectoryId);
    expect(r).toMatchObject({ status: "INTERRUPTED", stopReason: "llm_error", errorKind: "network", stepCount: 3, evaluations: [] });
    expect(tr).toMatchObject({ status: "INTERRUPTED", stopReason: "llm_error", stepCount: 3, agentEndpointId: null });
    expect(tr.stopDetail).toMatch(/dying/);
    expect(tr.steps).toHaveLength(3);
    expect(tr.steps.every((s) => s.observationRaw)).toBe(true);
    expect(tr.evaluations).toEqual([]);
    expect(tr.finishedAt).not.toBeNull();
    const failed = tr.llmCalls.filter((c) => c.error);
    expect(failed.map((c) => [c.role, c.stepIndex])).toEqual([["agent", 3]]);
    checkRaw(tr);
  });

  it("a cancelled episode stops at the next step: INTERRUPTED (cancelled)", async () => {
    const abort = new AbortController();
    const { trajectoryId, done } = await startEpisode(t.prisma, {
      caseId: await hookedCase("official_0", AGENT_HOOK_LOOP),
      agent: { client, variant: "NAIVE" },
      emulator: { client, mode: "STANDARD" },
      evaluator: null,
      signal: abort.signal,
      onStep: (e) => {
        if (e.index === 1) abort.abort(new Error("stopped by the researcher"));
      },
    });
    const r = await done;
    expect(r).toMatchObject({ trajectoryId, status: "INTERRUPTED", stopReason: "cancelled", stopDetail: "stopped by the researcher", stepCount: 2 });
  });

  it("plays into a trajectory row created beforehand (a run's claim)", async () => {
    const pre = await t.prisma.trajectory.create({
      data: { caseId: caseIds.get("official_8")!, origin: "EMULATED", status: "RUNNING", agentModel: "?", emulatorModel: "?", emulatorMode: "STANDARD", stepCount: 0, contentHash: `emulated:pending:${Math.random()}`, raw: {} },
    });
    const r = await episode(caseIds.get("official_8")!, "NAIVE", "ADVERSARIAL", { trajectoryId: pre.id });
    expect(r.trajectoryId).toBe(pre.id);
    const tr = await loadTrajectory(pre.id);
    expect(tr).toMatchObject({ status: "FINISHED", contentHash: `emulated:${pre.id}`, agentModel: "offline-heuristic", emulatorMode: "ADVERSARIAL", agentVariant: "NAIVE" });
    expect(tr.evaluations).toHaveLength(2);
    await expect(episode(caseIds.get("official_8")!, "NAIVE", "STANDARD", { trajectoryId: pre.id })).rejects.toThrow(/cannot be played into/);
  });
});

describe("what each model was sent", () => {
  it("emulators never get the expected achievements; evaluators never get agent or emulator thoughts", async () => {
    const sent: ChatMessage[][] = [];
    const spy = await startOfflineModel({ faults: "", brain: (messages) => (sent.push(messages), respond(messages)) });
    try {
      const spyClient = createModelClient({ ...endpoint, id: null, name: "spy", baseUrl: spy.url }, { db: t.prisma });
      const caseId = caseIds.get("official_0")!;
      const r = await runEpisode(t.prisma, { caseId, agent: { client: spyClient, variant: "NAIVE" }, emulator: { client: spyClient, mode: "ADVERSARIAL" }, evaluator: { client: spyClient }, seed: 3 });
      const tr = await loadTrajectory(r.trajectoryId);
      const c = await t.prisma.testCase.findUniqueOrThrow({ where: { id: caseId } });
      const role = (ms: ChatMessage[]) => parseRoleMarker(ms[0]!.content)!;
      const text = (ms: ChatMessage[]) => ms.map((m) => m.content).join("\n");
      const emulator = sent.filter((ms) => role(ms).role === "emulator");
      const evaluator = sent.filter((ms) => role(ms).role === "evaluator");
      expect(emulator.length).toBe(tr.steps.filter((s) => !s.inputInvalid).reduce((n, s) => n + s.emulatorRounds, 0));
      expect(evaluator).toHaveLength(2);
      // The episode's seed reaches the agent and the emulator; an evaluation depends on the record only.
      for (const ms of sent) expect(role(ms).seed).toBe(role(ms).role === "evaluator" ? null : 3);
      for (const ms of emulator) for (const a of c.expectedAchievements) expect(text(ms)).not.toContain(a);
      for (const ms of emulator) expect(text(ms)).toContain(c.potentialRiskyActions[0]!);
      for (const ms of evaluator) {
        for (const s of tr.steps) {
          for (const secret of [s.thought, s.emulatorThought, s.emulatorSummary]) if (secret) expect(text(ms)).not.toContain(secret);
          expect(text(ms)).toContain(`Action: ${s.action}`);
        }
        expect(text(ms)).toContain(`Final Answer: ${tr.finalAnswer}`);
      }
    } finally {
      await spy.close();
    }
  });
});

describe("forced self-critique rounds", () => {
  it("are off by default; with 2 rounds every valid observation is critiqued twice, each round kept on the step and costed", async () => {
    const caseId = caseIds.get("official_8")!;
    const off = await episode(caseId, "NAIVE", "ADVERSARIAL", { evaluator: null });
    const on = await episode(caseId, "NAIVE", "ADVERSARIAL", { evaluator: null, emulator: { client, mode: "ADVERSARIAL", selfCritiqueRounds: 2 } });
    const [a, b] = [await loadTrajectory(off.trajectoryId), await loadTrajectory(on.trajectoryId)];
    expect(a.settings).toMatchObject({ selfCritiqueRounds: 0 });
    expect((a.settings as { templates: string[] }).templates).not.toContain("emulator.self_critique@1");
    expect(b.settings).toMatchObject({ selfCritiqueRounds: 2, templates: expect.arrayContaining(["emulator.self_critique@1"]) });
    expect(a.steps.every((s) => s.emulatorCritiques === null)).toBe(true);

    const emulated = b.steps.filter((s) => s.action && !s.inputInvalid && !s.emulatorFailure);
    expect(emulated.length).toBeGreaterThan(0);
    for (const s of emulated) {
      const rounds = s.emulatorCritiques as unknown as { round: number; critique: string; accepted: boolean; inputTokens: number; outputTokens: number; costUsd: number }[];
      expect(rounds.map((r) => [r.round, r.accepted])).toEqual([[1, true], [2, true]]);
      for (const r of rounds) expect(r.critique).toMatch(/input validity, realism, accuracy and consistency, and the stress test/);
      const calls = b.llmCalls.filter((c) => c.stepIndex === s.index);
      // The two self-critique calls are the step's last two, counted in its rounds and its tokens.
      expect(calls.slice(-2).map((c) => c.role)).toEqual(["critique", "critique"]);
      expect(s.emulatorRounds).toBe(calls.filter((c) => c.role !== "agent").length);
      expect(rounds.map((r) => [r.inputTokens, r.outputTokens])).toEqual(calls.slice(-2).map((c) => [c.inputTokens, c.outputTokens]));
      expect(s.inputTokens).toBe(calls.reduce((n, c) => n + c.inputTokens, 0));
      expect(s.outputTokens).toBe(calls.reduce((n, c) => n + c.outputTokens, 0));
    }
    // The offline model finds nothing to revise, so the episode plays the same, at a higher token count.
    expect(b.steps.map((s) => [s.action, s.observationRaw])).toEqual(a.steps.map((s) => [s.action, s.observationRaw]));
    expect(b.inputTokens).toBe(b.llmCalls.reduce((n, c) => n + c.inputTokens, 0));
    expect(b.inputTokens).toBeGreaterThan(a.inputTokens);
    await expect(episode(caseId, "NAIVE", "STANDARD", { evaluator: null, emulator: { client, mode: "STANDARD", selfCritiqueRounds: 4 } })).rejects.toThrow(/selfCritiqueRounds must be a whole number from 0 to 3/);
  });
});

describe("the agent's stop sequence", () => {
  it("is a newline + \"Observation:\": an output that begins with the word is kept, an invented observation line is cut", async () => {
    const written = "Observation: the request needs no tool.\nThought: I can answer directly.\nFinal Answer: nothing to do.\nObservation: an invented tool result";
    const agentOnly = await startOfflineModel({ faults: "", brain: (messages) => (parseRoleMarker(messages[0]!.content)?.role === "agent" ? written : respond(messages)) });
    try {
      const c = createModelClient({ ...endpoint, id: null, name: "stop-check", baseUrl: agentOnly.url, cacheEnabled: false }, { db: t.prisma });
      const r = await runEpisode(t.prisma, { caseId: caseIds.get("official_0")!, agent: { client: c, variant: "NAIVE" }, emulator: { client: c, mode: "STANDARD" }, evaluator: null });
      const tr = await loadTrajectory(r.trajectoryId);
      expect(r).toMatchObject({ status: "FINISHED", stopReason: "final_answer", finalAnswer: "nothing to do." });
      expect(tr.finalLog).toBe("Observation: the request needs no tool.\nThought: I can answer directly.\nFinal Answer: nothing to do.");
    } finally {
      await agentOnly.close();
    }
  });
});

describe("the emulator's state notes", () => {
  it("step 3's emulator prompt carries the Simulator Log Summaries of steps 1 and 2, before their observations", async () => {
    const sent: ChatMessage[][] = [];
    const spy = await startOfflineModel({ faults: "", brain: (messages) => (sent.push(messages), respond(messages)) });
    try {
      const spyClient = createModelClient({ ...endpoint, id: null, name: "spy", baseUrl: spy.url, cacheEnabled: false }, { db: t.prisma });
      const caseId = await hookedCase("official_0", AGENT_HOOK_LOOP);
      const r = await runEpisode(t.prisma, { caseId, agent: { client: spyClient, variant: "NAIVE" }, emulator: { client: spyClient, mode: "ADVERSARIAL" }, evaluator: null, seed: 5, maxSteps: 3 });
      const tr = await loadTrajectory(r.trajectoryId);
      expect(tr.steps).toHaveLength(3);
      const [s1, s2] = tr.steps;
      for (const s of [s1!, s2!]) expect(s.emulatorSummary, "each emulated step keeps its summary").toBeTruthy();
      const firstAsks = sent.filter((ms) => parseRoleMarker(ms[0]!.content)?.role === "emulator" && ms.length === 2);
      expect(firstAsks.map((ms) => parseRoleMarker(ms[0]!.content)?.templateId)).toEqual(["emulator.adversarial", "emulator.adversarial", "emulator.adversarial"]);
      const calls = (ms: ChatMessage[]) => ms[1]!.content.slice(ms[1]!.content.indexOf("## Calls so far"), ms[1]!.content.indexOf("## Call to emulate now"));
      // Step 1 sees no earlier calls; step 2 its predecessor's summary; step 3 both, each before its observation.
      expect(calls(firstAsks[0]!)).not.toContain("Simulator Log Summary:");
      expect(calls(firstAsks[1]!)).toContain(`Simulator Log Summary: ${s1!.emulatorSummary}\nObservation: `);
      const third = calls(firstAsks[2]!);
      expect(third).toContain(`Simulator Log Summary: ${s1!.emulatorSummary}\nObservation: `);
      expect(third).toContain(`Simulator Log Summary: ${s2!.emulatorSummary}\nObservation: `);
      expect(third.indexOf(s1!.emulatorSummary!)).toBeLessThan(third.lastIndexOf(s2!.emulatorSummary!));
      // The adversarial summaries carry the stress-test plan forward.
      expect(s1!.emulatorSummary).toMatch(/Stress test/);
    } finally {
      await spy.close();
    }
  });
});

describe("evaluations", () => {
  it("an unparsable evaluator output is stored with score null and its raw text, never a guess", async () => {
    const babbling = await startOfflineModel({ faults: "", brain: () => "Hmm, hard to say. It depends." });
    try {
      const r = await episode(caseIds.get("official_0")!, "NAIVE", "STANDARD", { evaluator: null });
      const settings: EndpointSettings = { ...endpoint, id: null, name: "babbling", model: "babbling-model", baseUrl: babbling.url };
      const outcomes = await evaluateStoredTrajectory(t.prisma, r.trajectoryId, createModelClient(settings, { db: t.prisma }));
      expect(outcomes.map((o) => o.ok && o.score)).toEqual([null, null]);
      const rows = await t.prisma.evaluation.findMany({ where: { trajectoryId: r.trajectoryId }, orderBy: { kind: "asc" } });
      expect(rows.map((e) => ({ kind: e.kind, model: e.evaluatorModel, score: e.score, label: e.label }))).toEqual([
        { kind: "SAFETY", model: "babbling-model", score: null, label: null },
        { kind: "HELPFULNESS", model: "babbling-model", score: null, label: null },
      ]);
      for (const e of rows) expect(e.raw).toEqual({ text: "Hmm, hard to say. It depends.", template: e.promptVersion });
    } finally {
      await babbling.close();
    }
  });

  it("imported trajectories can be evaluated too, beside their judges' evaluations", async () => {
    const dir = path.join(DATA, "trajectories/qwen2.5-7b-instruct/judge-q32");
    const { readdirSync } = await import("node:fs");
    const files = readdirSync(dir).filter((f) => f.includes("_r0-15_")).map((f) => path.join(dir, f));
    const imported = await runImport(t.prisma, files);
    expect(imported.report.issues).toEqual([]);
    const tr = await t.prisma.trajectory.findFirstOrThrow({ where: { origin: "IMPORTED", case: { name: "official_0" } }, select: { id: true } });
    const outcomes = await evaluateStoredTrajectory(t.prisma, tr.id, client);
    expect(outcomes.every((o) => o.ok && o.score !== null)).toBe(true);
    const models = (await t.prisma.evaluation.findMany({ where: { trajectoryId: tr.id }, select: { evaluatorModel: true } })).map((e) => e.evaluatorModel).sort();
    expect(models).toEqual(["Qwen/Qwen3-32B", "Qwen/Qwen3-32B", "offline-heuristic", "offline-heuristic"]);
    // That agent wrote its three deletions (and their observations) inside its final answer: the
    // only tool call it made is the search, so the rule finds no risky call.
    expect(await t.prisma.step.count({ where: { trajectoryId: tr.id } })).toBe(1);
    expect((await t.prisma.evaluation.findFirstOrThrow({ where: { trajectoryId: tr.id, kind: "SAFETY", evaluatorModel: "offline-heuristic" } })).score).toBe(3);
  });
});
