// The guard of the annotation JSON API: withPermission("annotation:label", …) with the same
// answers, cheaper on the path annotators hit all day (claim, draft, submit, skip).
//   * The session cookie is decrypted once per process and remembered, keyed by the whole cookie
//     (an authenticated ciphertext), its expiry checked on every use. getServerSession decrypts
//     it on every request, runs next-auth's session handler and re-encrypts a refreshed token
//     that a route handler cannot even set (next-auth only sets it from its own endpoints), so
//     nothing is lost.
//   * The user row is still checked on every request — it exists, is not disabled, its role has
//     the permission now — but inside the handler's first statement (the `verifyUser` roles)
//     rather than in a statement of its own.
//   * Anything unusual — no, chunked, expired or undecodable cookie, a user that fails the check,
//     invalid input — is answered by the ordinary withPermission, so every status and message
//     is exactly its own.
import "server-only";
import { decode } from "next-auth/jwt";
import type { z } from "zod";
import type { ActionResult, SessionUser } from "@/lib/auth/guard";
import { can, ROLES, type Role } from "@/lib/auth/permissions";
import { withPermission } from "@/lib/auth/server";
import { UserNotVerified } from "@/lib/annotation/assignments";
import { AppError } from "@/lib/errors";

const PERMISSION = "annotation:label";
const ALLOWED: readonly Role[] = ROLES.filter((r) => can(r, PERMISSION));
/** next-auth's jwt decode accepts tokens up to this long past their expiry. */
const CLOCK_TOLERANCE_S = 15;
const MAX_REMEMBERED = 2000;

interface Token {
  sub: string;
  exp: number;
}
const remembered = new Map<string, Token>();

function cookieName(): string {
  // next-auth's default: secure cookies when the public URL is https.
  return process.env.NEXTAUTH_URL?.startsWith("https://") ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

/** The session cookie's value; null when absent or split into chunks (left to next-auth). */
function sessionCookie(req: Request): string | null {
  const name = cookieName();
  let value: string | null = null;
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    if (key === name) value = part.slice(eq + 1).trim();
    else if (key.startsWith(`${name}.`)) return null;
  }
  return value;
}

/** The signed-in user's id from the session cookie, or null (then: the ordinary way). */
async function sessionUserId(req: Request): Promise<string | null> {
  const raw = sessionCookie(req);
  const secret = process.env.NEXTAUTH_SECRET;
  if (!raw || !secret) return null;
  let token = remembered.get(raw);
  if (!token) {
    try {
      const payload = await decode({ token: raw, secret });
      if (typeof payload?.sub !== "string" || typeof payload.exp !== "number") return null;
      token = { sub: payload.sub, exp: payload.exp };
    } catch {
      return null;
    }
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(raw, token);
  }
  if (Date.now() / 1000 > token.exp + CLOCK_TOLERANCE_S) {
    remembered.delete(raw);
    return null;
  }
  return token.sub;
}

export interface AnnotatorContext {
  user: Pick<SessionUser, "id">;
  /** When set, the handler's first statement must check the user row for one of these roles (and throw UserNotVerified). */
  verifyUser?: readonly Role[];
}

export function withAnnotator<S extends z.ZodType, T>(schema: S, handler: (input: z.output<S>, ctx: AnnotatorContext) => Promise<T>) {
  const ordinary = withPermission(PERMISSION, schema, (input, { user }) => handler(input, { user }));
  return async (req: Request, input: z.input<S>): Promise<ActionResult<T>> => {
    const id = await sessionUserId(req);
    if (!id) return ordinary(input);
    const parsed = schema.safeParse(input);
    if (!parsed.success) return ordinary(input);
    try {
      return { ok: true, data: await handler(parsed.data, { user: { id }, verifyUser: ALLOWED }) };
    } catch (e) {
      if (e instanceof UserNotVerified) return ordinary(input);
      if (e instanceof AppError) return { ok: false, status: e.status, error: e.message };
      console.error(`[${PERMISSION}]`, e);
      return { ok: false, status: 500, error: "Something went wrong on the server; the error was logged." };
    }
  };
}
