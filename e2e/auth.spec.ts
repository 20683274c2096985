import { expect, test } from "@playwright/test";
import { ROLE_LABELS, type Role } from "@/lib/auth/permissions";
import { alert, demoUser, signIn, signInAs, signInWithForm, signOut } from "./support/session";

// The link carries a count of waiting actions when there are any.
const INTERVENTIONS = /^Interventions(\s*\d+)?$/;
const NAV: Record<Role, (string | RegExp)[]> = {
  ADMIN: ["Toolkits", "Cases", "Trajectories", "SAGE", "Import", "Generate", "Playground", "Runs", INTERVENTIONS, "Campaigns", "Annotate", "Dashboards", "Admin"],
  RESEARCHER: ["Toolkits", "Cases", "Trajectories", "SAGE", "Import", "Generate", "Playground", "Runs", INTERVENTIONS, "Campaigns", "Annotate", "Dashboards"],
  PI: ["Toolkits", "Cases", "Trajectories", "SAGE", "Runs", INTERVENTIONS, "Campaigns", "Annotate", "Dashboards"],
  ANNOTATOR: ["Annotate"],
};

test("a signed-out visitor is sent to the sign-in page", async ({ page }) => {
  await page.goto("/trajectories");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Ftrajectories/);
  await expect(page.getByRole("heading", { name: "ToolEmu Studio" })).toBeVisible();
});

for (const role of Object.keys(NAV) as Role[]) {
  test(`${role} signs in, sees the navigation of the role, and signs out`, async ({ page }) => {
    await signInWithForm(page, role);
    await expect(page.getByTestId("current-role")).toHaveText(ROLE_LABELS[role]);
    const nav = page.getByRole("navigation", { name: "Main" }).getByRole("link");
    await expect(nav).toHaveText(NAV[role]);
    await signOut(page);
    await expect(page).toHaveURL(/\/signin/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/signin/);
  });
}

test("a wrong password gets a generic error that does not say which field was wrong", async ({ page }) => {
  await signIn(page, demoUser("PI").email, "not-the-password");
  await expect(alert(page)).toHaveText("Invalid email or password.");
  await signIn(page, "nobody@demo.local", "not-the-password");
  await expect(alert(page)).toHaveText("Invalid email or password.");
});

test("after a sign-in the visitor lands where they were going", async ({ page }) => {
  await page.goto("/dashboards");
  const u = demoUser("RESEARCHER");
  await page.getByLabel("Email").fill(u.email);
  await page.getByLabel("Password").fill(u.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboards$/);
  await expect(page.getByRole("heading", { name: "Dashboards" })).toBeVisible();
});

test("an ANNOTATOR is refused the admin page", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await page.goto("/admin/users");
  await expect(alert(page)).toContainText("Not allowed");
  await expect(alert(page)).toContainText("user:manage");
  await expect(page.getByText("annotator@demo.local")).toHaveCount(0);
});

test("ten failed sign-ins lock the email for 15 minutes with a clear message", async ({ page }) => {
  const email = "locked-out@demo.local";
  for (let i = 0; i < 10; i++) {
    await signIn(page, email, `wrong-${i}`);
    await expect(alert(page)).toHaveText("Invalid email or password.");
  }
  await signIn(page, email, "wrong-again");
  await expect(alert(page)).toContainText("locked for 15 more minutes");
});
