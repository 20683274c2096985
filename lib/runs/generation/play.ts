// A generation job on a worker: claimed in one statement (QUEUED → RUNNING, with a lease: ./lease.ts),
// played by the generators of lib/authoring against the job's endpoint, each item stored as it is
// read, progress and usage (tokens, cost) written after every call — each write only while this
// attempt still holds the job, so an attempt that was cancelled or handed back stops at its next
// call. A model call that failed for good with a retryable cause (rate limit, 5xx, timeout,
// network, malformed) puts the job back to QUEUED and pg-boss retries it; anything else fails the
// job with the reason. A retry starts over: the earlier attempt's untouched items are removed
// (items a reviewer already decided or edited stay). Beside the dispatcher: the heartbeat renews
// leases, the reaper hands back jobs of workers that are gone.
import "server-only";
import type PgBoss from "pg-boss";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { loadCaseContext, loadToolkitNames } from "@/lib/authoring/context";
import { completeCase, generateCases, generateToolkits, type GenerationHooks, type ItemDraft } from "@/lib/authoring/generate";
import { generationInputSchema } from "@/lib/authoring/schemas";
import { startDispatcher, type Dispatcher, type JobOutcome } from "@/lib/jobs/dispatcher";
import { createModelClient, type ModelClientOptions } from "@/lib/llm/client";
import { deadLocalHolders } from "@/lib/llm/endpoint-limiter";
import { toEndpointSettings } from "@/lib/llm/endpoints";
import type { ConcurrencyLimiter } from "@/lib/llm/limiter";
import { LlmCallError, type LlmErrorKind } from "@/lib/llm/types";
import { claimGenerationJob, reapGenerationJobs, renewGenerationLeases } from "./lease";
import { bossGenerationQueue, ensureGenerationQueue, GENERATION_QUEUE, type GenerationJobData } from "./queue";

export interface GenerationWorkerContext {
  db: Db;
  workerId: string;
  limiter: ConcurrencyLimiter;
  clientOptions?: Omit<ModelClientOptions, "db" | "limiter">;
  log(line: string): void;
  /** The lease an attempt takes (default RUN_LEASE_SECONDS, as episodes). */
  leaseMs?: number;
  /** Attempts playing in this worker, by job id; the heartbeat stops one that lost its job. */
  running?: Map<string, { attempt: number; controller: AbortController }>;
  /** Queues a fresh pg-boss job (an attempt stopped by a shutdown hands its job back this way). */
  send?(generationJobId: string): Promise<void>;
}

/** The attempt no longer holds the job: cancelled by a user, or handed back by the reaper. */
class Stopped extends Error {}

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(["rate_limited", "server_error", "timeout", "network", "malformed_response"]);
const json = (v: unknown) => v as Prisma.InputJsonValue;

export async function playGenerationJob(c: GenerationWorkerContext, job: PgBoss.JobWithMetadata<GenerationJobData>, signal: AbortSignal): Promise<JobOutcome> {
  const id = job.data.generationJobId;
  const { db } = c;
  const claimed = await claimGenerationJob(db, id, { workerId: c.workerId, bossJobId: job.id, leaseMs: c.leaseMs ?? leaseFromEnv() });
  if (!claimed) return { kind: "done", output: { skipped: "not queued" } };
  const mine = { id, status: "RUNNING" as const, workerId: c.workerId, attempts: claimed.attempt };
  const own = new AbortController();
  c.running?.set(id, { attempt: claimed.attempt, controller: own });
  try {
    return await play(c, job, AbortSignal.any([signal, own.signal]), mine);
  } finally {
    if (c.running?.get(id)?.controller === own) c.running.delete(id);
  }
}

type Held = { id: string; status: "RUNNING"; workerId: string; attempts: number };

