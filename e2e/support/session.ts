import { expect, type Page } from "@playwright/test";
import { DEMO_USERS, type DemoUser } from "@/lib/seed/demo-users";
import type { Role } from "@/lib/auth/permissions";

export function demoUser(role: Role): DemoUser {
  const u = DEMO_USERS.find((d) => d.role === role);
  if (!u) throw new Error(`no demo user with role ${role}`);
  return u;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signInAs(page: Page, role: Role) {
  const u = demoUser(role);
  await signIn(page, u.email, u.password);
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
