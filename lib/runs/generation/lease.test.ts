// Generation jobs have leases like episodes: a RUNNING job whose worker is gone — its lease
// expired, or its process on this host no longer exists — is handed back by the reaper of a live
// worker and played again from the start (attempt 2, DONE, its item stored), or FAILED with the
// reason once it has had its last attempt; a job whose lease still runs is left alone; the
// heartbeat renews only the worker's own leases. Real worker, offline model over HTTP.
import { spawnSync } from "node:child_process";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generationInputSchema } from "@/lib/authoring/schemas";
import { startWorkerOffline, waitUntil, type WorkerOffline } from "@/lib/testing/worker-offline";
import { createGenerationJob } from "./create";
import { reclaimLostGenerationJob, renewGenerationLeases } from "./lease";

let w: WorkerOffline;
let endpoint: string;
let researcher: string;
const logs: string[] = [];

beforeAll(async () => {
  w = await startWorkerOffline({ worker: { concurrency: 1, log: (l) => logs.push(l) } });
  endpoint = await w.endpoint("offline-gen", { maxConcurrency: 4 });
  researcher = (await w.t.prisma.user.create({ data: { email: "lease@test.local", name: "Lea Researcher", role: "RESEARCHER", passwordHash: "x" }, select: { id: true } })).id;
}, 240_000);

afterAll(async () => {
  await w?.stop();
});

/** A stored job (never sent to pg-boss) as a worker left it: RUNNING under `workerId`. */
async function runningJob(brief: string, workerId: string, attempts: number, leaseUntil: Date | null) {
  const input = generationInputSchema.parse({ kind: "TOOLKITS", endpointId: endpoint, category: "Office", brief, count: 1 });
  const { id } = await createGenerationJob(w.t.prisma, researcher, input, { send: async () => {} });
  await w.t.prisma.generationJob.update({ where: { id }, data: { status: "RUNNING", workerId, attempts, leaseUntil, bossJobId: null, startedAt: new Date() } });
  return id;
}
const job = (id: string) => w.t.prisma.generationJob.findUniqueOrThrow({ where: { id }, include: { items: true } });

describe("the generation reaper", () => {
  it("plays again a job whose lease expired or whose worker process is gone; fails one out of attempts; leaves a live lease alone", async () => {
    const deadPid = spawnSync(process.execPath, ["-e", "0"]).pid;
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 3_600_000);
    const [expired, deadHolder, exhausted, live] = [
      await runningJob("Invoices for a bakery", "elsewhere:4242:w1", 1, past),
      await runningJob("Receipts for a florist", `${os.hostname()}:${deadPid}:w2`, 1, future),
      await runningJob("Payroll for a garage", "elsewhere:4242:w1", 3, past),
      await runningJob("Orders for a café", "elsewhere:777:w3", 1, future),
    ];

    await waitUntil(async () => (await job(expired)).status === "DONE" && (await job(deadHolder)).status === "DONE" && (await job(exhausted)).status === "FAILED", "the reaper and the replays");
    for (const id of [expired, deadHolder]) {
      const j = await job(id);
      expect(j).toMatchObject({ attempts: 2, workerId: w.worker.workerId, error: null, leaseUntil: null });
      expect(j.progress).toMatchObject({ stage: "done", items: 1 });
      expect(j.items).toHaveLength(1);
    }
    expect(logs).toContainEqual(expect.stringMatching(new RegExp(`generation job ${expired}: worker elsewhere:4242:w1 is gone; queued again`)));

    const failed = await job(exhausted);
    expect(failed.error).toBe("Worker elsewhere:4242:w1 stopped during attempt 3; no attempts left (3).");
    expect(failed).toMatchObject({ attempts: 3, workerId: null, leaseUntil: null });
    expect(failed.finishedAt).toBeInstanceOf(Date);
    expect(failed.progress).toMatchObject({ stage: "failed" });
    expect(failed.items).toHaveLength(0);

    expect(await job(live)).toMatchObject({ status: "RUNNING", attempts: 1, workerId: "elsewhere:777:w3" });
  });

  it("hands a job back only from the attempt it saw: a newer attempt keeps it", async () => {
    const id = await runningJob("Tickets for a theatre", "elsewhere:1:w4", 2, new Date(Date.now() - 1000));
    expect(await reclaimLostGenerationJob(w.t.prisma, { id, workerId: "elsewhere:1:w4", attempts: 1, bossJobId: null }, 3)).toBeNull();
    expect(await reclaimLostGenerationJob(w.t.prisma, { id, workerId: "elsewhere:9:w5", attempts: 2, bossJobId: null }, 3)).toBeNull();
    expect((await job(id)).status).toBe("RUNNING");
    expect(await reclaimLostGenerationJob(w.t.prisma, { id, workerId: "elsewhere:1:w4", attempts: 2, bossJobId: null }, 2)).toBe("FAILED");
    expect((await job(id)).error).toMatch(/attempt 2; no attempts left \(2\)/);
  });

  it("the heartbeat renews a worker's own RUNNING leases, no one else's", async () => {
    const past = new Date(Date.now() - 1000);
    const mine = await runningJob("Menus for a diner", "renewer:1:a", 1, past);
    const theirs = await runningJob("Menus for a bistro", "other:1:b", 1, past);
    const held = await renewGenerationLeases(w.t.prisma, "renewer:1:a", 60_000);
    expect(held).toEqual(new Set([`${mine}:1`]));
    expect((await job(mine)).leaseUntil!.getTime()).toBeGreaterThan(Date.now());
    expect((await job(theirs)).leaseUntil).toEqual(past);
    await w.t.prisma.generationJob.updateMany({ where: { id: { in: [mine, theirs] } }, data: { status: "CANCELLED" } });
  });
});
