// Checks an email and password. The error never says which of the two was wrong.
import type { Db } from "@/lib/db/client";
import { verifyPassword } from "./password";
import { ipLockedUntil, lockedUntil, recordAttempt } from "./lockout";
import type { Role } from "./permissions";

export const INVALID_CREDENTIALS = "Invalid email or password.";

export interface AuthenticatedUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Carried by the session token; see lib/auth/sessions.ts. */
  sessionVersion: number;
}

export type AuthResult = { ok: true; user: AuthenticatedUser } | { ok: false; error: string };

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function authenticate(
  db: Db,
  rawEmail: string,
  password: string,
  opts: { now?: Date; ip?: string | null } = {},
): Promise<AuthResult> {
  const now = opts.now ?? new Date();
  const ip = opts.ip ?? null;
  const email = normalizeEmail(rawEmail);
  if (!email || !password) return { ok: false, error: INVALID_CREDENTIALS };
  const ipUntil = ip ? await ipLockedUntil(db, ip, now) : null;
  if (ipUntil) {
    const m = minutesUntil(ipUntil, now);
    return { ok: false, error: `Too many failed sign-ins from your network address. Try again in ${m} minute${m === 1 ? "" : "s"}.` };
  }
  const until = await lockedUntil(db, email, now);
  if (until) {
    const m = minutesUntil(until, now);
    return { ok: false, error: `Too many failed sign-ins for this email. It is locked for ${m} more minute${m === 1 ? "" : "s"}.` };
  }
  const user = await db.user.findUnique({ where: { email } });
  // Compare against a dummy hash when the user is unknown, so timing does not reveal it.
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || user.disabled) {
    await recordAttempt(db, email, false, now, ip);
    return { ok: false, error: INVALID_CREDENTIALS };
  }
  await recordAttempt(db, email, true, now, ip);
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion } };
}

function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}

// bcrypt hash of a random string nobody knows.
const DUMMY_HASH = "$2b$10$CwTycUXWue0Thq9StjUM0uJ8.4lC3gYkXh1bYxJp7o0iQnQwD0b8u";
