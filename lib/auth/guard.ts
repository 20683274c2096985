// The one wrapper every server action and route handler goes through: it resolves the session,
// checks the permission first, then parses the input with zod, then runs the handler. Nothing
// here depends on Next.js; lib/auth/server.ts binds it to next-auth's session cookie.
//
// One option, `userCheck: "deferred"`, for the paths annotators hit all day: the guard reads the
// session token's claims but not the user row, and hands the handler a caller whose
// `deferredCheck` the handler's first statement must make (sessions.ts callerOkSql) — or throw
// UserNotVerified. Anything unusual (no or undecodable token, invalid input, a user that fails
// the check) is then answered by the ordinary path, so every status and message stays its own.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { can, ROLES, type Permission, type Role } from "./permissions";
import type { SessionClaims } from "./sessions";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/** A check of the user row the guard left to the handler (the `deferred` option). */
export interface DeferredUserCheck {
  /** The roles that hold the permission: the user must have one of them now. */
  roles: readonly Role[];
}

/** Who calls a handler, and through which session. */
export interface Caller {
  id: string;
  session: SessionClaims;
  /** Set only under `userCheck: "deferred"`: the user row is not checked yet (see above). */
  deferredCheck?: DeferredUserCheck;
}

/**
 * Thrown by a handler (rolling its transaction back) when the deferred check of the user fails:
 * the guard then answers the ordinary way.
 */
export class UserNotVerified extends Error {
  constructor() {
    super("The user could not be verified.");
  }
}

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; error: string; fieldErrors?: Record<string, string[]> };

/** Where the guard gets its credentials from: the session token, then its user. */
export interface SessionSource {
  /** The session token's claims (no database read), or null without a usable token. */
  claims(): Promise<SessionClaims | null>;
  /** The user of those claims as the database knows them now; null when the session no longer stands. */
  user(claims: SessionClaims): Promise<SessionUser | null>;
}

export interface GuardContext {
  user: SessionUser;
  caller: Caller;
}
export interface DeferredContext {
  caller: Caller;
}
export interface GuardOptions {
  userCheck: "deferred";
}

type Action<S extends z.ZodType, T> = (input: z.input<S>) => Promise<ActionResult<T>>;

const SERVER_ERROR = "Something went wrong on the server; the error was logged.";

export function makeGuard(source: SessionSource) {
  function withPermission<S extends z.ZodType, T>(permission: Permission, schema: S, handler: (input: z.output<S>, ctx: GuardContext) => Promise<T>): Action<S, T>;
  function withPermission<S extends z.ZodType, T>(permission: Permission, schema: S, handler: (input: z.output<S>, ctx: DeferredContext) => Promise<T>, options: GuardOptions): Action<S, T>;
  function withPermission<S extends z.ZodType, T>(permission: Permission, schema: S, handler: (input: z.output<S>, ctx: GuardContext) => Promise<T>, options?: GuardOptions): Action<S, T> {
    const ordinary: Action<S, T> = async (input) => {
      const claims = await source.claims();
      const user = claims && (await source.user(claims));
      if (!claims || !user) return { ok: false, status: 401, error: "Please sign in again." };
      if (!can(user.role, permission)) {
        return { ok: false, status: 403, error: `Your role (${user.role}) may not do this (${permission}).` };
      }
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        return {
          ok: false,
          status: 400,
          error: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join(" "),
          fieldErrors: fieldErrors(parsed.error),
        };
      }
      try {
        return { ok: true, data: await handler(parsed.data, { user, caller: { id: user.id, session: claims } }) };
      } catch (e) {
        return failure(permission, e);
      }
    };
    if (options?.userCheck !== "deferred") return ordinary;

    const roles = ROLES.filter((r) => can(r, permission));
    const deferred = handler as unknown as (input: z.output<S>, ctx: DeferredContext) => Promise<T>;
    return async (input) => {
      const claims = await source.claims();
      if (!claims) return ordinary(input);
      const parsed = schema.safeParse(input);
      if (!parsed.success) return ordinary(input);
      try {
        return { ok: true, data: await deferred(parsed.data, { caller: { id: claims.sub, session: claims, deferredCheck: { roles } } }) };
      } catch (e) {
        if (e instanceof UserNotVerified) return ordinary(input);
        return failure(permission, e);
      }
    };
  }
  return withPermission;
}

function failure(permission: Permission, e: unknown): ActionResult<never> {
  if (e instanceof AppError) return { ok: false, status: e.status, error: e.message };
  console.error(`[${permission}]`, e);
  return { ok: false, status: 500, error: SERVER_ERROR };
}

function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Turns an ActionResult into an HTTP response for route handlers. */
export function toResponse<T>(result: ActionResult<T>): Response {
  return result.ok
    ? Response.json(result.data)
    : Response.json({ error: result.error, fieldErrors: result.fieldErrors }, { status: result.status });
}
