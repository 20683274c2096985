import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { alert, signIn, signInAs, signOut } from "./support/session";

test("an admin creates a user, changes the role and resets the password; the user signs in", async ({ page }) => {
  await signInAs(page, "ADMIN");
  await page.goto("/admin/users");
  const form = page.getByRole("form", { name: "Create user" });
  await form.getByLabel("Email").fill("new.person@lab.example");
  await form.getByLabel("Name").fill("New Person");
  await form.getByLabel("Role").selectOption("ANNOTATOR");
  await form.getByLabel("Initial password").fill("short");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByRole("alert")).toContainText("at least 8 characters");
  // What was typed is still there after the error.
  await expect(form.getByLabel("Email")).toHaveValue("new.person@lab.example");
  await form.getByLabel("Initial password").fill("first-password-1");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByRole("status")).toHaveText("Created new.person@lab.example.");

  const row = page.getByTestId("user-row-new.person@lab.example");
  await expect(row).toBeVisible();
  await row.getByLabel("Role of new.person@lab.example").selectOption("PI");
  await expect(page.getByRole("status").first()).toContainText("to PI");

  await row.getByRole("button", { name: "Reset password" }).click();
  await row.getByLabel("New password for new.person@lab.example").fill("second-password-2");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").first()).toContainText("Password reset");

  await signOut(page);
  await signIn(page, "new.person@lab.example", "first-password-1");
  await expect(alert(page)).toHaveText("Invalid email or password.");
  await signIn(page, "new.person@lab.example", "second-password-2");
  await expect(page.getByTestId("current-role")).toHaveText("PI");
});

// Server actions are public HTTP endpoints; the permission check must hold whatever the UI shows.
test("a server action called directly by a role without the permission returns 403", async ({ page }) => {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const actionId = Object.entries(manifest.node).find(([, v]) => v.exportedName === "createUserAction")?.[0];
  expect(actionId, "createUserAction in the server-reference manifest").toBeTruthy();

  const call = (request: typeof page.request) =>
    request.post("/admin/users", {
      headers: { "Next-Action": actionId!, "Content-Type": "text/plain;charset=UTF-8", Accept: "text/x-component" },
      data: JSON.stringify([{ email: "sneaky@lab.example", name: "Sneaky", role: "ADMIN", password: "sneaky-password" }]),
    });

  await signInAs(page, "ANNOTATOR");
  const refused = await call(page.request);
  const body = await refused.text();
  expect(body).toContain('"status":403');
  expect(body).toContain("user:manage");

  // The same call from an admin succeeds, which shows the request reached the action.
  await signOut(page);
  await signInAs(page, "ADMIN");
  const allowed = await call(page.request);
  expect(await allowed.text()).toContain('"ok":true');
  await page.goto("/admin/users");
  await expect(page.getByTestId("user-row-sneaky@lab.example")).toBeVisible();
});
