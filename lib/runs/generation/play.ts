// A generation job on a worker: claimed in one statement (QUEUED → RUNNING; a retry of a job whose
// attempt failed may take it from RUNNING), played by the generators of lib/authoring against the
// job's endpoint, each item stored as it is read, progress and usage (tokens, cost) written after
// every call. Cancelled between calls; a model call that failed for good with a retryable cause
// (rate limit, 5xx, timeout, network, malformed) is retried by pg-boss, anything else fails the job
// with the reason. A retry starts over: the earlier attempt's untouched items are removed (items a
// reviewer already decided or edited stay).
import "server-only";
import type PgBoss from "pg-boss";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { loadCaseContext, loadToolkitNames } from "@/lib/authoring/context";
import { completeCase, generateCases, generateToolkits, type GenerationHooks, type ItemDraft } from "@/lib/authoring/generate";
import { generationInputSchema } from "@/lib/authoring/schemas";
import { startDispatcher, type Dispatcher, type JobOutcome } from "@/lib/jobs/dispatcher";
import { createModelClient, type ModelClientOptions } from "@/lib/llm/client";
import { toEndpointSettings } from "@/lib/llm/endpoints";
import type { ConcurrencyLimiter } from "@/lib/llm/limiter";
import { LlmCallError, type LlmErrorKind } from "@/lib/llm/types";
import { ensureGenerationQueue, GENERATION_QUEUE, type GenerationJobData } from "./queue";

export interface GenerationWorkerContext {
  db: Db;
  workerId: string;
  limiter: ConcurrencyLimiter;
  clientOptions?: Omit<ModelClientOptions, "db" | "limiter">;
  log(line: string): void;
}

class Cancelled extends Error {}

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(["rate_limited", "server_error", "timeout", "network", "malformed_response"]);
const json = (v: unknown) => v as Prisma.InputJsonValue;

export async function playGenerationJob(c: GenerationWorkerContext, job: PgBoss.JobWithMetadata<GenerationJobData>, signal: AbortSignal): Promise<JobOutcome> {
  const id = job.data.generationJobId;
  const { db } = c;
  const { count } = await db.generationJob.updateMany({
    where: { id, OR: [{ status: "QUEUED" }, ...(job.retryCount > 0 ? [{ status: "RUNNING" as const }] : [])] },
    data: { status: "RUNNING", attempts: { increment: 1 }, workerId: c.workerId, startedAt: new Date(), error: null },
  });
  if (count !== 1) return { kind: "done", output: { skipped: "not queued" } };
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
    const save = () => db.generationJob.updateMany({ where: { id, status: "RUNNING" }, data: { progress: json(progress), usage: json(usage) } });

    const hooks: GenerationHooks = {
      signal,
      async onCall(result, stage) {
        usage.calls++;
        usage.inputTokens += result.inputTokens;
        usage.outputTokens += result.outputTokens;
        usage.costUsd = Math.round((usage.costUsd + result.costUsd) * 1e9) / 1e9;
        progress.done++;
        progress.stage = stage;
        const { count: still } = await save();
        if (still !== 1) throw new Cancelled();
      },
      async onPlan(total) {
        progress.total = Math.max(total, progress.done);
        await save();
      },
      async onItem(item: ItemDraft) {
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
    await db.generationJob.updateMany({ where: { id, status: "RUNNING" }, data: { status: "DONE", finishedAt: new Date(), progress: json(progress), usage: json(usage) } });
    c.log(`generation job ${id} is done: ${progress.items} item(s), ${progress.invalid} invalid`);
    return { kind: "done", output: { items: progress.items } };
  } catch (e) {
    if (e instanceof Cancelled || signal.aborted) {
      // Cancelled by a user (the row says so already), or the worker is stopping: back to the queue.
      if (!(e instanceof Cancelled)) await db.generationJob.updateMany({ where: { id, status: "RUNNING" }, data: { status: "QUEUED", usage: json(usage) } });
      return e instanceof Cancelled ? { kind: "done", output: { cancelled: true } } : { kind: "retry", message: "worker stopping" };
    }
    const message = e instanceof Error ? e.message : String(e);
    const retry = e instanceof LlmCallError && RETRYABLE.has(e.kind) && job.retryCount < job.retryLimit;
    progress.stage = retry ? "waiting to retry" : "failed";
    await db.generationJob.updateMany({
      where: { id, status: "RUNNING" },
      data: retry ? { error: message, progress: json(progress), usage: json(usage) } : { status: "FAILED", finishedAt: new Date(), error: message, progress: json(progress), usage: json(usage) },
    });
    c.log(`generation job ${id} ${retry ? "will be retried" : "failed"}: ${message}`);
    return retry ? { kind: "retry", message } : { kind: "done", output: { failed: message } };
  }
}

/** The worker's second dispatcher: generation jobs, a few at a time, beside the episodes. */
export async function startGenerationDispatcher(c: GenerationWorkerContext & { boss: PgBoss; concurrency?: number; pollMs?: number }): Promise<Dispatcher> {
  await ensureGenerationQueue(c.boss);
  return startDispatcher<GenerationJobData>({
    boss: c.boss,
    queue: GENERATION_QUEUE,
    concurrency: c.concurrency ?? 2,
    pollMs: c.pollMs,
    handle: (job, signal) => playGenerationJob(c, job, signal),
    onError: (e) => c.log(`generation job error: ${e instanceof Error ? e.message : String(e)}`),
  });
}
