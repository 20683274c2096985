// Sign-in throttling, two limits:
//   * per email: 10 failed tries within 15 minutes lock that email for 15 minutes, counted from
//     the failure that completed the ten;
//   * per client address: SIGNIN_MAX_FAILURES_PER_IP (default 50) failed tries within 15
//     minutes, whatever the emails, refuse that address until the window holds fewer — guessing
//     one password across many accounts is slowed too.
// Attempts while locked are not recorded, so hammering does not extend a lock.
import type { Db } from "@/lib/db/client";

export const MAX_FAILURES = 10;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

function maxFailuresPerIp(): number {
  const n = Number(process.env.SIGNIN_MAX_FAILURES_PER_IP);
  return Number.isInteger(n) && n > 0 ? n : 50;
}

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

/** When the address may try again, or null. Successes do not reset it (one known account would). */
export async function ipLockedUntil(db: Db, ip: string, now = new Date(), max = maxFailuresPerIp()): Promise<Date | null> {
  const failures = await db.loginAttempt.findMany({
    where: { ip, succeeded: false, at: { gt: new Date(now.getTime() - WINDOW_MS), lte: now } },
    orderBy: { at: "desc" },
    take: max,
    select: { at: true },
  });
  if (failures.length < max) return null;
  // Free once the oldest of these leaves the window.
  return new Date(failures[max - 1]!.at.getTime() + WINDOW_MS);
}

export async function recordAttempt(db: Db, email: string, succeeded: boolean, at = new Date(), ip: string | null = null) {
  await db.loginAttempt.create({ data: { email, succeeded, at, ip } });
}
