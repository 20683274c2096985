// Replay as a feature: the recording of an imported ToolEmu trajectory (what the replay endpoint
// answers from), and how an episode replayed from it compares with it (identical, or the first
// step where it diverges).
import "server-only";
import type { Db } from "@/lib/db/client";
import { compareReplay, recordingFromToolemu, REPLAY_MODEL_PREFIX, type ReplayComparison, type ReplayRecording } from "@/lib/trajectory/replay";

/** The recording of a trajectory that came from ToolEmu files (origin IMPORTED); null otherwise. */
export async function loadReplayRecording(db: Db, trajectoryId: string): Promise<ReplayRecording | null> {
  const t = await db.trajectory.findUnique({
    where: { id: trajectoryId },
    select: { origin: true, raw: true, evaluations: { orderBy: { evaluatorModel: "asc" }, select: { kind: true, evaluatorModel: true, raw: true } } },
  });
  if (!t || t.origin !== "IMPORTED" || !t.raw || typeof t.raw !== "object" || Array.isArray(t.raw)) return null;
  return recordingFromToolemu(
    t.raw as Record<string, unknown>,
    t.evaluations.map((e) => ({ kind: e.kind, evaluatorModel: e.evaluatorModel, raw: (e.raw ?? {}) as Record<string, unknown> })),
  );
}

/** The model id that makes the replay endpoint answer from this trajectory (and, for evaluations, this judge). */
export function replayModelId(trajectoryId: string, evaluatorModel?: string | null): string {
  return `${REPLAY_MODEL_PREFIX}${trajectoryId}${evaluatorModel ? `:${evaluatorModel}` : ""}`;
}

/** A replayed episode against the trajectory it replays (settings.replayOf); null when it is not a replay. */
export async function compareWithRecording(db: Db, replayId: string): Promise<(ReplayComparison & { recordedId: string }) | null> {
  const t = await db.trajectory.findUnique({
    where: { id: replayId },
    select: { settings: true, finalAnswer: true, steps: { orderBy: { index: "asc" }, select: { action: true, actionInputRaw: true, observationRaw: true } } },
  });
  const recordedId = (t?.settings as { replayOf?: unknown } | null)?.replayOf;
  if (!t || typeof recordedId !== "string") return null;
  const recording = await loadReplayRecording(db, recordedId);
  if (!recording) return null;
  return { ...compareReplay(recording.expected, { steps: t.steps, finalAnswer: t.finalAnswer }), recordedId };
}
