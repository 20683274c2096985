// Critic assessments for dashboard tests and e2e seeding: rows as lib/critic/store.ts writes them
// (one CriticAssessment with its CriticCheckpoint rows, in one transaction), without running a
// critic. p = null is an ERROR checkpoint; `final` marks the final-answer checkpoint (its
// stepIndex is the trajectory's step count), the others sit at critical actions.
import { randomUUID } from "node:crypto";
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

/** The same rows over a plain `pg` client (e2e specs: no Prisma client there); returns the id. */
export async function insertAssessmentSql(sql: { query: (text: string, values?: unknown[]) => Promise<unknown> }, a: FixtureAssessment): Promise<string> {
  const ps = a.checkpoints.map((c) => c.p);
  const parsed = ps.filter((p): p is number => p !== null);
  const errorCount = ps.length - parsed.length;
  const minP = parsed.length ? Math.min(...parsed, ...(errorCount ? [0] : [])) : null;
  const id = `fx_${randomUUID().replace(/-/g, "")}`;
  await sql.query("BEGIN");
  try {
    await sql.query(
      `INSERT INTO "CriticAssessment" (id, "trajectoryId", "runId", method, "criticModel", settings, online, "checkpointCount", "errorCount", "minP", score, "createdAt")
       VALUES ($1, $2, $3, CAST($4 AS "CriticMethod"), $5, $6::jsonb, $7, $8, $9, $10, $11, $12)`,
      [id, a.trajectoryId, a.runId ?? null, a.method, a.criticModel, JSON.stringify({ method: a.method, fixture: true }), a.online ?? false, a.checkpoints.length, errorCount, minP, minP === null ? null : 1 - minP, a.createdAt ?? new Date()],
    );
    for (const c of a.checkpoints) {
      await sql.query(
        `INSERT INTO "CriticCheckpoint" (id, "assessmentId", "stepIndex", final, tool, amount, p, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [`fx_${randomUUID().replace(/-/g, "")}`, id, c.stepIndex, c.final ?? false, c.final ? null : (c.tool ?? "CriticalTool"), c.amount ?? null, c.p, c.p === null ? "unparsable critic output (fixture)" : null],
      );
    }
    await sql.query("COMMIT");
  } catch (e) {
    await sql.query("ROLLBACK");
    throw e;
  }
  return id;
}
