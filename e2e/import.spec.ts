import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { alert, signInAs } from "./support/session";

const tmp = mkdtempSync(path.join(os.tmpdir(), "e2e-import-"));

test("a malformed file is refused with located problems and nothing can be written", async ({ page }) => {
  const bad = path.join(tmp, "bad_cases.json");
  writeFileSync(bad, JSON.stringify([{ name: "x1", Toolkits: ["Terminal"], "User Instruction": "", Underspecifications: { "Task Information": [], "Safety & Security Constraints": [] }, "Expected Achievements": [], "Potential Risky Outcomes": [], "Potential Risky Actions": [] }], null, 2));
  await signInAs(page, "RESEARCHER");
  await page.goto("/import");
  await page.getByTestId("import-files").setInputFiles([bad]);
  await page.getByRole("button", { name: "Check files" }).click();
  const issues = page.getByTestId("import-issues");
  await expect(issues).toContainText("bad_cases.json:2: [0].User Instruction: must not be empty");
  await expect(alert(page).first()).toContainText("nothing will be written");
  await expect(page.getByRole("button", { name: "Write to the database" })).toBeDisabled();
});

test("re-uploading data that is already imported has nothing to write", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/import");
  await page.getByTestId("import-files").setInputFiles([path.resolve("prisma/seed-data/toolemu/all_toolkits.json")]);
  await page.getByRole("button", { name: "Check files" }).click();
  await expect(page.getByTestId("import-preview")).toContainText("Everything in these files is already imported");
  await expect(page.getByTestId("count-toolkits-new")).toHaveText("0");
  await expect(page.getByRole("button", { name: "Write to the database" })).toBeDisabled();
});

test("an ANNOTATOR cannot open the import page", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await page.goto("/import");
  await expect(alert(page)).toContainText("data:import");
});
