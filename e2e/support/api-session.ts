// Signing in over HTTP only (next-auth's CSRF token, then the credentials callback), for specs
// that check answers rather than pages: no browser needed.
import { expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import type { Role } from "@/lib/auth/permissions";
import { demoUser } from "./session";

export async function apiSignedIn(baseURL: string, role: Role): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL });
  const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const u = demoUser(role);
  const res = await ctx.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: u.email, password: u.password, callbackUrl: `${baseURL}/`, json: "true" },
    maxRedirects: 0,
  });
  expect(res.status(), `sign-in of ${u.email}`).toBeLessThan(400);
  const session = (await (await ctx.get("/api/auth/session")).json()) as { user?: { role?: string } };
  expect(session.user?.role, `session of ${u.email}`).toBe(role);
  return ctx;
}
