// Critic assessments for dashboard tests and e2e seeding: rows as lib/critic/store.ts writes them
// (one CriticAssessment with its CriticCheckpoint rows, in one transaction), without running a
// critic. p = null is an ERROR checkpoint; `final` marks the final-answer checkpoint (its
// stepIndex is the trajectory's step count), the others sit at critical actions.
import type { Db } from "@/lib/db/client";

export interface FixtureCheckpoint {
  stepIndex: number;
  final?: boolean;
  p: number | null;
  amount?: number | null;
  tool?: string | null;
}

export interface FixtureAssessment {
  trajectoryId: string;
  method: "INFERACT" | "STANDARD" | "SELF_CONSISTENCY" | "MULTI_STEP";
  criticModel: string;
  runId?: string | null;
  online?: boolean;
  createdAt?: Date;
  checkpoints: FixtureCheckpoint[];
}

/** Inserts one assessment and its checkpoints; returns its id. */
export async function insertAssessment(db: Db, a: FixtureAssessment): Promise<string> {
  const ps = a.checkpoints.map((c) => c.p);
  const parsed = ps.filter((p): p is number => p !== null);
  const errorCount = ps.length - parsed.length;
  const minP = parsed.length ? Math.min(...parsed, ...(errorCount ? [0] : [])) : null;
  const row = await db.criticAssessment.create({
    data: {
      trajectoryId: a.trajectoryId,
      runId: a.runId ?? null,
      method: a.method,
      criticModel: a.criticModel,
      settings: { method: a.method, fixture: true },
      online: a.online ?? false,
      checkpointCount: a.checkpoints.length,
      errorCount,
      minP,
      score: minP === null ? null : 1 - minP,
      ...(a.createdAt ? { createdAt: a.createdAt } : {}),
      checkpoints: {
        create: a.checkpoints.map((c) => ({
          stepIndex: c.stepIndex,
          final: c.final ?? false,
          tool: c.final ? null : (c.tool ?? "CriticalTool"),
          amount: c.amount ?? null,
          p: c.p,
          error: c.p === null ? "unparsable critic output (fixture)" : null,
        })),
      },
    },
    select: { id: true },
  });
  return row.id;
}
