// Server-side session access for pages, server actions and route handlers.
import "server-only";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { authOptions } from "./options";
import { makeGuard, type SessionUser } from "./guard";
import { can, isRole, type Permission } from "./permissions";

/**
 * The signed-in user as the database knows them now: a role change or a disabled account takes
 * effect on the next request, not when the JWT expires.
 */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  const id = (session?.user as { id?: string } | undefined)?.id;
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
  const session = await getServerSession(authOptions);
  const u = session?.user as { id?: string; email?: string; name?: string; role?: unknown } | undefined;
  if (!u?.id || !isRole(u.role)) return null;
  return { id: u.id, email: u.email ?? "", name: u.name ?? "", role: u.role };
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
