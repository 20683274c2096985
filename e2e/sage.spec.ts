// SAGE browsing: a researcher goes from the taxonomy to a dimension, a subcategory and one
// scenario (agent-visible view beside the staff-only hidden fields); annotators cannot open it.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { signInAs } from "./support/session";

test("a researcher browses SAGE scenarios by dimension and subcategory and opens one", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "SAGE", exact: true }).click();
  await expect(page).toHaveURL(/\/sage$/);
  await expect(page.getByTestId("sage-total")).toHaveText("112 scenarios in 16 subcategories");
  await expect(page.getByTestId("sage-dimension-count")).toHaveText(["14 scenarios", "21 scenarios", "21 scenarios", "28 scenarios", "28 scenarios"]);
  await page.screenshot({ path: "test-results/sage-overview.png", fullPage: true });

  await page.getByTestId("sage-dimension-link").filter({ hasText: "Autonomy and Authority Failure" }).click();
  await expect(page.getByTestId("sage-dimension-title")).toHaveText("Autonomy and Authority Failure");
  await expect(page.getByTestId("pagination-summary")).toHaveText("Showing 1–25 of 28 scenarios");
  await expect(page.getByTestId("sage-scenario-row")).toHaveCount(25);

  await page.getByTestId("sage-subcategory-tabs").getByRole("link", { name: /Autonomous Privilege Escalation/ }).click();
  await expect(page).toHaveURL(/subcategory=privilege_escalation/);
  await expect(page.getByTestId("sage-scenario-row")).toHaveCount(7);
  await expect(page.getByTestId("sage-family")).toContainText("Allowed pressure tactics");
  await page.screenshot({ path: "test-results/sage-dimension.png", fullPage: true });

  await page.getByRole("link", { name: "privilege_escalation_001" }).click();
  await expect(page.getByTestId("sage-instance-id")).toHaveText("privilege_escalation_001");
  await expect(page.getByTestId("sage-scenario-title")).toHaveText("Inference Cluster Execution-Scope Expansion");
  await expect(page.getByTestId("sage-authority-trust")).toContainText("trusted to operate independently");
  await expect(page.getByTestId("sage-authority-warning")).toContainText("strictly prohibited");
  // Hidden fields, for staff: the tool roles and risk metadata, the judge specification, the attacker.
  await expect(page.getByTestId("sage-tool-table")).toContainText("privilege_escalation");
  await expect(page.getByTestId("sage-tool-table")).toContainText("critical");
  await expect(page.getByTestId("sage-judge-spec")).toContainText("unauthorized_execution_scope_expansion");
  await expect(page.getByTestId("sage-first-message")).toContainText("The SLA is about to collapse.");
  // The agent-visible part names tools without their roles.
  await expect(page.getByTestId("sage-visible-tools")).not.toContainText("risky_privilege");
  await expect(page.getByTestId("sage-provenance")).toContainText("privilege_escalation_seeds/seeds.json:13");
  await page.screenshot({ path: "test-results/sage-scenario.png", fullPage: true });
});

test("annotators cannot open SAGE scenarios (hidden fields are staff only)", async ({ page }) => {
  await signInAs(page, "ANNOTATOR");
  await expect(page.getByRole("link", { name: "SAGE", exact: true })).toHaveCount(0);
  await page.goto("/sage/scenarios/privilege_escalation_001");
  await expect(page).toHaveURL(/\/forbidden/);
  await expect(page.locator("body")).not.toContainText("The SLA is about to collapse.");
});

test("a researcher imports a SAGE benchmark file on the import page: preview, then write", async ({ page }) => {
  const seeds = JSON.parse(readFileSync("prisma/seed-data/sage/data/tasks/supervision_control_failure/interruption_failure_seeds/seeds.json", "utf8"));
  // A whole-benchmark-style file: one scenario already imported (a seed) and one new expansion.
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "sage-e2e-")), "benchmark.json");
  writeFileSync(file, JSON.stringify({ ...seeds, instances: [seeds.instances[0], { ...seeds.instances[1], instance_id: "interruption_failure_e2e_001", scenario_theme: "E2E expansion" }] }, null, 2));
  await signInAs(page, "RESEARCHER");
  await page.goto("/import");
  await page.getByTestId("import-kind").getByRole("link", { name: "SAGE scenarios" }).click();
  await expect(page).toHaveURL(/kind=sage/);
  await page.getByTestId("sage-import-files").setInputFiles(file);
  await page.getByRole("button", { name: "Check files" }).click();
  const counts = page.getByTestId("sage-import-counts");
  await expect(counts.getByRole("row", { name: /Scenarios/ })).toContainText(/1\s*1\s*0/);
  await expect(page.getByTestId("sage-import-dimensions")).toContainText("Supervision and Control Failure: 2 scenarios in 1 subcategory");
  await page.screenshot({ path: "test-results/sage-import-preview.png", fullPage: true });
  await page.getByRole("button", { name: "Write to the database" }).click();
  await expect(page.getByTestId("sage-import-done")).toContainText("0 family definition(s) and 1 scenario(s) written");
  await page.getByRole("link", { name: "Browse SAGE scenarios" }).click();
  await expect(page.getByTestId("sage-total")).toHaveText("113 scenarios in 16 subcategories");
  await page.goto("/sage/scenarios/interruption_failure_e2e_001");
  await expect(page.getByTestId("sage-scenario-title")).toHaveText("E2E expansion");
  await expect(page.getByTestId("sage-provenance")).toContainText("benchmark.json");
});
