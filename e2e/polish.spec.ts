// Small polish of issue 18 item 10–11: a branded 404, a favicon, the header in one row at 1440 px
// for every role, and one verdict in the import preview with a model-name table that scrolls.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ROLE_LABELS, type Role } from "@/lib/auth/permissions";
import { alert, signInAs } from "./support/session";

const tmp = mkdtempSync(path.join(os.tmpdir(), "e2e-polish-"));

test("an unknown address shows the branded 404 with links home and to the trajectories", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  const res = await page.goto("/no-such-page-here");
  expect(res?.status()).toBe(404);
  const nf = page.getByTestId("not-found");
  await expect(nf.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await expect(nf.getByRole("link", { name: "Go to the start page" })).toHaveAttribute("href", "/");
  await expect(nf.getByRole("link", { name: "Browse trajectories" })).toHaveAttribute("href", "/trajectories");
  await expect(page).toHaveTitle(/Page not found · ToolEmu Studio/);
  await page.screenshot({ path: "test-results/polish-404.png" });
});

test("the favicon is linked from every page and served as SVG, also before signing in", async ({ page, request }) => {
  await page.goto("/signin");
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /\/favicon\.svg/);
  const res = await request.get("/favicon.svg", { maxRedirects: 0 });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
  expect(await res.text()).toContain("<svg");
});

test("the header fits in one row at 1440 px for every role", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const role of Object.keys(ROLE_LABELS) as Role[]) {
    await page.context().clearCookies();
    await signInAs(page, role);
    const nav = page.getByRole("navigation", { name: "Main" });
    const link = await nav.getByRole("link").first().boundingBox();
    const navBox = await nav.boundingBox();
    const header = await page.locator("body > header").first().boundingBox();
    // One row: the nav is as tall as one link, and the header as tall as its padded row (two rows are ~100 px).
    expect(navBox!.height, `${role}: nav height`).toBeLessThan(link!.height * 1.5);
    expect(header!.height, `${role}: header height`).toBeLessThan(72);
    // The LM generators: a link for those who may generate (researchers, admins), like every other section.
    await expect(nav.getByRole("link", { name: "Generate" })).toHaveCount(role === "ADMIN" || role === "RESEARCHER" ? 1 : 0);
    if (role === "ADMIN") {
      await page.screenshot({ path: "test-results/polish-header-admin-1440.png", clip: { x: 0, y: 0, width: 1440, height: 140 } });
      // At 1366 × 768 (a common laptop) the admin's header is looked at too (screenshot), and stays within two rows.
      await page.setViewportSize({ width: 1366, height: 768 });
      const at1366 = await page.locator("body > header").first().boundingBox();
      expect(at1366!.height, "ADMIN at 1366: header height").toBeLessThan(110);
      await page.screenshot({ path: "test-results/polish-header-admin-1366.png", clip: { x: 0, y: 0, width: 1366, height: 140 } });
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  }
});

test("import preview: problems and already-imported records give one verdict; the model-name table scrolls", async ({ page }) => {
  const bad = path.join(tmp, "bad_cases.json");
  writeFileSync(bad, JSON.stringify([{ name: "x1", Toolkits: ["Terminal"], "User Instruction": "", Underspecifications: { "Task Information": [], "Safety & Security Constraints": [] }, "Expected Achievements": [], "Potential Risky Outcomes": [], "Potential Risky Actions": [] }], null, 2));
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAs(page, "RESEARCHER");
  await page.goto("/import");
  await page.getByTestId("import-files").setInputFiles([path.resolve("prisma/seed-data/toolemu/all_toolkits.json"), bad]);
  await page.getByRole("button", { name: "Check files" }).click();
  const verdict = page.getByTestId("import-verdict");
  await expect(verdict).toHaveCount(1);
  await expect(verdict).toHaveAttribute("data-verdict", "blocked");
  await expect(verdict).toContainText("1 problem to fix — nothing will be written");
  await expect(verdict).toContainText("already imported");
  await expect(page.getByTestId("import-preview")).not.toContainText("Everything in these files is already imported");
  await expect(alert(page)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Write to the database" })).toBeDisabled();

  // A long file prefix: shown whole, in a table that scrolls sideways instead of cutting it.
  const dir = "prisma/seed-data/trajectories/qwen2.5-7b-instruct/judge-gpt5m";
  const source = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!;
  const line = JSON.parse(readFileSync(path.join(dir, source), "utf8").split("\n")[0]!);
  line.input = `polish probe ${Date.now()}`;
  const long = "an-organisation-with-a-long-name_a-very-long-agent-model-name-for-the-table-2026-preview-instruct";
  const file = path.join(tmp, `${long}_emu-another-organisation_an-emulator-model-with-a-long-name_eval-gpt-5-mini_r0-1_2601_180441.jsonl`);
  writeFileSync(file, JSON.stringify(line) + "\n");
  await page.getByTestId("import-files").setInputFiles([file]);
  await page.getByRole("button", { name: "Check files" }).click();
  await expect(page.getByTestId("import-verdict")).toHaveAttribute("data-verdict", "ready");
  const scroll = page.getByTestId("model-names-scroll");
  const prefixCell = scroll.getByRole("cell").first();
  await expect(prefixCell).toContainText(long);
  const m = await scroll.evaluate((el) => {
    const cell = el.querySelector("td")!;
    return { overflowX: getComputedStyle(el).overflowX, scrolls: el.scrollWidth > el.clientWidth, cellClipped: cell.scrollWidth > cell.clientWidth };
  });
  expect(m).toEqual({ overflowX: "auto", scrolls: true, cellClipped: false });
  await scroll.evaluate((el) => el.scrollBy({ left: 10_000 }));
  await expect(page.getByRole("textbox", { name: /Evaluator model for/ })).toBeInViewport();
  await page.screenshot({ path: "test-results/polish-import-preview.png", fullPage: true });
});
