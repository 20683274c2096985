// Sign-in throttling per email: 10 failed tries within 15 minutes lock that email for 15
// minutes, counted from the failure that completed the ten. Attempts while locked are not
// recorded, so hammering a locked account does not extend the lock.
import type { Db } from "@/lib/db/client";

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

export async function lockedUntil(db: Db, email: string, now = new Date()): Promise<Date | null> {
  const lastSuccess = await db.loginAttempt.findFirst({
    where: { email, succeeded: true },
    orderBy: { at: "desc" },
    select: { at: true },
  });
  const failures = await db.loginAttempt.findMany({
    where: { email, succeeded: false, ...(lastSuccess ? { at: { gt: lastSuccess.at } } : {}) },
    orderBy: { at: "desc" },
    take: MAX_FAILURES,
    select: { at: true },
  });
  if (failures.length < MAX_FAILURES) return null;
  const newest = failures[0]!.at.getTime();
  const oldest = failures[MAX_FAILURES - 1]!.at.getTime();
  if (newest - oldest > WINDOW_MS) return null;
  const until = new Date(newest + LOCK_MS);
  return until > now ? until : null;
}

export async function recordAttempt(db: Db, email: string, succeeded: boolean, at = new Date()) {
  await db.loginAttempt.create({ data: { email, succeeded, at } });
}
