// HTTP half of the security suite: every page, route handler and server action under app/
// (listed from the files, so a new one is walked without being added here) × signed out /
// annotator / researcher / PI / admin, each answer checked against the permission table. Actions
// are called as the browser calls them (POST with a Next-Action id from the build's manifest)
// with `null` as input: the guard decides on the role before it parses input, so an allowed role
// gets a 400 and nothing changes. scripts/security-guards.test.ts checks the same files statically.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, request as playwrightRequest, test, type APIResponse } from "@playwright/test";
import { can, ROLES, type Role } from "@/lib/auth/permissions";
import { listAppEntries, type AppEntry } from "@/lib/testing/app-routes";
import { apiSignedIn } from "./support/api-session";

type Outcome = "signin" | "forbidden" | "allowed";
type Who = Role | "SIGNED_OUT";

const all = listAppEntries();
const entries = all.filter((e) => e.kind !== "action");

interface ActionCell {
  id: string;
  file: string;
  name: string;
  /** A page that loads the action (its form posts there). */
  page: string;
  entry: AppEntry;
}

/** Server actions of the build the web server runs, joined with their files' guards. */
function builtActions(): ActionCell[] {
  const manifest = JSON.parse(readFileSync(path.join(".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { workers: Record<string, unknown>; filename?: string; exportedName?: string }>;
  };
  const cells: ActionCell[] = [];
  for (const [id, a] of Object.entries(manifest.node)) {
    const entry = all.find((e) => e.kind === "action" && e.file === a.filename);
    if (!entry || !a.exportedName) continue;
    // Prefer a page without dynamic segments: the action runs, then that page would render.
    const pages = Object.keys(a.workers).filter((w) => w.endsWith("/page")).map((w) => w.replace(/^app/, "").replace(/\/\([^/]+\)/g, "").replace(/\/page$/, "") || "/");
    const page = pages.find((p) => !p.includes("[")) ?? pages[0];
    if (page) cells.push({ id, file: a.filename!, name: a.exportedName, page: concrete(page), entry: { ...entry, guard: entry.exports!.find((x) => x.name === a.exportedName)?.guard ?? null } });
  }
  return cells;
}

/** What an action answered: the guard's ActionResult travels inside the RSC payload. */
async function actionOutcome(res: APIResponse): Promise<{ outcome: Outcome; detail: string }> {
  const status = res.status();
  const location = res.headers()["location"] ?? "";
  if (status >= 300 && status < 400) return { outcome: /\/signin\b/.test(location) ? "signin" : "allowed", detail: `${status} → ${location}` };
  const body = await res.text();
  const result = /"ok":(?:true|false)(?:,"status":(\d+))?/.exec(body);
  const detail = `${status} ${result?.[0] ?? body.slice(0, 120)}`;
  if (result?.[1] === "401") return { outcome: "signin", detail };
  if (result?.[1] === "403" && /may not do this/.test(body)) return { outcome: "forbidden", detail };
  return { outcome: "allowed", detail };
}

/** A concrete URL: dynamic segments get ids that exist nowhere (the guard runs before any lookup). */
function concrete(path: string): string {
  return path.replace(/\[\.\.\.nextauth\]/, "session").replace(/\[[^\]]+\]/g, "matrix-none");
}

function expected(e: AppEntry, who: Who): Outcome {
  const g = e.guard!;
  if (g.kind === "public") return "allowed";
  if (who === "SIGNED_OUT") return "signin";
  if (g.kind === "user") return "allowed";
  return can(who, g.permission) ? "allowed" : "forbidden";
}

/** What the app did: sent the caller to sign in, refused the role, or let it through. */
async function outcome(res: APIResponse): Promise<{ outcome: Outcome; detail: string }> {
  const status = res.status();
  const location = res.headers()["location"] ?? "";
  const body = status >= 300 && status < 400 ? "" : await res.text();
  const detail = `${status}${location ? ` → ${location}` : ""}`;
  if (status === 401) return { outcome: "signin", detail };
  if (status >= 300 && status < 400 && /\/signin\b/.test(location)) return { outcome: "signin", detail };
  if (status >= 300 && status < 400 && /\/forbidden\b/.test(location)) return { outcome: "forbidden", detail };
  if (status === 403 && /may not do this/.test(body)) return { outcome: "forbidden", detail };
  // A redirect thrown after the response started streaming (pages under a loading boundary).
  const streamed = /NEXT_REDIRECT;(?:replace|push);(\/(?:forbidden|signin)[^;"\\]*)/.exec(body);
  if (streamed) return { outcome: streamed[1]!.startsWith("/signin") ? "signin" : "forbidden", detail: `${detail} (streamed → ${streamed[1]})` };
  return { outcome: "allowed", detail };
}

const WHO: Who[] = ["SIGNED_OUT", ...[...ROLES].sort()];

test.describe.configure({ mode: "serial" });

for (const who of WHO) {
  test(`security matrix: ${who.toLowerCase().replace("_", " ")} on every page and route`, async ({ baseURL }) => {
    test.setTimeout(600_000);
    const ctx = who === "SIGNED_OUT" ? await playwrightRequest.newContext({ baseURL }) : await apiSignedIn(baseURL!, who);
    const origin = new URL(baseURL!).origin;
    const mismatches: string[] = [];
    const errors: string[] = [];
    let cells = 0;
    const tally: Record<Outcome, number> = { signin: 0, forbidden: 0, allowed: 0 };
    for (const e of entries) {
      for (const method of e.methods) {
        // next-auth's own POST endpoints need its CSRF dance; its GETs stand for the file.
        if (e.guard?.kind === "public" && method !== "GET") continue;
        const url = concrete(e.path);
        const res = await ctx.fetch(url, {
          method,
          maxRedirects: 0,
          headers: method === "GET" ? {} : { "content-type": "application/json", origin },
          data: method === "GET" ? undefined : "{}",
        });
        const got = await outcome(res);
        const want = expected(e, who);
        cells++;
        tally[got.outcome]++;
        if (got.outcome !== want) mismatches.push(`${method} ${url} (${e.file}): expected ${want}, got ${got.outcome} [${got.detail}]`);
        if (res.status() >= 500) errors.push(`${method} ${url}: ${got.detail}`);
      }
    }
    const actions = builtActions();
    expect(actions.length, "server actions found in .next/server/server-reference-manifest.json").toBeGreaterThan(20);
    for (const a of actions) {
      const res = await ctx.post(a.page, {
        maxRedirects: 0,
        headers: { "next-action": a.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin },
        data: JSON.stringify([null]),
      });
      const got = await actionOutcome(res);
      const want = expected(a.entry, who);
      cells++;
      tally[got.outcome]++;
      if (got.outcome !== want) mismatches.push(`action ${a.name} (${a.file}) via ${a.page}: expected ${want}, got ${got.outcome} [${got.detail}]`);
      if (res.status() >= 500) errors.push(`action ${a.name}: ${got.detail}`);
    }
    await ctx.dispose();
    console.log(`security matrix, ${who}: ${cells} cells (${tally.allowed} allowed, ${tally.forbidden} forbidden, ${tally.signin} sent to sign in)`);
    expect(mismatches).toEqual([]);
    expect(errors).toEqual([]);
  });
}
