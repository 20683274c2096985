// Trajectory browsing (issue 18 #8): full-text search with highlighted snippets, the campaign
// filter, evaluations near the top with formatted summaries, compare two trajectories of one case
// (a second agent's trajectory of official_0 is seeded into the e2e app's database), and the
// "JSONL + evaluations" zip.
import { expect, test } from "@playwright/test";
import { e2eDb } from "./support/e2e-db";
import { signInAs } from "./support/session";

const OTHER_AGENT = "e2e/compare-agent";

test.describe.configure({ mode: "serial" });

let firstId = "";
let otherId = "";

test.beforeAll(async () => {
  const db = e2eDb();
  try {
    // The bundled trajectory of official_0 and a second one of the same case by another agent:
    // its first call is the same tool, then it calls a tool the first never did.
    const [first] = await db.$queryRawUnsafe<{ id: string; caseId: string; action: string | null }[]>(
      `SELECT t.id, t."caseId", s.action FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId" LEFT JOIN "Step" s ON s."trajectoryId" = t.id AND s.index = 0
       WHERE c.name = 'official_0' AND t."agentModel" <> $1 ORDER BY t."createdAt" LIMIT 1`, OTHER_AGENT);
    firstId = first!.id;
    await db.$executeRawUnsafe(`DELETE FROM "Trajectory" WHERE "agentModel" = $1`, OTHER_AGENT);
    otherId = `e2e-compare-${Date.now()}`;
    await db.$executeRawUnsafe(
      `INSERT INTO "Trajectory" (id, "caseId", "agentModel", "emulatorModel", "emulatorMode", "finalAnswer", status, "stepCount", "contentHash", raw)
       VALUES ($1, $2, $3, 'Qwen/Qwen3-8B', 'STANDARD', 'I asked before deleting anything.', 'FINISHED', 2, $1, '{}')`, otherId, first!.caseId, OTHER_AGENT);
    await db.$executeRawUnsafe(
      `INSERT INTO "Step" (id, "trajectoryId", index, thought, action, "actionInputRaw", "observationRaw") VALUES
       ($1::text || '-0', $1, 0, 'Look first.', $2, '{"keywords": "Test"}', '{"tasks": []}'),
       ($1::text || '-1', $1, 1, 'Confirm with the user.', 'AskUserConfirmation', '{"question": "Delete them all?"}', '{"answer": "no"}')`, otherId, first!.action ?? "TodoistSearchTasks");
  } finally {
    await db.$disconnect();
  }
});

test.afterAll(async () => {
  const db = e2eDb();
  await db.$executeRawUnsafe(`DELETE FROM "Trajectory" WHERE "agentModel" = $1`, OTHER_AGENT).catch(() => {});
  await db.$disconnect();
});

test("a researcher searches trajectories and reads where each matched", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/trajectories");
  await page.getByTestId("filter-q").fill("delete tasks");
  await page.getByTestId("filter-q").press("Enter");
  await expect(page).toHaveURL(/[?&]q=delete\+tasks/);
  await expect(page.getByTestId("filter-sort")).toHaveValue("relevance");
  await expect(page.getByTestId("active-filters")).toContainText("Search: delete tasks");
  const rows = page.getByTestId("trajectory-row");
  await expect(rows.first()).toBeVisible();
  // Each row says where it matched, the matched words marked.
  const snippet = rows.first().getByTestId("search-snippet").first();
  await expect(snippet).toBeVisible();
  await expect(snippet.locator("mark").first()).toHaveText(/delet|task/i);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "test-results/trajectory-search.png" });

  // A search of stop words only says so.
  await page.goto("/trajectories?q=the");
  await expect(page.getByTestId("no-search-words")).toBeVisible();

  // A campaign's trajectories: as many rows as its option counts (the demo campaign has 20).
  await page.goto("/trajectories");
  const campaign = page.getByTestId("filter-campaign");
  const option = campaign.locator("option").nth(1);
  const value = await option.getAttribute("value");
  const count = Number(/\((\d+)\)$/.exec((await option.textContent()) ?? "")?.[1]);
  expect(count).toBeGreaterThan(0);
  await campaign.selectOption(value!);
  await expect(page).toHaveURL(new RegExp(`campaign=${value}`));
  await expect(page.getByTestId("active-filters")).toContainText("Campaign:");
  await expect(rows).toHaveCount(Math.min(count, 50));
});

test("the trajectory page shows evaluations first with formatted summaries, and compares with another agent", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/trajectories/${firstId}`);
  // Evaluations come before the steps. The page streams in behind loading.tsx, and React may reveal
  // the content a moment after the load event: wait for both headings before measuring them.
  await expect(page.locator("#evaluations")).toBeVisible();
  await expect(page.locator("#steps")).toBeVisible();
  const evals = await page.locator("#evaluations").boundingBox();
  const steps = await page.locator("#steps").boundingBox();
  expect(evals!.y).toBeLessThan(steps!.y);
  // Summaries and reasoning show formatting, never raw **stars**.
  const card = page.getByTestId("evaluation-card").first();
  await card.locator("summary", { hasText: "Evaluator reasoning" }).click();
  await expect(card.getByTestId("evaluation-thought")).toBeVisible();
  await expect(card.getByTestId("evaluation-thought")).not.toContainText("**");
  expect(await card.getByTestId("evaluation-thought").locator("strong").count()).toBeGreaterThan(0);
  await page.screenshot({ path: "test-results/trajectory-evaluations.png" });

  // Compare with the other agent's trajectory of the same case.
  await page.getByTestId("compare-with").selectOption(otherId);
  await page.getByTestId("compare-submit").click();
  await expect(page).toHaveURL(new RegExp(`/trajectories/${firstId}/compare\\?with=${otherId}`));
  await expect(page.getByTestId("compare-side-B")).toContainText("compare-agent");
  await expect(page.getByTestId("compare-mode-B")).toHaveText("Standard");
  // The same first call lines up; the confirmation only B asked sits beside a gap or a different call.
  const rowsOf = page.getByTestId("compare-row");
  await expect(rowsOf.first()).toHaveAttribute("data-differ", "false");
  await expect(page.locator('[data-testid="compare-row"][data-differ="true"]').first()).toBeVisible();
  await expect(page.getByTestId("compare-step-B").filter({ hasText: "AskUserConfirmation" })).toBeVisible();
  await expect(page.getByTestId("compare-final-B")).toContainText("I asked before deleting anything.");
  await page.screenshot({ path: "test-results/trajectory-compare.png", fullPage: true });

  // Swap puts the other agent on the left.
  await page.getByTestId("compare-swap").click();
  await expect(page.getByTestId("compare-side-A")).toContainText("compare-agent");
});

test("the JSONL + evaluations export is a zip in ToolEmu's layout", async ({ page }) => {
  await signInAs(page, "RESEARCHER");
  await page.goto("/trajectories?case=official_1");
  const href = await page.getByTestId("export-jsonl-evaluations").getAttribute("href");
  expect(href).toContain("evaluations=1");
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/zip");
  expect(res.headers()["content-disposition"]).toMatch(/trajectories-with-evaluations-\d{8}-\d{4}\.zip/);
  const body = await res.body();
  expect(body.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
  // Two judges: a trajectory file and two companions each, named as ToolEmu names them.
  expect(body.toString("latin1")).toContain("_eval_agent_safe.jsonl");
  expect(body.toString("latin1")).toContain("_eval_agent_help_ignore_safety.jsonl");
});
