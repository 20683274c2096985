// The one way a run of any kind is stored and queued: in one transaction, the run row, its
// RunEpisode rows (episodes or units, in chunks) and the audit line; then, after the commit (a
// worker must find the rows its jobs name), one pg-boss job per row in queue order. If queueing
// fails, the workers' reconciler queues the QUEUED rows later, so the run is not lost.
import "server-only";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import type { EpisodeQueue } from "@/lib/jobs/boss";

type Tx = Prisma.TransactionClient;

export type RunUnitInput = Omit<Prisma.RunEpisodeCreateManyInput, "runId"> & { position: number };

export interface RunToStore {
  data: Omit<Prisma.RunUncheckedCreateInput, "createdById">;
  units: RunUnitInput[];
  /** The audit line's `after`. */
  audit: Record<string, unknown>;
}

const CHUNK = 5000;

/** `prepare` runs inside the transaction (e.g. to delete what the run replaces) and returns what to store. */
export async function storeRunAndQueue(db: Db, queue: EpisodeQueue | null, actorId: string | null, prepare: (tx: Tx) => Promise<RunToStore>): Promise<{ id: string; units: number }> {
  const { id, created } = await db.$transaction(async (tx) => {
    const r = await prepare(tx);
    const run = await tx.run.create({ data: { ...r.data, createdById: actorId }, select: { id: true } });
    const created: { id: string; runId: string; caseId: string | null; agentEndpointId: string | null; variant: string; mode: string; repeat: number; position: number }[] = [];
    for (let i = 0; i < r.units.length; i += CHUNK) {
      created.push(
        ...(await tx.runEpisode.createManyAndReturn({
          data: r.units.slice(i, i + CHUNK).map((u) => ({ ...u, runId: run.id })),
          select: { id: true, runId: true, caseId: true, agentEndpointId: true, variant: true, mode: true, repeat: true, position: true },
        })),
      );
    }
    await recordAudit(tx, { actorId, action: "run.create", entityType: "Run", entityId: run.id, after: r.audit });
    return { id: run.id, created };
  });
  if (queue) await queue.send(created.sort((a, b) => a.position - b.position));
  return { id, units: created.length };
}
