// Server-side session access for pages, server actions and route handlers.
import "server-only";
import { decode } from "next-auth/jwt";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { makeGuard, type SessionUser } from "./guard";
import { can, type Permission } from "./permissions";
import { loadSessionUser, sessionClaimsOf, type SessionClaims } from "./sessions";

interface Claims extends SessionClaims {
  exp: number;
}

/** next-auth's jwt decode accepts tokens up to this long past their expiry. */
const CLOCK_TOLERANCE_S = 15;
const MAX_REMEMBERED = 2000;
const remembered = new Map<string, Claims>();

function sessionCookieName(): string {
  // next-auth's default: secure cookies when the public URL is https.
  return process.env.NEXTAUTH_URL?.startsWith("https://") ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

/** The token, also when next-auth split a large one into chunks (`name.0`, `name.1`, …). */
function rawToken(jar: Awaited<ReturnType<typeof cookies>>, name: string): string | undefined {
  const whole = jar.get(name)?.value;
  if (whole) return whole;
  const chunks: string[] = [];
  for (let i = 0; ; i++) {
    const c = jar.get(`${name}.${i}`)?.value;
    if (c === undefined) break;
    chunks.push(c);
  }
  return chunks.length ? chunks.join("") : undefined;
}

/**
 * The session token's claims. The cookie is an authenticated ciphertext, so it is decrypted
 * once per process and remembered (expiry checked on every use): getServerSession would decrypt
 * it, run the callbacks and re-encrypt a refreshed token on every request — a few ms of CPU that
 * pages and route handlers cannot use (they cannot set the cookie). The claims say who the token
 * was issued to; whether its session still stands is the database's answer (loadSessionUser).
 */
export async function sessionClaims(): Promise<SessionClaims | null> {
  const raw = rawToken(await cookies(), sessionCookieName());
  const secret = process.env.NEXTAUTH_SECRET;
  if (!raw || !secret) return null;
  let claims = remembered.get(raw);
  if (!claims) {
    try {
      const p = await decode({ token: raw, secret });
      const c = sessionClaimsOf(p);
      if (!c || typeof p?.exp !== "number") return null;
      claims = { ...c, exp: p.exp };
    } catch {
      return null;
    }
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(raw, claims);
  }
  if (Date.now() / 1000 > claims.exp + CLOCK_TOLERANCE_S) {
    remembered.delete(raw);
    return null;
  }
  return { sub: claims.sub, sv: claims.sv, sid: claims.sid };
}

/**
 * The signed-in user as the database knows them now: a role change, a disabled account, a
 * password reset or a sign-out takes effect on the next request, not when the JWT expires.
 */
export async function getSessionUser(): Promise<SessionUser | null> {
  const claims = await sessionClaims();
  return claims ? loadSessionUser(db(), claims) : null;
}

export const withPermission = makeGuard({ claims: sessionClaims, user: (claims) => loadSessionUser(db(), claims) });

/** For pages: the user, or a redirect to sign-in / the forbidden page. */
export async function requirePermission(permission: Permission): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  if (!can(user.role, permission)) redirect(`/forbidden?need=${encodeURIComponent(permission)}`);
  return user;
}

export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect("/signin");
  return user;
}
