// Revocable sessions. Session tokens are JWTs, valid on their own until they expire, so two
// things are checked against the database on every request that reads the user row:
//   * the user's session version: bumped on password change or reset, disable (and enable),
//     role change and "sign out everywhere" — every token issued before is refused, and a
//     re-enabled user's old tokens stay dead because enabling bumps it too;
//   * the session id: each sign-in gets a random one, kept by every renewal of its token;
//     signing out records it in RevokedSession, which ends that one session (that browser)
//     without signing the user out of their other browsers.
// Tokens without these claims (issued before this check existed) are refused: one sign-in more.
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { recordAudit } from "@/lib/audit/record";
import { AppError } from "@/lib/errors";
import type { Caller, SessionUser } from "./guard";
import { isRole, type Role } from "./permissions";

/** How long a session lasts without use; the token is renewed while the app is open. */
export const SESSION_MAX_AGE_S = 12 * 60 * 60;

/** What a session token states about its session (besides the user id in `sub`). */
export interface SessionClaims {
  sub: string;
  /** The user's session version when the session began. */
  sv: number;
  /** This session's id. */
  sid: string;
}

export function newSessionId(): string {
  return randomUUID();
}

/** The claims of a decoded token, or null when any is missing (an old or foreign token). */
export function sessionClaimsOf(token: Record<string, unknown> | null | undefined): SessionClaims | null {
  if (!token) return null;
  const { sub, sv, sid } = token;
  if (typeof sub !== "string" || typeof sv !== "number" || !Number.isInteger(sv) || typeof sid !== "string" || !sid) return null;
  return { sub, sv, sid };
}

/**
 * SQL: whether the session is still good — the user exists, is enabled, has the version the
 * token carries, the session was not signed out — and, with `roles`, has one of them. Made
 * inside another statement, for the guard's deferred check (callerOkSql).
 */
function sessionOkSql(c: SessionClaims, roles?: readonly Role[]): Prisma.Sql {
  const roleCheck = roles ? Prisma.sql` AND u.role::text = ANY(${[...roles]}::text[])` : Prisma.empty;
  return Prisma.sql`coalesce((
    SELECT NOT u.disabled AND u."sessionVersion" = ${c.sv}${roleCheck}
       AND NOT EXISTS (SELECT 1 FROM "RevokedSession" r WHERE r.sid = ${c.sid})
      FROM "User" u WHERE u.id = ${c.sub}), false)`;
}

/**
 * SQL: whether the caller may go on — under the guard's deferred check, whether their session
 * still stands and their role holds the permission (sessionOkSql); otherwise true, the guard
 * having checked the user already. A bare user id is a caller the code checked itself.
 */
export function callerOkSql(caller: string | Caller): Prisma.Sql {
  return typeof caller !== "string" && caller.deferredCheck ? sessionOkSql({ ...caller.session, sub: caller.id }, caller.deferredCheck.roles) : Prisma.sql`true`;
}

/** The user of a still-valid session, as the database knows them now; null when it was revoked. */
export async function loadSessionUser(db: Db, c: SessionClaims): Promise<SessionUser | null> {
  const rows = await db.$queryRaw<{ id: string; email: string; name: string; role: string }[]>`
    SELECT u.id, u.email, u.name, u.role::text AS role FROM "User" u
     WHERE u.id = ${c.sub} AND NOT u.disabled AND u."sessionVersion" = ${c.sv}
       AND NOT EXISTS (SELECT 1 FROM "RevokedSession" r WHERE r.sid = ${c.sid})`;
  const u = rows[0];
  return u && isRole(u.role) ? { id: u.id, email: u.email, name: u.name, role: u.role } : null;
}

/**
 * Ends one session (sign-out). Its row is kept a session max-age, the longest a renewed token of
 * it can live; rows past that are removed here, so the table stays the size of recent sign-outs.
 */
export async function revokeSession(db: Db, c: Pick<SessionClaims, "sub" | "sid">, now = new Date()): Promise<void> {
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_S * 1000);
  await db.$transaction([
    db.revokedSession.deleteMany({ where: { expiresAt: { lt: now } } }),
    db.revokedSession.upsert({ where: { sid: c.sid }, create: { sid: c.sid, userId: c.sub, expiresAt }, update: {} }),
  ]);
}

/** Ends every session of a user (their own "sign out everywhere", or an admin's for them). */
export async function signOutEverywhere(db: Db, actorId: string | null, userId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const r = await tx.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
    if (r.count === 0) throw new AppError("No such user.", 404);
    await recordAudit(tx, { actorId, action: "user.sign_out_everywhere", entityType: "User", entityId: userId });
  });
}

/** The `data` of a user update that ends the user's sessions. */
export const END_SESSIONS = { sessionVersion: { increment: 1 } } as const;
