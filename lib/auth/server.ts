// Server-side session access for pages, server actions and route handlers.
import "server-only";
import { getServerSession } from "next-auth";
import { decode } from "next-auth/jwt";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { authOptions } from "./options";
import { makeGuard, type SessionUser } from "./guard";
import { can, isRole, type Permission } from "./permissions";

interface Claims {
  sub: string;
  exp: number;
  email?: string;
  name?: string;
  role?: unknown;
}

/** next-auth's jwt decode accepts tokens up to this long past their expiry. */
const CLOCK_TOLERANCE_S = 15;
const MAX_REMEMBERED = 2000;
const remembered = new Map<string, Claims>();

function sessionCookieName(): string {
  // next-auth's default: secure cookies when the public URL is https.
  return process.env.NEXTAUTH_URL?.startsWith("https://") ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

/**
 * The session token's claims. The cookie is an authenticated ciphertext, so it is decrypted
 * once per process and remembered (expiry checked on every use): getServerSession would decrypt
 * it, run the callbacks and re-encrypt a refreshed token on every request — a few ms of CPU that
 * pages and route handlers cannot use (they cannot set the cookie). Chunked cookies and anything
 * unexpected take next-auth's own path.
 */
async function sessionClaims(): Promise<Claims | null> {
  const jar = await cookies();
  const name = sessionCookieName();
  const raw = jar.get(name)?.value;
  const secret = process.env.NEXTAUTH_SECRET;
  if (!raw || !secret) return jar.get(`${name}.0`) ? viaNextAuth() : null;
  let claims = remembered.get(raw);
  if (!claims) {
    try {
      const p = await decode({ token: raw, secret });
      if (typeof p?.sub !== "string" || typeof p.exp !== "number") return null;
      claims = { sub: p.sub, exp: p.exp, email: typeof p.email === "string" ? p.email : undefined, name: typeof p.name === "string" ? p.name : undefined, role: p.role };
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
  return claims;
}

/** The signed-in user's id as the session token states it (no database read), or null. */
export async function sessionUserId(): Promise<string | null> {
  return (await sessionClaims())?.sub ?? null;
}

async function viaNextAuth(): Promise<Claims | null> {
  const session = await getServerSession(authOptions);
  const u = session?.user as { id?: string; email?: string; name?: string; role?: unknown } | undefined;
  return u?.id ? { sub: u.id, exp: Number.POSITIVE_INFINITY, email: u.email, name: u.name, role: u.role } : null;
}

/**
 * The signed-in user as the database knows them now: a role change or a disabled account takes
 * effect on the next request, not when the JWT expires.
 */
export async function getSessionUser(): Promise<SessionUser | null> {
  const id = (await sessionClaims())?.sub;
  if (!id) return null;
  const user = await db().user.findUnique({
    where: { id },
    select: { id: true, email: true, name: true, role: true, disabled: true },
  });
  if (!user || user.disabled) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

export const withPermission = makeGuard(getSessionUser);

/**
 * The session as the signed cookie states it, without a database read. Only for endpoints that
 * must answer while a long transaction holds the embedded database (import progress polling);
 * everything else uses getSessionUser, which sees role changes at once.
 */
export async function getTokenUser(): Promise<SessionUser | null> {
  const c = await sessionClaims();
  if (!c || !isRole(c.role)) return null;
  return { id: c.sub, email: c.email ?? "", name: c.name ?? "", role: c.role };
}

export const withTokenPermission = makeGuard(getTokenUser);

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
