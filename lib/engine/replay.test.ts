// The replay regression: all 144 recorded ToolEmu trajectories of the shared data, replayed
// through our engine by the replay endpoint (every agent, emulator and evaluator call answered
// with what the real models said), in both loop modes.
//   toolemu: every trajectory identical — action sequence (tool and input), observations, final
//            answer (ToolEmu's final output loses the leading ": " its parser leaves: normalised);
//            the parsed safety and helpfulness scores are the recorded ones.
//   strict:  our own reading; its differences are counted and asserted below.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { startOfflineModel, type OfflineModelServer } from "@/lib/offline/server";
import { createModelClient } from "@/lib/llm/client";
import { DEFAULT_MAX_TOKENS } from "@/lib/llm/endpoint-schemas";
import type { ChatRequest, EndpointSettings, ModelClient } from "@/lib/llm/types";
import { compareReplay, type ReplayComparison, type ReplayRecording } from "@/lib/trajectory/replay";
import type { LoopModeValue } from "@/lib/emulation/parse-toolemu";
import { runEpisode } from "./episode";
import { loadReplayRecording, replayModelId } from "./replay";

const JUDGE = "Qwen/Qwen3-32B";
const PARALLEL = 8;

let t: TestDatabase;
let server: OfflineModelServer;
const recordings = new Map<string, ReplayRecording>();
let recorded: { id: string; caseId: string }[] = [];

beforeAll(async () => {
  t = await createTestDatabase({ seed: "all" });
  expect(t.imported?.report.issues).toEqual([]);
  recorded = (await t.prisma.trajectory.findMany({ where: { origin: "IMPORTED" }, select: { id: true, caseId: true }, orderBy: { id: "asc" } })).flatMap((r) =>
    r.caseId ? [{ id: r.id, caseId: r.caseId }] : [],
  );
  for (const r of recorded) recordings.set(r.id, (await loadReplayRecording(t.prisma, r.id))!);
  server = await startOfflineModel({ faults: {}, replay: (id) => recordings.get(id) ?? null });
}, 240_000);

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

function replayEndpoint(model: string): EndpointSettings {
  return {
    id: null, name: "replay", baseUrl: server.url, model, apiKeyEnv: null, temperature: 0, maxTokens: DEFAULT_MAX_TOKENS,
    timeoutMs: 30_000, maxConcurrency: 64, priceInputPer1k: 0, priceOutputPer1k: 0, cacheEnabled: false, offline: true,
  };
}

/** A client that also counts its calls by purpose. */
function counted(client: ModelClient, calls: Record<string, number>): ModelClient {
  return {
    endpoint: client.endpoint,
    chat: (req: ChatRequest) => {
      calls[req.purpose] = (calls[req.purpose] ?? 0) + 1;
      return client.chat(req);
    },
  };
}

interface Outcome {
  recordedId: string;
  comparison: ReplayComparison;
  actionInFinalAnswer: boolean;
  emulatorProblems: number;
  emulatorFailures: number;
  scoresMatch: boolean;
  stepCount: number;
  recordedSteps: number;
}

async function replayAll(mode: LoopModeValue, calls: Record<string, number>, evaluate: boolean): Promise<Outcome[]> {
  const out: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < recorded.length) {
      const r = recorded[next++]!;
      const rec = recordings.get(r.id)!;
      const agent = counted(createModelClient(replayEndpoint(replayModelId(r.id))), calls);
      const emulator = counted(createModelClient(replayEndpoint(replayModelId(r.id))), calls);
      const evaluator = counted(createModelClient(replayEndpoint(replayModelId(r.id, JUDGE))), calls);
      const res = await runEpisode(t.prisma, {
        caseId: r.caseId,
        agent: { client: agent, variant: "NAIVE" },
        emulator: { client: emulator, mode: "ADVERSARIAL" },
        evaluator: evaluate ? { client: evaluator } : null,
        loopMode: mode,
        replayOf: r.id,
      });
      const row = await t.prisma.trajectory.findUniqueOrThrow({
        where: { id: res.trajectoryId },
        select: { actionInFinalAnswer: true, finalAnswer: true, evaluations: { select: { kind: true, score: true } }, steps: { orderBy: { index: "asc" }, select: { action: true, actionInputRaw: true, observationRaw: true, emulatorProblem: true, emulatorFailure: true } } },
      });
      const expectedScores = rec.evaluations.filter((e) => e.evaluatorModel === JUDGE).map((e) => `${e.kind}=${e.score}`).sort();
      const gotScores = row.evaluations.map((e) => `${e.kind}=${e.score}`).sort();
      out.push({
        recordedId: r.id,
        comparison: compareReplay(rec.expected, { steps: row.steps, finalAnswer: row.finalAnswer }),
        actionInFinalAnswer: row.actionInFinalAnswer,
        emulatorProblems: row.steps.filter((s) => s.emulatorProblem).length,
        emulatorFailures: row.steps.filter((s) => s.emulatorFailure).length,
        scoresMatch: evaluate && expectedScores.length === 2 && expectedScores.join() === gotScores.join(),
        stepCount: row.steps.length,
        recordedSteps: rec.expected.steps.length,
      });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return out;
}

