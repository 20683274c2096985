import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { DEMO_USERS, type DemoUser } from "@/lib/seed/demo-users";
import type { Role } from "@/lib/auth/permissions";

export function demoUser(role: Role): DemoUser {
  const u = DEMO_USERS.find((d) => d.role === role);
  if (!u) throw new Error(`no demo user with role ${role}`);
  return u;
}

/** The sign-in form: fills it and submits (the caller checks what follows). */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Signs `email` in over HTTP, as the form's script does (next-auth's CSRF token, then the
 * credentials callback), on `ctx`: a request context of its own, or `page.request`, which shares
 * the page's browser context and so its cookies. Returns the session's user.
 */
export async function signInOverHttp(ctx: APIRequestContext, email: string, password: string): Promise<{ email?: string; role?: string }> {
  const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await ctx.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password, callbackUrl: "/", json: "true" },
    maxRedirects: 0,
  });
  expect(res.status(), `sign-in of ${email}`).toBeLessThan(400);
  const session = (await (await ctx.get("/api/auth/session")).json()) as { user?: { email?: string; role?: string } };
  expect(session.user?.email, `session of ${email}`).toBe(email);
  return session.user!;
}

/** A demo user of `role` signs in with the sign-in form and lands on the home page. */
export async function signInWithForm(page: Page, role: Role) {
  const u = demoUser(role);
  await signIn(page, u.email, u.password);
  await expect(page.getByTestId("current-user")).toContainText(u.name);
  return u;
}

/**
 * A demo user of `role` is signed in, on the home page. Specs whose subject is not the sign-in
 * form (auth.spec tests the form for every role) get the session cookie over HTTP in the page's
 * own context: the same sign-in, without rendering and filling the form each time.
 */
export async function signInAs(page: Page, role: Role) {
  const u = demoUser(role);
  await signInOverHttp(page.request, u.email, u.password);
  await page.goto("/");
  await expect(page.getByTestId("current-user")).toContainText(u.name);
  return u;
}

/** The page's own alert messages (Next's route announcer also has role="alert"). */
export function alert(page: Page) {
  return page.locator('[role="alert"]:not(#__next-route-announcer__)');
}

export async function signOut(page: Page) {
  // A click that lands before the header has hydrated does nothing; click again until it takes.
  await expect(async () => {
    await page.getByRole("button", { name: "Sign out" }).click({ timeout: 2000 });
    await expect(page).toHaveURL(/\/signin/, { timeout: 3000 });
  }).toPass({ timeout: 15_000 });
}