async function play(c: GenerationWorkerContext, job: PgBoss.JobWithMetadata<GenerationJobData>, signal: AbortSignal, mine: Held): Promise<JobOutcome> {
  const { db } = c;
  const id = mine.id;
  const row = await db.generationJob.findUniqueOrThrow({ where: { id }, select: { kind: true, params: true, endpointId: true, progress: true } });

  const usage = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const progress = { done: 0, total: Number((row.progress as { total?: number }).total ?? 0), stage: "starting", items: 0, invalid: 0 };
  try {
    const input = generationInputSchema.parse(row.params);
    const endpoint = await db.modelEndpoint.findUnique({ where: { id: row.endpointId } });
    if (!endpoint) throw new LlmCallError("bad_request", `The endpoint ${row.endpointId} no longer exists.`, 0);
    const client = createModelClient(toEndpointSettings(endpoint), { ...c.clientOptions, db, limiter: c.limiter });

    // A retry starts over; what a reviewer touched stays.
    await db.generatedItem.deleteMany({ where: { jobId: id, status: "PENDING", editedPayload: { equals: Prisma.DbNull } } });
    let position = ((await db.generatedItem.aggregate({ where: { jobId: id }, _max: { position: true } }))._max.position ?? -1) + 1;
    const save = async () => {
      const { count } = await db.generationJob.updateMany({ where: mine, data: { progress: json(progress), usage: json(usage) } });
      if (count !== 1) throw new Stopped();
    };

    const hooks: GenerationHooks = {
      signal,
      async onCall(result, stage) {
        usage.calls++;
        usage.inputTokens += result.inputTokens;
        usage.outputTokens += result.outputTokens;
        usage.costUsd = Math.round((usage.costUsd + result.costUsd) * 1e9) / 1e9;
        progress.done++;
        progress.stage = stage;
        await save();
      },
      async onPlan(total) {
        progress.total = Math.max(total, progress.done);
        await save();
      },
      async onItem(item: ItemDraft) {
        await save(); // still ours: a stopped attempt stores nothing more
        await db.generatedItem.create({
          data: { jobId: id, position: position++, kind: item.kind, payload: item.payload === null ? undefined : json(item.payload), rawOutput: item.rawOutput, validation: json({ ...item.validation, templates: item.templates }), valid: item.validation.ok },
        });
        progress.items++;
        if (!item.validation.ok) progress.invalid++;
        await save();
      },
    };
    if (input.kind === "TOOLKITS") await generateToolkits(client, input, { existing: await loadToolkitNames(db) }, hooks);
    else if (input.kind === "CASES") await generateCases(client, input, await loadCaseContext(db, input), hooks);
    else await completeCase(client, input, await loadCaseContext(db, input), hooks);

    progress.stage = "done";
    const { count: finished } = await db.generationJob.updateMany({ where: mine, data: { status: "DONE", finishedAt: new Date(), leaseUntil: null, progress: json(progress), usage: json(usage) } });
    if (finished !== 1) throw new Stopped();
    c.log(`generation job ${id} is done: ${progress.items} item(s), ${progress.invalid} invalid`);
    return { kind: "done", output: { items: progress.items } };
  } catch (e) {
    if (e instanceof Stopped || signal.aborted) {
      // Cancelled or handed back (the row says so already): nothing to write. The worker is
      // stopping: back to the queue with a fresh pg-boss job (a shutdown uses up no retry).
      const { count: back } = e instanceof Stopped ? { count: 0 } : await db.generationJob.updateMany({ where: mine, data: { status: "QUEUED", workerId: null, leaseUntil: null, usage: json(usage) } });
      if (back !== 1) return { kind: "done", output: { stopped: "cancelled or handed back" } };
      const send = c.send;
      return { kind: "requeue", message: "worker stopping", after: send ? () => send(id) : undefined };
    }
    const message = e instanceof Error ? e.message : String(e);
    const retry = e instanceof LlmCallError && RETRYABLE.has(e.kind) && job.retryCount < job.retryLimit;
    progress.stage = retry ? "waiting to retry" : "failed";
    // A retry claims the job from QUEUED again, like any attempt.
    await db.generationJob.updateMany({
      where: mine,
      data: retry
        ? { status: "QUEUED", workerId: null, leaseUntil: null, error: message, progress: json(progress), usage: json(usage) }
        : { status: "FAILED", finishedAt: new Date(), leaseUntil: null, error: message, progress: json(progress), usage: json(usage) },
    });
    c.log(`generation job ${id} ${retry ? "will be retried" : "failed"}: ${message}`);
    return retry ? { kind: "retry", message } : { kind: "done", output: { failed: message } };
  }
}

