// The client through the official openai SDK against the real offline model over HTTP, with a
// real database for the LlmCall rows and the cache. Waits between attempts go to an injected
// sleep that records them and returns at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createModelClient, type ModelClientOptions } from "./client";
import { ensureOfflineEndpoint } from "./endpoints";
import { startOfflineModel, type OfflineModelServer } from "@/lib/offline/server";
import { LlmCallError, type ChatMessage, type EndpointSettings } from "./types";

let t: TestDatabase;
let s: OfflineModelServer;
let base: EndpointSettings;
const REPLY = "Thought: I can answer.\nFinal Answer: the answer is 42.";

beforeAll(async () => {
  [t, s] = await Promise.all([createTestDatabase(), startOfflineModel({ faults: "retryAfter=2,hangMs=400", brain: () => REPLY })]);
  const offline = await ensureOfflineEndpoint(t.prisma, s.url);
  base = { ...offline, priceInputPer1k: 0.5, priceOutputPer1k: 1.5, timeoutMs: 5000 };
});
afterAll(async () => {
  await s?.close();
  await t?.cleanup();
});

let n = 0;
/** Distinct messages per call, so rows and cache entries of one test never meet another's. */
const msgs = (text = "task"): ChatMessage[] => [{ role: "system", content: "You are the agent." }, { role: "user", content: `${text} #${++n}` }];

function recorder() {
  const sleeps: number[] = [];
  const opts: ModelClientOptions = { db: t.prisma, sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 };
  return { sleeps, opts };
}

async function lastCall() {
  return t.prisma.llmCall.findFirstOrThrow({ orderBy: { id: "desc" } });
}

