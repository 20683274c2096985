import { expect, test } from "@playwright/test";
import { alert, signInAs } from "./support/session";

test("an admin pings the offline model, adds an endpoint by its key's variable name, edits and deletes it", async ({ page }) => {
  await signInAs(page, "ADMIN");
  await page.goto("/admin/users");
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Endpoints" }).click();
  await expect(page.getByRole("heading", { name: "Model endpoints" })).toBeVisible();

  // npm start (embedded) runs the offline model and registers it.
  const offline = page.getByTestId("endpoint-offline-heuristic");
  await expect(offline.getByTestId("offline-badge")).toHaveText("offline-heuristic (not an LLM)");
  await expect(offline).toContainText("none needed");
  await offline.getByRole("button", { name: "Send a ping" }).click();
  await expect(offline.getByTestId("ping-result")).toContainText(/Answered in \d+ ms · \d+ in \/ \d+ out tokens/);

  const form = page.getByRole("form", { name: "Add an endpoint" });
  await form.getByLabel("Name", { exact: true }).fill("E2E model");
  await form.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
  await form.getByLabel("Model id").fill("e2e-model");
  await form.getByLabel("API key variable").fill("sk-e2e-pasted-key-value");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByRole("alert")).toContainText("NAME of the environment variable");
  await expect(form.getByLabel("Model id")).toHaveValue("e2e-model"); // nothing typed is lost
  // The app's own secrets (and any name outside LLM_KEY_… / OPENAI_API_KEY) are refused by name.
  await form.getByLabel("API key variable").fill("NEXTAUTH_SECRET");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByRole("alert")).toContainText("one of the app's own secrets");
  await form.getByLabel("API key variable").fill("LLM_KEY_E2E_UNSET");
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByRole("status")).toHaveText('Saved "E2E model".');

  const card = page.getByTestId("endpoint-E2E model");
  await expect(card).toContainText("LLM_KEY_E2E_UNSET set: no");
  await expect(card.getByRole("switch", { name: "Response cache for E2E model" })).toHaveAttribute("aria-checked", "true");
  await card.getByRole("button", { name: "Send a ping" }).click();
  await expect(card.getByTestId("ping-result")).toContainText("LLM_KEY_E2E_UNSET");
  await expect(card.getByTestId("ping-result")).toContainText("is not set");
  expect(await page.content()).not.toContain("sk-e2e-pasted-key-value");

  await card.getByRole("switch").click();
  await expect(page.getByTestId("endpoint-E2E model").getByRole("switch")).toHaveAttribute("aria-checked", "false");

  await page.getByTestId("endpoint-E2E model").getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("form", { name: 'Edit "E2E model"' });
  await edit.getByLabel("Max concurrency").fill("7");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("endpoint-E2E model")).toContainText("Concurrency7");

  await page.getByTestId("endpoint-E2E model").getByRole("button", { name: "Delete" }).click();
  await page.getByTestId("endpoint-E2E model").getByRole("button", { name: "Delete" }).first().click();
  await expect(page.getByTestId("endpoint-E2E model")).toHaveCount(0);
  await expect(alert(page)).toHaveCount(0);
});

test("only admins may open the endpoints page", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/admin/endpoints");
  await expect(page).toHaveURL(/\/forbidden\?need=endpoint%3Amanage/);
});
