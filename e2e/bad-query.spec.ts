// Bad bytes in query parameters (issue 12, item 9): exports and dashboard CSVs answer 400 naming
// the parameter before streaming anything, instead of a 500 or a download cut mid-way.
import { expect, test } from "@playwright/test";
import { apiSignedIn } from "./support/api-session";

test("exports and CSVs refuse NUL bytes and invalid UTF-8 in filter parameters with a 400 naming the parameter", async ({ baseURL }) => {
  const ctx = await apiSignedIn(baseURL!, "RESEARCHER");
  const cases: [string, string, string][] = [
    ["/trajectories/export?format=csv&agent=a%00b", "agent", "contains a NUL byte (%00)"],
    ["/trajectories/export?format=jsonl&case=%FF%FE", "case", "is not valid UTF-8 text"],
    ["/dashboards/csv?panel=agents&evaluator=%C3%28", "evaluator", "is not valid UTF-8 text"],
    ["/dashboards/csv?panel=evaluators&toolkit=x%00", "toolkit", "contains a NUL byte (%00)"],
  ];
  for (const [url, param, problem] of cases) {
    const res = await ctx.get(url);
    expect(res.status(), url).toBe(400);
    expect(res.headers()["content-type"], url).toContain("application/json");
    expect(((await res.json()) as { error: string }).error, url).toBe(`Query parameter "${param}" ${problem}; remove it from the URL or retype the value.`);
  }
  // Clean values still download.
  const ok = await ctx.get("/trajectories/export?format=csv&agent=Qwen%2FQwen2.5-7B-Instruct");
  expect(ok.status()).toBe(200);
  expect((await ok.text()).split("\r\n")[0]).toMatch(/^id,case,agent,/);
  // Pages too: the proxy answers before the page renders (a page cannot answer 400 itself).
  for (const [url, param] of [["/trajectories?agent=a%00b", "agent"], ["/dashboards/agents?evaluator=%FF", "evaluator"], ["/cases?q=%00", "q"]]) {
    const res = await ctx.get(url!, { maxRedirects: 0 });
    expect(res.status(), url).toBe(400);
    expect(((await res.json()) as { error: string }).error, url).toContain(`Query parameter "${param}"`);
  }
  expect((await ctx.get("/trajectories?agent=Qwen%2FQwen2.5-7B-Instruct", { maxRedirects: 0 })).status()).toBe(200);
  await ctx.dispose();
});
