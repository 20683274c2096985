// Signing in over HTTP only (next-auth's CSRF token, then the credentials callback), for specs
// that check answers rather than pages: no browser needed.
import { expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import type { Role } from "@/lib/auth/permissions";
import { demoUser, signInOverHttp } from "./session";

export async function apiSignedIn(baseURL: string, role: Role): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL });
  const u = demoUser(role);
  const user = await signInOverHttp(ctx, u.email, u.password);
  expect(user.role, `session of ${u.email}`).toBe(role);
  return ctx;
}
