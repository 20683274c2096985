// The guard of the annotation JSON API: withPermission("annotation:label", …) with the same
// answers, cheaper on the path annotators hit all day (claim, draft, submit, skip).
//   * The session comes from the token as every guard reads it (lib/auth/server.ts: decrypted
//     once per process), without the separate user read of getSessionUser.
//   * The user row is still checked on every request — it exists, is not disabled, its role has
//     the permission now, the session was not ended (session version, signed-out session id:
//     lib/auth/sessions.ts) — but inside the handler's first statement (`verifyUser`) rather
//     than in a statement of its own.
//   * Anything unusual — no, chunked, expired or undecodable cookie, a user that fails the check,
//     invalid input — is answered by the ordinary withPermission, so every status and message
//     is exactly its own.
import "server-only";
import type { z } from "zod";
import type { ActionResult, SessionUser } from "@/lib/auth/guard";
import { can, ROLES, type Role } from "@/lib/auth/permissions";
import { sessionClaims, withPermission } from "@/lib/auth/server";
import type { VerifySession } from "@/lib/auth/sessions";
import { UserNotVerified } from "@/lib/annotation/assignments";
import { AppError } from "@/lib/errors";

const PERMISSION = "annotation:label";
const ALLOWED: readonly Role[] = ROLES.filter((r) => can(r, PERMISSION));

export interface AnnotatorContext {
  user: Pick<SessionUser, "id">;
  /** When set, the handler's first statement must check the session and role this way (and throw UserNotVerified). */
  verifyUser?: VerifySession;
}

export function withAnnotator<S extends z.ZodType, T>(schema: S, handler: (input: z.output<S>, ctx: AnnotatorContext) => Promise<T>) {
  const ordinary = withPermission(PERMISSION, schema, (input, { user }) => handler(input, { user }));
  return async (input: z.input<S>): Promise<ActionResult<T>> => {
    const claims = await sessionClaims();
    if (!claims) return ordinary(input);
    const parsed = schema.safeParse(input);
    if (!parsed.success) return ordinary(input);
    try {
      return { ok: true, data: await handler(parsed.data, { user: { id: claims.sub }, verifyUser: { claims, roles: ALLOWED } }) };
    } catch (e) {
      if (e instanceof UserNotVerified) return ordinary(input);
      if (e instanceof AppError) return { ok: false, status: e.status, error: e.message };
      console.error(`[${PERMISSION}]`, e);
      return { ok: false, status: 500, error: "Something went wrong on the server; the error was logged." };
    }
  };
}
