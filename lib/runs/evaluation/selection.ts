// Resolves an evaluation run's trajectory selection to the trajectories it scores, in a stable
// order. Trajectories still being played (RUNNING) are left out and counted: their record is not
// final yet.
import "server-only";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { orderedTrajectoryIds } from "@/lib/toolemu/queries/trajectories";
import { parseTrajectoryFilter } from "@/lib/toolemu/filters";
import type { TrajectorySelection } from "./schemas";

export interface SelectedTrajectory {
  id: string;
  caseId: string;
  mode: "STANDARD" | "ADVERSARIAL";
}

export interface ResolvedSelection {
  trajectories: SelectedTrajectory[];
  /** Matched but still RUNNING, so left out. */
  running: number;
  /** What the selection was, in words (run page, CLI). */
  description: string;
}

async function idsOf(db: Db, sel: TrajectorySelection): Promise<{ ids: string[]; description: string }> {
  switch (sel.kind) {
    case "filter": {
      const filter = parseTrajectoryFilter(new URLSearchParams(sel.query));
      return { ids: await orderedTrajectoryIds(db, filter), description: sel.query ? `trajectories matching ${sel.query}` : "all trajectories" };
    }
    case "run": {
      const run = await db.run.findUnique({ where: { id: sel.runId }, select: { name: true, kind: true } });
      if (!run) throw new AppError(`No run with id ${sel.runId}.`, 404);
      if (run.kind === "EVALUATION" || run.kind === "CRITIC") {
        const rows = await db.runEpisode.findMany({ where: { runId: sel.runId }, distinct: ["sourceTrajectoryId"], orderBy: { sourceTrajectoryId: "asc" }, select: { sourceTrajectoryId: true } });
        return { ids: rows.flatMap((r) => (r.sourceTrajectoryId ? [r.sourceTrajectoryId] : [])), description: `the trajectories ${run.kind === "CRITIC" ? "assessed" : "scored"} by run “${run.name}”` };
      }
      const rows = await db.runEpisode.findMany({ where: { runId: sel.runId, trajectoryId: { not: null } }, orderBy: { position: "asc" }, select: { trajectoryId: true } });
      return { ids: rows.map((r) => r.trajectoryId!), description: `the trajectories of run “${run.name}”` };
    }
    case "campaign": {
      const c = await db.campaign.findUnique({ where: { id: sel.campaignId }, select: { name: true } });
      if (!c) throw new AppError(`No campaign with id ${sel.campaignId}.`, 404);
      // Scenario items have no trajectory to score.
      const rows = await db.campaignItem.findMany({ where: { campaignId: sel.campaignId, trajectoryId: { not: null } }, orderBy: { id: "asc" }, select: { trajectoryId: true } });
      return { ids: rows.map((r) => r.trajectoryId!), description: `the items of campaign “${c.name}”` };
    }
    case "ids":
      return { ids: [...new Set(sel.ids)], description: `${sel.ids.length} chosen trajectories` };
  }
}

export async function resolveTrajectories(db: Db, sel: TrajectorySelection): Promise<ResolvedSelection> {
  const { ids, description } = await idsOf(db, sel);
  const rows = ids.length
    ? await db.trajectory.findMany({ where: { id: { in: ids } }, select: { id: true, caseId: true, emulatorMode: true, status: true } })
    : [];
  if (sel.kind === "ids" && rows.length < ids.length) throw new AppError(`${ids.length - rows.length} of the chosen trajectories no longer exist.`, 422);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const trajectories: SelectedTrajectory[] = [];
  let running = 0;
  for (const id of ids) {
    const r = byId.get(id);
    if (!r) continue;
    if (r.status === "RUNNING") running++;
    // A SAGE episode has no case: ToolEmu's evaluators do not apply to it.
    else if (r.caseId) trajectories.push({ id, caseId: r.caseId, mode: r.emulatorMode });
  }
  return { trajectories, running, description };
}
