// Creating a generation job: the estimate first (nothing is stored), then on confirmation the
// GenerationJob row and its pg-boss job. Cancelling: a queued job ends at once, a running one at
// its next model call.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import { loadCaseContext, loadToolkitNames } from "@/lib/authoring/context";
import { estimateGeneration, type GenerationEstimate } from "@/lib/authoring/estimate";
import { plannedToolkitCalls } from "@/lib/authoring/generate";
import type { GenerationInput } from "@/lib/authoring/schemas";
import { OFFLINE_MODEL_LABEL } from "@/lib/llm/types";
import type { GenerationQueue } from "./queue";

export interface GenerationPreview {
  estimate: GenerationEstimate;
  endpoint: { id: string; name: string; model: string; offline: boolean; badge: string | null };
}

async function endpointOf(db: Db, id: string) {
  const e = await db.modelEndpoint.findUnique({ where: { id }, select: { id: true, name: true, model: true, offline: true, priceInputPer1k: true, priceOutputPer1k: true } });
  if (!e) throw new AppError("This endpoint no longer exists: choose another.", 422);
  return e;
}

export async function previewGeneration(db: Db, input: GenerationInput): Promise<GenerationPreview> {
  const endpoint = await endpointOf(db, input.endpointId);
  const existing = await loadToolkitNames(db);
  // Loading the context checks the toolkit names and example ids, so the preview refuses what creation would.
  const cases = input.kind === "TOOLKITS" ? null : await loadCaseContext(db, input);
  return {
    estimate: estimateGeneration(input, { existing, cases }, endpoint),
    endpoint: { id: endpoint.id, name: endpoint.name, model: endpoint.model, offline: endpoint.offline, badge: endpoint.offline ? OFFLINE_MODEL_LABEL : null },
  };
}

const plannedCalls = (input: GenerationInput) => (input.kind === "TOOLKITS" ? plannedToolkitCalls(input.count) : input.kind === "CASES" ? input.count : 1);

export async function createGenerationJob(db: Db, actorId: string, input: GenerationInput, queue: GenerationQueue): Promise<{ id: string }> {
  const preview = await previewGeneration(db, input);
  const job = await db.$transaction(async (tx) => {
    const row = await tx.generationJob.create({
      data: {
        kind: input.kind,
        params: { ...input, endpointName: preview.endpoint.name } as Prisma.InputJsonValue,
        endpointId: input.endpointId,
        estimate: preview.estimate as unknown as Prisma.InputJsonValue,
        progress: { done: 0, total: plannedCalls(input), stage: "queued", items: 0 },
        usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
        createdById: actorId,
      },
      select: { id: true },
    });
    await recordAudit(tx, { actorId, action: "generation.create", entityType: "GenerationJob", entityId: row.id, after: { kind: input.kind, estimate: preview.estimate } });
    return row;
  });
  // Sent after the commit: a worker never fetches a job whose row it cannot see.
  await queue.send(job.id);
  return job;
}

export async function cancelGenerationJob(db: Db, id: string, actorId: string): Promise<void> {
  const { count } = await db.generationJob.updateMany({ where: { id, status: { in: ["QUEUED", "RUNNING"] } }, data: { status: "CANCELLED", finishedAt: new Date(), error: "Cancelled by a user." } });
  if (count !== 1) throw new AppError("This job has already ended.", 409);
  await recordAudit(db, { actorId, action: "generation.cancel", entityType: "GenerationJob", entityId: id });
}
