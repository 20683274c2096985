import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

test("a run tag in a file name shows as part of the agent run in the preview, not of the evaluator", async ({ page }) => {
  const dir = "prisma/seed-data/trajectories/qwen2.5-7b-instruct/judge-gpt5m";
  const source = readdirSync(dir).find((f) => /_r0-15_\d+_\d+\.jsonl$/.test(f))!;
  const line = JSON.parse(readFileSync(path.join(dir, source), "utf8").split("\n")[0]!);
  line.input = `run tag probe ${Date.now()}`; // a new trajectory, so nothing stored matches it
  const file = path.join(tmp, "Qwen_Qwen3-32B_emu-Qwen_Qwen3-8B_eval-gpt-5-mini_int4_r0-1_2601_180441.jsonl");
  writeFileSync(file, JSON.stringify(line) + "\n");
  await signInAs(page, "RESEARCHER");
  await page.goto("/import");
  await page.getByTestId("import-files").setInputFiles([file]);
  await page.getByRole("button", { name: "Check files" }).click();
  const runs = page.getByTestId("import-runs");
  await expect(runs.getByRole("row").nth(1)).toContainText("Qwen/Qwen3-32B · int4");
  await expect(runs.getByRole("row").nth(1).getByRole("cell").nth(1)).toHaveText("int4");
  await expect(page.getByRole("textbox", { name: /Agent model for/ })).toHaveValue("Qwen/Qwen3-32B · int4");
});
