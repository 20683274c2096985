// The worker's scheduling helpers against a real database: background calls in the endpoint
// limiter (an episode's evaluations wait behind agent and emulator calls), the idle hold of a freed
// slot, and the batched LlmCall rows (lib/runs/call-log.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { createDbLimiter } from "@/lib/llm/endpoint-limiter";
import { createInProcessLimiter, type ConcurrencyLimiter } from "@/lib/llm/limiter";
import { batchedCallLog } from "./call-log";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(async () => {
  await t?.cleanup();
});

/** A promise and its resolve, to hold a call open. */
function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

/** Occupies the key's one slot, queues a background call then a normal one, frees the slot: who ran first. */
async function orderAfterRelease(l: ConcurrencyLimiter, key: string): Promise<string[]> {
  const order: string[] = [];
  const hold = gate();
  const started = gate();
  const first = l.run(key, 1, async () => {
    started.open();
    await hold.p;
  });
  await started.p;
  const background = l.run(key, 1, async () => void order.push("background"), undefined, { background: true });
  const normal = l.run(key, 1, async () => void order.push("normal"));
  const normal2 = l.run(key, 1, async () => void order.push("normal 2"));
  hold.open();
  await Promise.all([first, background, normal, normal2]);
  return order;
}

describe("background calls in the endpoint limiter", () => {
  it("the database limiter serves waiting normal calls before a background call queued earlier", async () => {
    const l = createDbLimiter(t.prisma, { minPollMs: 5, maxPollMs: 20 });
    try {
      expect(await orderAfterRelease(l, "bg-db")).toEqual(["normal", "normal 2", "background"]);
    } finally {
      await l.stop();
    }
  });

  it("so does the in-process limiter", async () => {
    expect(await orderAfterRelease(createInProcessLimiter(), "bg-mem")).toEqual(["normal", "normal 2", "background"]);
  });

  it("a freed slot nobody waits for is held a moment, then given back to the table", async () => {
    const l = createDbLimiter(t.prisma, { minPollMs: 5, maxPollMs: 20, idleHoldMs: 60_000 });
    const other = createDbLimiter(t.prisma, { minPollMs: 5, maxPollMs: 20, idleHoldMs: 0 });
    try {
      await l.run("idle", 1, async () => undefined);
      // Held idle: the next call of this process takes it without the table; another process waits.
      expect(l.held("idle")).toBe(1);
      expect((await t.prisma.endpointSlot.findMany({ where: { key: "idle" } })).map((s) => s.holder)).toEqual([l.holder]);
      await l.run("idle", 1, async () => undefined);
      expect(l.held("idle")).toBe(1);
      await l.stop();
      // Stopping gives it back: the other process gets it, and with idleHoldMs 0 frees it at once.
      await other.run("idle", 1, async () => undefined);
      const deadline = Date.now() + 10_000;
      while (other.held("idle") > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(other.held("idle")).toBe(0);
    } finally {
      await l.stop();
      await other.stop();
    }
  });
});

describe("batched LlmCall rows", () => {
  it("rows written together all land; a bad row fails alone, the others of its batch are kept", async () => {
    const log = batchedCallLog(t.prisma);
    const row = (i: number, trajectoryId: string | null = null) => ({
      data: { role: "agent" as const, model: `batch-test-${i}`, trajectoryId, inputTokens: i, outputTokens: 1, costUsd: 0, latencyMs: 1, attempts: 1, cached: false, retryReasons: [] },
    });
    const create = (r: ReturnType<typeof row>) => (log.llmCall.create as unknown as (a: typeof r) => Promise<unknown>)(r);
    const results = await Promise.allSettled([...Array.from({ length: 30 }, (_, i) => create(row(i))), create(row(99, "no-such-trajectory")), create(row(30))]);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(results[30]!.status).toBe("rejected");
    const stored = await t.prisma.llmCall.findMany({ where: { model: { startsWith: "batch-test-" } }, select: { inputTokens: true } });
    expect(stored.map((s) => s.inputTokens).sort((a, b) => a - b)).toEqual(Array.from({ length: 31 }, (_, i) => i));
  });
});
