import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_BACKOFF, formatDelay, parseRetryAfter, retryDelay } from "./retry";
import { callCostUsd, estimateTokens } from "./cost";
import { createInProcessLimiter } from "./limiter";
import { cacheKey } from "./cache";

describe("Retry-After", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");

  it("reads delta-seconds, whole or fractional", () => {
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
    expect(parseRetryAfter("120", now)).toBe(120_000);
  });

  it("reads an HTTP date, a past date giving 0", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", now)).toBe(0);
  });

  it("prefers retry-after-ms and ignores what it cannot read", () => {
    expect(parseRetryAfter("5", now, "250")).toBe(250);
    expect(parseRetryAfter("5", now, "nonsense")).toBe(5000);
    for (const bad of [null, undefined, "", "-1", "soon", "1e3", "NaN"]) expect(parseRetryAfter(bad, now)).toBeNull();
  });
});

describe("backoff", () => {
  const policy = { baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

  it("is full jitter within [0, min(max, base·2^(n-1))]", () => {
    for (let retry = 1; retry <= 10; retry++) {
      const cap = Math.min(8000, 500 * 2 ** (retry - 1));
      expect(backoffDelay(retry, policy, () => 0)).toBe(0);
      expect(backoffDelay(retry, policy, () => 0.999999)).toBe(Math.floor(0.999999 * cap));
      for (let i = 0; i < 50; i++) {
        const d = backoffDelay(retry, policy, Math.random);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(cap);
      }
    }
    expect(backoffDelay(1, policy, () => 0.5)).toBe(250);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(1000);
    expect(backoffDelay(30, policy, () => 0.5)).toBe(4000);
  });

  it("uses the server's Retry-After instead, capped", () => {
    expect(retryDelay(1, 2000, policy, () => 0.5)).toBe(2000);
    expect(retryDelay(1, 0, policy, () => 0.5)).toBe(0);
    expect(retryDelay(4, 3_600_000, policy, () => 0.5)).toBe(60_000);
    expect(retryDelay(2, null, policy, () => 0.5)).toBe(500);
    expect(DEFAULT_BACKOFF.maxRetryAfterMs).toBeGreaterThan(DEFAULT_BACKOFF.maxDelayMs);
  });

  it("formats delays for people", () => {
    expect(formatDelay(2000)).toBe("2s");
    expect(formatDelay(1500)).toBe("1.5s");
    expect(formatDelay(200)).toBe("200 ms");
  });
});

describe("cost and tokens", () => {
  it("estimates tokens as ceil(chars/4) and prices per 1k", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcde")).toBe(2);
    expect(callCostUsd({ priceInputPer1k: 0.5, priceOutputPer1k: 1.5 }, 2000, 1000)).toBeCloseTo(2.5, 12);
    expect(callCostUsd({ priceInputPer1k: 0.00015, priceOutputPer1k: 0.0006 }, 123, 45)).toBeCloseTo(0.00004545, 12);
  });
});

describe("cache key", () => {
  const base = { model: "m", messages: [{ role: "user" as const, content: "hi" }], temperature: 0, maxTokens: 100 };
  it("changes with every keyed field and nothing else", () => {
    const k = cacheKey(base);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKey({ ...base })).toBe(k);
    expect(cacheKey({ ...base, stop: [] })).toBe(k);
    expect(cacheKey({ ...base, model: "n" })).not.toBe(k);
    expect(cacheKey({ ...base, temperature: 0.1 })).not.toBe(k);
    expect(cacheKey({ ...base, maxTokens: 101 })).not.toBe(k);
    expect(cacheKey({ ...base, stop: ["\nObservation:"] })).not.toBe(k);
    expect(cacheKey({ ...base, messages: [{ role: "system", content: "hi" }] })).not.toBe(k);
  });
});

describe("in-process limiter", () => {
  it("never runs more than the limit per key, FIFO, and frees a slot on failure", async () => {
    const limiter = createInProcessLimiter();
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) => async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
      order.push(i);
      if (i === 2) throw new Error("boom");
      return i;
    };
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => limiter.run("k", 3, task(i))));
    expect(peak).toBe(3);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(order.slice(0, 3).sort()).toEqual([0, 1, 2]);
    expect(limiter.active("k")).toBe(0);
    // Another key is independent.
    let other = 0;
    await Promise.all([limiter.run("a", 1, async () => other++), limiter.run("b", 1, async () => other++)]);
    expect(other).toBe(2);
  });

  it("stops waiting when the signal aborts", async () => {
    const limiter = createInProcessLimiter();
    let release!: () => void;
    const first = limiter.run("k", 1, () => new Promise<void>((r) => (release = r)));
    const ac = new AbortController();
    let ran = false;
    const second = limiter.run("k", 1, async () => { ran = true; }, ac.signal);
    expect(limiter.waiting("k")).toBe(1);
    ac.abort(new Error("cancelled"));
    await expect(second).rejects.toThrow("cancelled");
    release();
    await first;
    expect(ran).toBe(false);
    expect(limiter.active("k")).toBe(0);
  });
});
