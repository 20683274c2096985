// Saving a critic's verdicts over one trajectory: one CriticAssessment and its CriticCheckpoint
// rows, in one transaction. An earlier assessment of the same trajectory by the same run (or
// none), method and critic model is replaced, checkpoints and all — a re-run of a replay or a
// repeated online check leaves one assessment, never two. Concurrent saves of the same key are
// serialised by a transaction-scoped advisory lock, so replacing cannot leave duplicates.
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { criticTemplateRefs, type CriticAssessmentResult } from "./assess";
import type { CriticSettings } from "./settings";

export interface SaveAssessmentInput {
  trajectoryId: string;
  runId?: string | null;
  online?: boolean;
  criticModel: string;
  settings: CriticSettings;
  result: CriticAssessmentResult;
}

const json = (v: unknown): Prisma.InputJsonValue | undefined => (v === null || v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as Prisma.InputJsonValue));

/** Returns the new assessment's id. */
export async function saveAssessment(db: Db, input: SaveAssessmentInput): Promise<string> {
  const { trajectoryId, criticModel, settings, result } = input;
  const runId = input.runId ?? null;
  const method = settings.method;
  const seen = new Set<number>();
  for (const c of result.checkpoints) {
    if (seen.has(c.stepIndex)) throw new RangeError(`checkpoint at step ${c.stepIndex} appears twice in the assessment of trajectory ${trajectoryId}`);
    seen.add(c.stepIndex);
    if (c.p !== null && !(c.p >= 0 && c.p <= 1)) throw new RangeError(`checkpoint at step ${c.stepIndex}: p ${c.p} is not in [0, 1]`);
  }
  return db.$transaction(async (tx) => {
    const key = `critic-assessment|${trajectoryId}|${runId ?? ""}|${method}|${criticModel}`;
    await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${key}))) AS l`;
    await tx.criticAssessment.deleteMany({ where: { trajectoryId, runId, method, criticModel } });
    const row = await tx.criticAssessment.create({
      data: {
        trajectoryId,
        runId,
        method,
        criticModel,
        settings: json({ ...settings, templates: criticTemplateRefs(method) })!,
        online: input.online ?? false,
        checkpointCount: result.checkpoints.length,
        errorCount: result.errorCount,
        minP: result.minP,
        score: result.score,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        costUsd: result.usage.costUsd,
        checkpoints: {
          create: result.checkpoints.map((c) => ({
            stepIndex: c.stepIndex,
            final: c.final,
            tool: c.tool,
            amount: c.amount,
            inferredTasks: c.inferredTasks,
            forward: json(c.forward),
            reverse: json(c.reverse),
            detail: json(c.detail),
            p: c.p,
            error: c.error,
          })),
        },
      },
      select: { id: true },
    });
    return row.id;
  });
}