function envNumber(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
const leaseFromEnv = () => envNumber("RUN_LEASE_SECONDS", 60) * 1000;

export interface GenerationDispatcher extends Dispatcher {
  /** One pass of the reaper now (tests); it also runs every reapIntervalMs. */
  reap(): Promise<{ id: string; status: "QUEUED" | "FAILED" }[]>;
}

/**
 * The worker's second dispatcher: generation jobs, a few at a time, beside the episodes; with its
 * heartbeat (leases renewed every leaseMs/4) and reaper (every RUN_REAP_INTERVAL_SECONDS; a job
 * FAILED after GENERATION_MAX_ATTEMPTS, default 3, attempts whose workers were lost).
 */
export async function startGenerationDispatcher(
  c: Omit<GenerationWorkerContext, "running" | "send"> & { boss: PgBoss; concurrency?: number; pollMs?: number; reapIntervalMs?: number; maxAttempts?: number },
): Promise<GenerationDispatcher> {
  await ensureGenerationQueue(c.boss);
  const leaseMs = c.leaseMs ?? leaseFromEnv();
  const running = new Map<string, { attempt: number; controller: AbortController }>();
  const queue = bossGenerationQueue(c.boss);
  const ctx: GenerationWorkerContext = { ...c, leaseMs, running, send: (id) => queue.send(id) };
  const reapNow = () =>
    reapGenerationJobs({
      db: c.db,
      boss: c.boss,
      running,
      isDeadHolder: (w) => !!w && deadLocalHolders([w], c.workerId).length > 0,
      maxAttempts: c.maxAttempts ?? Math.floor(envNumber("GENERATION_MAX_ATTEMPTS", 3)),
      send: ctx.send!,
      log: c.log,
    });
  const safely = (name: string, f: () => Promise<unknown>) => () => void f().catch((e) => c.log(`generation ${name} failed: ${(e as Error).message}`));

  // Heartbeat: renews this worker's leases; an attempt missing from the answer lost its job and stops.
  let beating = false;
  const heartbeat = setInterval(
    safely("heartbeat", async () => {
      if (beating || running.size === 0) return;
      beating = true;
      try {
        const before = [...running.entries()];
        const held = await renewGenerationLeases(c.db, c.workerId, leaseMs);
        for (const [id, r] of before) {
          if (running.get(id) === r && !held.has(`${id}:${r.attempt}`)) {
            c.log(`generation job ${id}: lost its lease; stopping it`);
            r.controller.abort("lost");
          }
        }
      } finally {
        beating = false;
      }
    }),
    Math.max(50, Math.min(2000, leaseMs / 4)),
  );
  await reapNow().catch((e) => c.log(`generation reaper failed: ${(e as Error).message}`));
  const reaper = setInterval(safely("reaper", reapNow), c.reapIntervalMs ?? envNumber("RUN_REAP_INTERVAL_SECONDS", 5) * 1000);
  heartbeat.unref();
  reaper.unref();

  const dispatcher = startDispatcher<GenerationJobData>({
    boss: c.boss,
    queue: GENERATION_QUEUE,
    concurrency: c.concurrency ?? 2,
    pollMs: c.pollMs,
    handle: (job, signal) => playGenerationJob(ctx, job, signal),
    onError: (e) => c.log(`generation job error: ${e instanceof Error ? e.message : String(e)}`),
  });
  return {
    get running() {
      return dispatcher.running;
    },
    get counts() {
      return dispatcher.counts;
    },
    nudge: () => dispatcher.nudge(),
    reap: reapNow,
    async stop(opts) {
      clearInterval(reaper);
      await dispatcher.stop(opts);
      clearInterval(heartbeat);
    },
  };
}
