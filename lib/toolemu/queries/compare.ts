// Two trajectories of the same case side by side (issue 18 #8): e.g. two agents, or the standard
// and the adversarial emulator. Steps are aligned on the tool each one called (../align-steps.ts).
import "server-only";
import type { Db } from "@/lib/db/client";
import { alignSteps, type AlignedPair } from "../align-steps";
import { compareCandidates, type CompareCandidate } from "./compare-candidates";
import { getTrajectory, type TrajectoryDetail } from "./trajectory";

export type { CompareCandidate };

export type ComparePage =
  | { ok: true; a: TrajectoryDetail; b: TrajectoryDetail; pairs: AlignedPair[]; candidates: CompareCandidate[] }
  | { ok: false; reason: "missing" | "different-case" | "same"; a: TrajectoryDetail | null; candidates: CompareCandidate[] };

export async function loadComparePage(db: Db, aId: string, bId: string | undefined): Promise<ComparePage | null> {
  const a = await getTrajectory(db, aId);
  if (!a) return null;
  const candidates = await compareCandidates(db, a.case.id, a.id);
  if (!bId) return { ok: false, reason: "missing", a, candidates };
  if (bId === aId) return { ok: false, reason: "same", a, candidates };
  const b = await getTrajectory(db, bId);
  if (!b) return { ok: false, reason: "missing", a, candidates };
  if (b.case.id !== a.case.id) return { ok: false, reason: "different-case", a, candidates };
  const pairs = alignSteps(a.steps.map((s) => s.action), b.steps.map((s) => s.action));
  return { ok: true, a, b, pairs, candidates };
}
