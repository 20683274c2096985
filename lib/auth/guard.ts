// The one wrapper every server action and route handler goes through: it resolves the session,
// checks the permission first, then parses the input with zod, then runs the handler. Nothing
// here depends on Next.js; lib/auth/server.ts binds it to next-auth's session.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { can, type Permission, type Role } from "./permissions";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; error: string; fieldErrors?: Record<string, string[]> };

export type GetSessionUser = () => Promise<SessionUser | null>;

export function makeGuard(getSessionUser: GetSessionUser) {
  return function withPermission<S extends z.ZodType, T>(
    permission: Permission,
    schema: S,
    handler: (input: z.output<S>, ctx: { user: SessionUser }) => Promise<T>,
  ): (input: z.input<S>) => Promise<ActionResult<T>> {
    return async (input) => {
      const user = await getSessionUser();
      if (!user) return { ok: false, status: 401, error: "Please sign in again." };
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
        return { ok: true, data: await handler(parsed.data, { user }) };
      } catch (e) {
        if (e instanceof AppError) return { ok: false, status: e.status, error: e.message };
        console.error(`[${permission}]`, e);
        return { ok: false, status: 500, error: "Something went wrong on the server; the error was logged." };
      }
    };
  };
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
