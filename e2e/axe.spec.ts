// Accessibility (issue 18 #9): axe-core on every page of the app — listed from app/ by
// lib/testing/app-routes.ts, so a new page is checked without being added here — each as a role
// that may open it, at 1440×900, plus the sign-in page and the 404. Dynamic segments get real ids
// from the seeded demo database (a toolkit, a case, a trajectory and a second one of its case, the
// demo campaign and an item, a SAGE dimension and scenario, a run of each kind present, a
// playground session and an episode run — each started here when none exists). Any violation of serious or critical
// impact fails, listed with its rule, impact, target selectors and the page's URL.
//
// axe-core's own script is injected (not @axe-core/playwright, which needs Node >= 22.12); the
// app's nonce CSP would refuse an injected script, so this spec's contexts bypass CSP.
import { createRequire } from "node:module";
import { expect, test, type Page } from "@playwright/test";
import { can, type Role } from "@/lib/auth/permissions";
import { listAppEntries, type AppEntry } from "@/lib/testing/app-routes";
import { e2eDb } from "./support/e2e-db";
import { signInAs } from "./support/session";

// lib/seed/bundled-data.ts exports this name, but it imports server-only modules.
const DEMO_CAMPAIGN_NAME = "Demo: blinded review of 20 ToolEmu trajectories";
const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const FAILING_IMPACTS = new Set(["serious", "critical"]);

test.use({ bypassCSP: true, viewport: { width: 1440, height: 900 } });

interface AxeNode {
  target: unknown[];
  impact: string | null;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** axe's violations of serious or critical impact on the page as it is, one line per rule. */
async function axeFindings(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, impact: n.impact })) }));
  });
  return violations
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? ""))
    .map((v) => {
      const targets = v.nodes.slice(0, 6).map((n) => JSON.stringify(n.target)).join(", ");
      return `${v.id} (${v.impact}, ${v.nodes.length} node${v.nodes.length === 1 ? "" : "s"}): ${v.help} — ${targets}${v.nodes.length > 6 ? ", …" : ""}`;
    });
}

/** The role each page is checked as: the first of these that may open it. */
const ROLE_ORDER: Role[] = ["RESEARCHER", "PI", "ADMIN", "ANNOTATOR"];
function roleFor(e: AppEntry): Role {
  const g = e.guard;
  if (!g || g.kind !== "permission") return "RESEARCHER";
  return ROLE_ORDER.find((r) => can(r, g.permission)) ?? "ADMIN";
}

// Pages any signed-in user may open, checked as every role (each sees a different start page).
const EVERY_ROLE = new Set(["/"]);
// The annotation screens are checked as an annotator (invited to the demo campaign).
const AS_ANNOTATOR = new Set(["/annotate", "/annotate/[campaignId]"]);

const ids: Record<string, string | null> = {};

test.beforeAll(async () => {
  const db = e2eDb();
  try {
    const one = async (sql: string, ...args: unknown[]) => (await db.$queryRawUnsafe<{ v: string }[]>(sql, ...args))[0]?.v ?? null;
    ids.toolkit = await one(`SELECT name AS v FROM "Toolkit" ORDER BY name LIMIT 1`);
    // A case with two trajectories with steps and evaluations: the trajectory page and the comparison.
    const pair = await db.$queryRawUnsafe<{ a: string; b: string; name: string }[]>(
      `SELECT c.name, min(t.id) AS a, max(t.id) AS b FROM "Trajectory" t JOIN "TestCase" c ON c.id = t."caseId"
       WHERE t."stepCount" > 1 AND EXISTS (SELECT 1 FROM "Evaluation" e WHERE e."trajectoryId" = t.id)
       GROUP BY c.name HAVING count(*) > 1 ORDER BY c.name LIMIT 1`,
    );
    ids.case = pair[0]?.name ?? (await one(`SELECT name AS v FROM "TestCase" ORDER BY name LIMIT 1`));
    ids.trajectory = pair[0]?.a ?? (await one(`SELECT id AS v FROM "Trajectory" WHERE "scenarioId" IS NULL ORDER BY "stepCount" DESC LIMIT 1`));
    ids.compareWith = pair[0]?.b ?? null;
    ids.campaign = await one(`SELECT id AS v FROM "Campaign" WHERE name = $1`, DEMO_CAMPAIGN_NAME);
    ids.item = await one(`SELECT id AS v FROM "CampaignItem" WHERE "campaignId" = $1 ORDER BY id LIMIT 1`, ids.campaign);
    ids.dimension = await one(`SELECT key AS v FROM "SageDimension" ORDER BY key LIMIT 1`);
    ids.scenario = await one(`SELECT "instanceId" AS v FROM "SageScenario" ORDER BY "instanceId" LIMIT 1`);
    for (const kind of ["EPISODES", "EVALUATION", "CRITIC", "SAGE"]) ids[`run:${kind}`] = await one(`SELECT id AS v FROM "Run" WHERE kind = $1::"RunKind" ORDER BY "createdAt" DESC LIMIT 1`, kind);
    ids.playground = await one(`SELECT id AS v FROM "Trajectory" WHERE origin = 'EMULATED' AND "runId" IS NULL AND "scenarioId" IS NULL ORDER BY "createdAt" DESC LIMIT 1`);
  } finally {
    await db.$disconnect();
  }
});

