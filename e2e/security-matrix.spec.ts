// HTTP half of the security suite: every page and route handler under app/ (listed from the
// files, so a new one is walked without being added here) × signed out / annotator / researcher /
// PI / admin, each answer checked against the permission table. Server actions are covered by
// scripts/security-guards.test.ts (every export wrapped in withPermission).
import { expect, request as playwrightRequest, test, type APIResponse } from "@playwright/test";
import { can, ROLES, type Role } from "@/lib/auth/permissions";
import { listAppEntries, type AppEntry } from "@/lib/testing/app-routes";
import { apiSignedIn } from "./support/api-session";

type Outcome = "signin" | "forbidden" | "allowed";
type Who = Role | "SIGNED_OUT";

const entries = listAppEntries().filter((e) => e.kind !== "action");

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
    await ctx.dispose();
    console.log(`security matrix, ${who}: ${cells} cells (${tally.allowed} allowed, ${tally.forbidden} forbidden, ${tally.signin} sent to sign in)`);
    expect(mismatches).toEqual([]);
    expect(errors).toEqual([]);
  });
}