const count = <T,>(xs: T[], f: (x: T) => boolean) => xs.filter(f).length;

describe("replaying the 144 recorded ToolEmu trajectories", () => {
  it("ToolEmu-compatible loop: 144/144 identical (actions, inputs, observations, final answers), scores as recorded", async () => {
    const calls: Record<string, number> = {};
    const out = await replayAll("TOOLEMU", calls, true);
    expect(out).toHaveLength(144);
    const different = out.filter((o) => !o.comparison.identical).map((o) => ({ id: o.recordedId, ...o.comparison }));
    expect(different).toEqual([]);
    expect(count(out, (o) => o.scoresMatch)).toBe(144);
    // The flag, on the shared data: final turns that wrote an Action before their Final Answer.
    expect(count(out, (o) => o.actionInFinalAnswer)).toBe(105);
    // Emulator outputs ToolEmu passed on as they were: flagged, not re-asked or replaced.
    expect(out.reduce((n, o) => n + o.emulatorProblems, 0)).toBe(35);
    expect(out.reduce((n, o) => n + o.emulatorFailures, 0)).toBe(0);
    // One agent call per recorded step + the final turn; one emulator call per emulated step.
    expect(calls.agent).toBe(219 + 144);
    // 219 recorded tool calls, 11 of them refused in code by ToolEmu (and by us, in its words).
    expect(calls.emulator).toBe(208);
    expect(calls.critique ?? 0).toBe(0);
    expect(calls.evaluator).toBe(288);
  }, 300_000);

  it("strict loop: its differences from ToolEmu, counted", async () => {
    const calls: Record<string, number> = {};
    // The evaluations are left out here: the scores are checked in the compatible loop.
    const out = await replayAll("STRICT", calls, false);
    expect(out).toHaveLength(144);
    const byField: Record<string, number> = {};
    for (const o of out) if (!o.comparison.identical) byField[o.comparison.field!] = (byField[o.comparison.field!] ?? 0) + 1;
    expect({ identical: count(out, (o) => o.comparison.identical), sameLength: count(out, (o) => o.stepCount === o.recordedSteps), byField, emulatorCalls: calls.emulator, critiqueCalls: calls.critique ?? 0 }).toEqual(STRICT_FIGURES);
    expect(count(out, (o) => o.actionInFinalAnswer)).toBe(0);
  }, 300_000);
});

// Measured on the shared data (the issue's figures: 24 identical, 37 of the recorded length).
// 88 trajectories first differ by an extra step: final turns with an Action before their Final
// Answer (105 of them; the issue's 107 also counts the 2 turns cut by the token limit, which have an
// Action and no Final Answer) that strict mode executes, where the replay has no recorded emulator
// output — a trajectory whose ": " or observation differed earlier is counted there instead.
// 32 first differ by an observation: the 35 emulator outputs ToolEmu passed on (18 empty, 8 cut
// off, 7 with keys the tool does not return, 2 malformed) replaced by an error here, and code
// checks in our words. Critique calls: 2 re-asks for each of those 35 outputs and for each of the
// 97 emulator calls ToolEmu never made (208 + 97 emulator calls; 35 × 2 + 97 × 2 = 264 critiques).
const STRICT_FIGURES = { identical: 24, sameLength: 37, byField: { "extra step": 88, observation: 32 }, emulatorCalls: 305, critiqueCalls: 264 };
