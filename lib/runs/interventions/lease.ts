// Who is answering which intervention: a lease, like an annotator's claim on an item
// (lib/annotation/assignments.ts), so two approvers never work on the same flagged call.
//
//   * An approver holds at most one intervention at a time. Opening the queue resumes their live
//     lease (a reload or a second tab shows the same one), otherwise leases the oldest waiting
//     intervention nobody else holds; moving to the next or previous one releases the current.
//   * The candidate row is locked FOR UPDATE SKIP LOCKED and the lease is taken by an UPDATE that
//     checks again that nobody else holds it, so two approvers claiming at once get different ones.
//   * The lease runs INTERVENTION_LEASE_MS and is renewed while the page is open; an approver who
//     walks away loses it when it runs out, and the intervention goes to the next who asks.
//   * Answering (./answer.ts) clears it; an answer from someone else while the lease is live is refused.
import "server-only";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { AppError } from "@/lib/errors";

export const INTERVENTION_LEASE_MS = 10 * 60_000;

/** Dates as the timestamp(3) columns hold them (UTC), whatever the session's time zone. */
export const ts = (d: Date) => Prisma.sql`${d.toISOString().replace("T", " ").replace("Z", "")}::timestamp(3)`;

/**
 * An intervention (alias `i`) that still waits for an answer: pending, and its episode still
 * paused at it in a run that was not cancelled (an intervention outside a run always waits).
 */
export const WAITING_SQL = Prisma.sql`(i.status = 'PENDING' AND (i."runEpisodeId" IS NULL OR EXISTS (
  SELECT 1 FROM "RunEpisode" e JOIN "Run" r ON r.id = e."runId"
  WHERE e.id = i."runEpisodeId" AND e.status = 'WAITING' AND r.status <> 'CANCELLED')))`;

/** Free for `userId`: nobody holds it, the lease ran out, or it is theirs. */
const freeFor = (userId: string, now: Date) =>
  Prisma.sql`(i."leasedById" IS NULL OR i."leaseUntil" IS NULL OR i."leaseUntil" <= ${ts(now)} OR i."leasedById" = ${userId})`;

export type ClaimDirection = "next" | "prev";

export interface ClaimOptions {
  /** Move on from this intervention (in queue order: oldest first), wrapping around at the end. */
  from?: string | null;
  direction?: ClaimDirection;
  now?: Date;
}

export interface Lease {
  id: string;
  leaseUntil: Date;
}

type Tx = Prisma.TransactionClient;

/**
 * The intervention `userId` works on now, leased to them: their live lease if they hold one
 * (unless `from` asks to move on), else the oldest waiting intervention nobody else holds — or,
 * with `from`, the first after it (before it, for "prev") in queue order. Null when nothing
 * waits that is free for them.
 */
export async function claimIntervention(db: Db, userId: string, opts: ClaimOptions = {}): Promise<Lease | null> {
  const now = opts.now ?? new Date();
  const until = new Date(now.getTime() + INTERVENTION_LEASE_MS);
  return db.$transaction(async (tx) => {
    if (!opts.from) {
      const [mine] = await tx.$queryRaw<{ id: string }[]>`
        SELECT i.id FROM "Intervention" i
        WHERE i."leasedById" = ${userId} AND i."leaseUntil" > ${ts(now)} AND ${WAITING_SQL}
        ORDER BY i."createdAt", i.id LIMIT 1 FOR UPDATE OF i`;
      if (mine) return take(tx, userId, mine.id, now, until);
    }
    for (const skipped: string[] = []; skipped.length < 20; ) {
      const candidate = await nextCandidate(tx, userId, now, opts.from ?? null, opts.direction ?? "next", skipped);
      if (!candidate) return null;
      const lease = await take(tx, userId, candidate, now, until);
      if (lease) return lease;
      skipped.push(candidate);
    }
    return null;
  });
}

/**
 * The next free waiting intervention in queue order after (or, for "prev", before) `from`,
 * wrapping around; without `from`, the oldest. Row-locked, skipping rows others are locking.
 */
async function nextCandidate(tx: Tx, userId: string, now: Date, from: string | null, direction: ClaimDirection, skipped: string[]): Promise<string | null> {
  const pivot = from ? await tx.intervention.findUnique({ where: { id: from }, select: { createdAt: true, id: true } }) : null;
  const desc = direction === "prev" && pivot;
  const order = desc ? Prisma.sql`i."createdAt" DESC, i.id DESC` : Prisma.sql`i."createdAt", i.id`;
  const base = Prisma.sql`${WAITING_SQL} AND ${freeFor(userId, now)} AND NOT (i.id = ANY(${skipped}::text[]))`;
  if (pivot) {
    const beyond = desc
      ? Prisma.sql`(i."createdAt", i.id) < (${ts(pivot.createdAt)}, ${pivot.id})`
      : Prisma.sql`(i."createdAt", i.id) > (${ts(pivot.createdAt)}, ${pivot.id})`;
    const [row] = await tx.$queryRaw<{ id: string }[]>`
      SELECT i.id FROM "Intervention" i WHERE ${base} AND ${beyond} ORDER BY ${order} LIMIT 1 FOR UPDATE OF i SKIP LOCKED`;
    if (row) return row.id;
  }
  // From the start (or the end, going back): wrap around.
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT i.id FROM "Intervention" i WHERE ${base} ORDER BY ${order} LIMIT 1 FOR UPDATE OF i SKIP LOCKED`;
  return row?.id ?? null;
}

/** Leases `id` to the user if it still waits and is free for them, releasing their other leases. */
async function take(tx: Tx, userId: string, id: string, now: Date, until: Date): Promise<Lease | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "Intervention" i SET "leasedById" = ${userId}, "leaseUntil" = ${ts(until)}
    WHERE i.id = ${id} AND ${WAITING_SQL} AND ${freeFor(userId, now)}
    RETURNING i.id`;
  if (!rows.length) return null;
  await tx.$executeRaw`
    UPDATE "Intervention" SET "leasedById" = NULL, "leaseUntil" = NULL WHERE "leasedById" = ${userId} AND id <> ${id}`;
  return { id, leaseUntil: until };
}

/**
 * Extends the user's lease on `id` (the open page calls this now and then). Refused when the
 * intervention was answered meanwhile, or the lease ran out and someone else took it.
 */
export async function renewInterventionLease(db: Db, userId: string, id: string, now = new Date()): Promise<Lease> {
  const until = new Date(now.getTime() + INTERVENTION_LEASE_MS);
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Intervention" i SET "leasedById" = ${userId}, "leaseUntil" = ${ts(until)}
      WHERE i.id = ${id} AND ${WAITING_SQL} AND ${freeFor(userId, now)}
      RETURNING i.id`;
    if (rows.length) return { id, leaseUntil: until };
    const iv = await tx.intervention.findUnique({ where: { id }, select: { status: true, leasedBy: { select: { name: true } } } });
    if (!iv) throw new AppError("No such intervention.", 404);
    if (iv.status !== "PENDING") throw new AppError("This action was answered meanwhile; take the next one.", 409);
    if (iv.leasedBy) throw new AppError(`Your hold on this action ran out and ${iv.leasedBy.name} took it; take the next one.`, 409);
    throw new AppError("This action no longer waits for an answer (its run was cancelled or its episode stopped).", 409);
  });
}

/** Gives the user's lease on `id` back (leaving the queue); a no-op when they do not hold it. */
export async function releaseInterventionLease(db: Db, userId: string, id: string): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE "Intervention" SET "leasedById" = NULL, "leaseUntil" = NULL WHERE id = ${id} AND "leasedById" = ${userId}`;
  return n > 0;
}