describe("model client over HTTP", () => {
  it("makes a call with usage, cost and an LlmCall row", async () => {
    const { sleeps, opts } = recorder();
    const client = createModelClient(base, opts);
    const messages = msgs();
    const r = await client.chat({ purpose: "agent", messages, stepIndex: 3, stop: ["\nObservation:"] });
    expect(r.content).toBe(REPLY);
    const input = messages.reduce((k, m) => k + Math.ceil(m.content.length / 4) + 4, 0);
    const output = Math.ceil(REPLY.length / 4);
    expect(r).toMatchObject({ inputTokens: input, outputTokens: output, attempts: 1, cached: false, retryReasons: [] });
    expect(r.costUsd).toBeCloseTo((input / 1000) * 0.5 + (output / 1000) * 1.5, 9);
    expect(r.latencyMs).toBeGreaterThan(0);
    expect(sleeps).toEqual([]);
    const row = await lastCall();
    expect(row).toMatchObject({ endpointId: base.id, role: "agent", stepIndex: 3, model: "offline-heuristic", inputTokens: input, outputTokens: output, attempts: 1, cached: false, error: null, retryReasons: [] });
    expect(row.costUsd).toBeCloseTo(r.costUsd, 9);
  });

  it("sends the token limit in the endpoint's configured field (max_tokens by default, max_completion_tokens when set)", async () => {
    const before = { ...s.stats.tokenParams };
    await createModelClient({ ...base, cacheEnabled: false }, { db: t.prisma }).chat({ purpose: "agent", messages: msgs() });
    expect(s.stats.tokenParams).toEqual({ ...before, max_tokens: before.max_tokens + 1 });
    // The server honours the field it got: a 3-token limit cuts the reply to 12 characters.
    const r = await createModelClient({ ...base, cacheEnabled: false, tokenParam: "max_completion_tokens", maxTokens: 3 }, { db: t.prisma }).chat({ purpose: "agent", messages: msgs() });
    expect(s.stats.tokenParams).toEqual({ ...before, max_tokens: before.max_tokens + 1, max_completion_tokens: before.max_completion_tokens + 1 });
    expect(r.content).toBe(REPLY.slice(0, 12));
  });

  it("honours Retry-After on a 429", async () => {
    const { sleeps, opts } = recorder();
    s.injectFaults("429");
    const r = await createModelClient(base, opts).chat({ purpose: "emulator", messages: msgs() });
    expect(sleeps).toEqual([2000]);
    expect(r).toMatchObject({ content: REPLY, attempts: 2, retryReasons: ["429 retry-after 2s"] });
    expect(await lastCall()).toMatchObject({ role: "emulator", attempts: 2, retryReasons: ["429 retry-after 2s"], error: null });
  });

  it("retries a 500 with jittered backoff, then succeeds", async () => {
    const { sleeps, opts } = recorder();
    s.injectFaults("500", "500");
    const r = await createModelClient(base, { ...opts, backoff: { baseDelayMs: 400 } }).chat({ purpose: "evaluator", messages: msgs() });
    // random() = 0.5: half of 400, then half of 800.
    expect(sleeps).toEqual([200, 400]);
    expect(r).toMatchObject({ attempts: 3, retryReasons: ["500 server error", "500 server error"] });
  });

  it("retries a hang past the timeout, then fails with reason timeout", async () => {
    const { sleeps, opts } = recorder();
    s.injectFaults("hang", "hang");
    const before = { ...s.stats, faults: { ...s.stats.faults } };
    const err = await createModelClient({ ...base, timeoutMs: 150 }, { ...opts, maxAttempts: 2 }).chat({ purpose: "agent", messages: msgs() }).catch((e) => e);
    // The client hung up on both (the server's hang is 400 ms): once the server has let go of
    // them, it answered neither. (No clock: how long that took depends on the machine.)
    while (s.stats.inFlight > 0) await new Promise((r) => setTimeout(r, 10));
    expect(s.stats.faults.hang - before.faults.hang).toBe(2);
    expect(s.stats.completions).toBe(before.completions);
    expect(err).toBeInstanceOf(LlmCallError);
    expect(err).toMatchObject({ kind: "timeout", attempts: 2, retryReasons: ["timeout after 150 ms"] });
    expect(err.message).toContain("timeout of 150 ms");
    expect(sleeps).toHaveLength(1);
    const row = await lastCall();
    expect(row).toMatchObject({ attempts: 2, cached: false, retryReasons: ["timeout after 150 ms"], inputTokens: 0, costUsd: 0 });
    expect(row.error).toMatch(/^timeout: /);
  });

  it("retries malformed output (no choices, invalid JSON) and records it; gives up with malformed_response", async () => {
    const { opts } = recorder();
    s.injectFaults("malformed", "invalid-json");
    const ok = await createModelClient(base, opts).chat({ purpose: "agent", messages: msgs() });
    expect(ok).toMatchObject({ content: REPLY, attempts: 3 });
    expect(ok.retryReasons).toEqual(["malformed response: no choices", "malformed response: invalid JSON"]);

    s.injectFaults("malformed", "malformed", "malformed");
    const err = await createModelClient(base, { ...opts, maxAttempts: 3 }).chat({ purpose: "agent", messages: msgs() }).catch((e) => e);
    expect(err).toMatchObject({ kind: "malformed_response", attempts: 3 });
    expect((await lastCall()).error).toMatch(/^malformed_response: .*malformed response \(no choices\)/);
  });

  it("refuses at once when the API key's variable is missing, naming the variable and never a value", async () => {
    const { opts } = recorder();
    const before = s.stats.requests;
    const ep = { ...base, apiKeyEnv: "LLM_KEY_TOOLEMU_TEST" };
    const err = await createModelClient(ep, { ...opts, env: {} }).chat({ purpose: "ping", messages: msgs() }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmCallError);
    expect(err.kind).toBe("missing_api_key");
    expect(err.attempts).toBe(0);
    expect(err.message).toContain("LLM_KEY_TOOLEMU_TEST");
    expect(s.stats.requests).toBe(before);
    expect(await lastCall()).toMatchObject({ role: "ping", attempts: 0, error: expect.stringContaining("missing_api_key") });

    const secret = "sk-test-secret-value-123";
    const r = await createModelClient(ep, { ...opts, env: { LLM_KEY_TOOLEMU_TEST: secret } }).chat({ purpose: "ping", messages: msgs() });
    expect(r.content).toBe(REPLY);
    expect(JSON.stringify(await t.prisma.llmCall.findMany(), (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(secret);
  });

  it("does not retry a 400 or a 404", async () => {
    const { sleeps, opts } = recorder();
    const bad = await createModelClient(base, opts).chat({ purpose: "agent", messages: [] }).catch((e) => e);
    expect(bad).toMatchObject({ kind: "bad_request", attempts: 1 });
    expect(bad.message).toContain("messages");
    const wrongPath = await createModelClient({ ...base, baseUrl: s.url.replace(/\/v1$/, "/v2") }, opts).chat({ purpose: "agent", messages: msgs() }).catch((e) => e);
    expect(wrongPath).toMatchObject({ kind: "bad_request", attempts: 1 });
    expect(wrongPath.message).toContain("check the base URL");
    expect(sleeps).toEqual([]);
  });

  it("retries network errors (nothing listening) and then names the cause", async () => {
    const { sleeps, opts } = recorder();
    const dead = await startOfflineModel({ faults: "" });
    const url = dead.url;
    await dead.close();
    const err = await createModelClient({ ...base, baseUrl: url }, { ...opts, maxAttempts: 3 }).chat({ purpose: "agent", messages: msgs() }).catch((e) => e);
    expect(err).toMatchObject({ kind: "network", attempts: 3 });
    expect(err.retryReasons[0]).toBe("network: ECONNREFUSED");
    expect(err.message).toContain("could not reach the server (ECONNREFUSED)");
    expect(sleeps).toHaveLength(2);
  });

  it("serves the second identical call from the cache without an HTTP request", async () => {
    const { opts } = recorder();
    const client = createModelClient({ ...base, cacheEnabled: true }, opts);
    const messages = msgs("cache me");
    const before = s.stats.requests;
    const first = await client.chat({ purpose: "evaluator", messages });
    const second = await client.chat({ purpose: "evaluator", messages });
    expect(s.stats.requests).toBe(before + 1);
    expect(first).toMatchObject({ cached: false, attempts: 1 });
    expect(second).toMatchObject({ content: first.content, cached: true, attempts: 0, costUsd: 0, inputTokens: first.inputTokens, outputTokens: first.outputTokens, retryReasons: [] });
    expect(await lastCall()).toMatchObject({ cached: true, attempts: 0, costUsd: 0 });
    expect((await t.prisma.llmCacheEntry.findMany()).map((e) => e.hits)).toEqual([1]);
    // Other parameters are another key; with the cache off nothing is read.
    await client.chat({ purpose: "evaluator", messages, stop: ["X"] });
    await createModelClient(base, opts).chat({ purpose: "evaluator", messages });
    expect(s.stats.requests).toBe(before + 3);
  });

  it("five samples at T = 0.7 with the cache on are five requests; the same five again are none", async () => {
    // The sample index and the per-request temperature are part of the cache key: before they
    // were, replicates of one prompt collapsed into a single cached answer.
    const seen: (number | undefined)[] = [];
    const server = await startOfflineModel({ faults: "", brain: (_m, p) => (seen.push(p.temperature), REPLY) });
    try {
      const { opts } = recorder();
      const client = createModelClient({ ...base, baseUrl: server.url, cacheEnabled: true, temperature: 0 }, opts);
      const messages = msgs("sample me");
      const five = () => Promise.all([1, 2, 3, 4, 5].map((sample) => client.chat({ purpose: "evaluator", messages, temperature: 0.7, sample })));
      const first = await five();
      expect(server.stats.requests).toBe(5);
      expect(first.map((r) => r.cached)).toEqual([false, false, false, false, false]);
      expect(seen).toEqual([0.7, 0.7, 0.7, 0.7, 0.7]);
      const again = await five();
      expect(server.stats.requests).toBe(5);
      expect(again.map((r) => r.cached)).toEqual([true, true, true, true, true]);
      // The endpoint's own temperature (0) is another key: one more request.
      await client.chat({ purpose: "evaluator", messages, sample: 1 });
      expect(server.stats.requests).toBe(6);
      expect(seen.at(-1)).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("keeps in-flight requests per endpoint within maxConcurrency", async () => {
    const slow = await startOfflineModel({ faults: "", latencyMs: 40, brain: () => "ok" });
    try {
      const { opts } = recorder();
      const client = createModelClient({ ...base, id: null, name: "slow", baseUrl: slow.url, maxConcurrency: 3 }, { ...opts, db: null });
      const results = await Promise.all(Array.from({ length: 12 }, () => client.chat({ purpose: "agent", messages: msgs() })));
      expect(results.every((r) => r.content === "ok")).toBe(true);
      expect(slow.stats.requests).toBe(12);
      expect(slow.stats.maxInFlight).toBe(3);
      // A second client of the same endpoint shares the limit.
      slow.resetStats();
      const twin = createModelClient({ ...base, id: null, name: "slow", baseUrl: slow.url, maxConcurrency: 3 }, { ...opts, db: null });
      await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? client : twin).chat({ purpose: "agent", messages: msgs() })));
      expect(slow.stats.maxInFlight).toBe(3);
    } finally {
      await slow.close();
    }
  });

  it("stops when the caller aborts", async () => {
    const { opts } = recorder();
    s.injectFaults("hang");
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("run cancelled")), 50);
    await expect(createModelClient(base, opts).chat({ purpose: "agent", messages: msgs(), signal: ac.signal })).rejects.toThrow("run cancelled");
  });
});