/** The URLs a page pattern stands for (several for /runs/[id]: one per run kind present); null: no id known. */
function urlsFor(path: string): string[] | null {
  const v = (k: string) => encodeURIComponent(ids[k] ?? "");
  if (path === "/runs/[id]") return ["EPISODES", "EVALUATION", "CRITIC", "SAGE"].filter((k) => ids[`run:${k}`]).map((k) => `/runs/${v(`run:${k}`)}`);
  if (path === "/playground/[id]") return ids.playground ? [`/playground/${v("playground")}`] : [];
  if (path === "/trajectories/[id]/compare") return [`/trajectories/${v("trajectory")}/compare${ids.compareWith ? `?with=${v("compareWith")}` : ""}`];
  // Each dynamic segment by the section it is in (a new page under /campaigns/[id]/… gets the demo campaign).
  const url = path
    .replace(/^\/toolkits\/\[name\]/, `/toolkits/${v("toolkit")}`)
    .replace(/^\/cases\/\[name\]/, `/cases/${v("case")}`)
    .replace(/^\/trajectories\/\[id\]/, `/trajectories/${v("trajectory")}`)
    .replace(/^\/annotate\/\[campaignId\]/, `/annotate/${v("campaign")}`)
    .replace(/^\/campaigns\/\[id\]/, `/campaigns/${v("campaign")}`)
    .replace(/\/items\/\[itemId\]/, `/items/${v("item")}`)
    .replace(/^\/sage\/scenarios\/\[id\]/, `/sage/scenarios/${v("scenario")}`)
    .replace(/^\/sage\/\[dimension\]/, `/sage/${v("dimension")}`);
  return url.includes("[") ? null : [url];
}

const pages = listAppEntries().filter((e) => e.kind === "page" && e.guard?.kind !== "public");
const byRole = new Map<Role, string[]>();
for (const e of pages) {
  const roles: Role[] = EVERY_ROLE.has(e.path) ? [...ROLE_ORDER] : AS_ANNOTATOR.has(e.path) ? ["ANNOTATOR"] : [roleFor(e)];
  for (const r of roles) byRole.set(r, [...(byRole.get(r) ?? []), e.path]);
}

const checked: string[] = [];
const skipped: string[] = [];

/** Loads each URL, checks it loaded as itself (not the sign-in page, "forbidden" or an error), runs axe. */
async function checkPages(page: Page, who: string, urls: string[], opts: { status?: number } = {}): Promise<string[]> {
  const findings: string[] = [];
  for (const url of urls) {
    const res = await page.goto(url, { waitUntil: "load" });
    expect(res?.status(), `${url} as ${who}`).toBe(opts.status ?? 200);
    if (!opts.status) expect(new URL(page.url()).pathname, `${url} as ${who} stayed on its page`).toBe(new URL(url, "http://x").pathname);
    for (const f of await axeFindings(page)) findings.push(`${url} (${who}): ${f}`);
    checked.push(`${url} (${who})`);
  }
  return findings;
}

function report(findings: string[]) {
  for (const f of findings) console.log(`axe: ${f}`);
  expect(findings, "serious or critical axe violations").toEqual([]);
}

test("axe: the sign-in page and the 404, signed out and signed in", async ({ page }) => {
  const findings = await checkPages(page, "signed out", ["/signin"]);
  await signInAs(page, "RESEARCHER");
  findings.push(...(await checkPages(page, "researcher", ["/no-such-page-axe"], { status: 404 })));
  await expect(page.getByTestId("not-found")).toBeVisible();
  report(findings);
});

for (const role of ROLE_ORDER) {
  test(`axe: every page ${role.toLowerCase()} is checked as`, async ({ page }) => {
    test.setTimeout(300_000);
    await signInAs(page, role);
    // No playground session in the database yet: start one (the offline model plays it); the live
    // view is checked as it is while the episode runs.
    if (role === "RESEARCHER" && !ids.playground) {
      await page.goto("/playground");
      await page.getByTestId("case-filter").fill("official_1");
      await page.getByTestId("case-select").selectOption({ index: 0 });
      await expect(page.getByTestId("chosen-case")).toBeVisible();
      await page.getByTestId("run-episode").click();
      await expect(page).toHaveURL(/\/playground\/[^/]+$/);
      ids.playground = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    }
    // No episode run yet: create a small one (1 case; the worker plays it) for /runs/[id].
    if (role === "RESEARCHER" && !ids["run:EPISODES"]) {
      await page.goto("/runs/new");
      await page.getByTestId("run-name").fill(`axe: one case ${Date.now()}`);
      await page.getByTestId("cases-sample").check();
      await page.getByTestId("sample-size").fill("1");
      await page.getByTestId("create-run").click();
      await page.getByTestId("confirm-run").click();
      await expect(page).toHaveURL(/\/runs\/(?!new$)[^/]+$/);
      ids["run:EPISODES"] = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    }
    const unknown: string[] = [];
    const urls = (byRole.get(role) ?? []).flatMap((p) => {
      const u = urlsFor(p);
      if (u === null) unknown.push(`${p}: no id for this new page; add it to urlsFor in e2e/axe.spec.ts`);
      else if (!u.length) skipped.push(`${p} (nothing of the kind in the database)`);
      return u ?? [];
    });
    report([...unknown, ...(await checkPages(page, role.toLowerCase(), urls))]);
  });
}

test.afterAll(() => {
  console.log(`axe: ${checked.length} page loads checked${skipped.length ? `; skipped ${skipped.join(", ")}` : ""}`);
});
