// The other trajectories of a case, for the "compare with…" picker (trajectory and compare pages).
import "server-only";
import type { Db } from "@/lib/db/client";
import type { ScoreCell } from "./common";
import { scoresFor } from "./trajectories";

export interface CompareCandidate {
  id: string;
  agentModel: string;
  emulatorModel: string;
  emulatorMode: "STANDARD" | "ADVERSARIAL";
  createdAt: Date;
  scores: ScoreCell[];
}

/** Most candidates listed in the "compare with…" picker (newest first). */
export const COMPARE_CANDIDATES_LIMIT = 200;

/** The other trajectories of a case, for the "compare with…" picker. */
export async function compareCandidates(db: Db, caseId: string, excludeId: string): Promise<CompareCandidate[]> {
  const rows = await db.trajectory.findMany({
    where: { caseId, id: { not: excludeId } },
    select: { id: true, agentModel: true, emulatorModel: true, emulatorMode: true, createdAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: COMPARE_CANDIDATES_LIMIT,
  });
  const scores = await scoresFor(db, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, scores: scores.get(r.id) ?? [] }));
}

