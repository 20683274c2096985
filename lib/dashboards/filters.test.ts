import { describe, expect, it } from "vitest";
import { DEFAULT_SEED, dashboardHref, dashboardQuery, parseDashboardFilter } from "./filters";
import { toCsv } from "./csv";

describe("dashboard filter in the URL", () => {
  it("parses leniently: bad values are dropped, the seed defaults", () => {
    expect(parseDashboardFilter({})).toEqual({ seed: DEFAULT_SEED });
    expect(parseDashboardFilter({ mode: "adversarial", kind: "helpfulness", seed: "7", agent: ["A", "B"], toolkit: "  " })).toEqual({
      mode: "ADVERSARIAL",
      kind: "HELPFULNESS",
      seed: 7,
      agent: "A",
    });
    expect(parseDashboardFilter({ mode: "SIDEWAYS", kind: "x", seed: "1.5" })).toEqual({ seed: DEFAULT_SEED });
    expect(parseDashboardFilter({ seed: "99999999999" }).seed).toBe(DEFAULT_SEED);
    expect(parseDashboardFilter(new URLSearchParams("evaluator=gpt-5-mini&evaluatorB=Qwen%2FQwen3-32B&campaign=c1&other=1"))).toEqual({
      evaluator: "gpt-5-mini",
      evaluatorB: "Qwen/Qwen3-32B",
      campaign: "c1",
      seed: DEFAULT_SEED,
    });
  });

  it("builds canonical URLs and round-trips", () => {
    const f = parseDashboardFilter({ agent: "Qwen/Qwen2.5-7B-Instruct", mode: "STANDARD", seed: "5" });
    expect(dashboardQuery(f)).toBe("?agent=Qwen%2FQwen2.5-7B-Instruct&mode=STANDARD&seed=5");
    expect(parseDashboardFilter(new URLSearchParams(dashboardQuery(f).slice(1)))).toEqual(f);
    expect(dashboardQuery({ seed: DEFAULT_SEED })).toBe("");
    expect(dashboardHref("/dashboards/agents", f, { mode: undefined, kind: "SAFETY" })).toBe("/dashboards/agents?agent=Qwen%2FQwen2.5-7B-Instruct&kind=SAFETY&seed=5");
  });
});

describe("CSV", () => {
  it("writes a header even without rows, and the union of keys otherwise", () => {
    expect(toCsv([], ["a", "b"])).toBe("a,b\r\n");
    expect(toCsv([{ a: 1 }, { b: "x,y", c: null }])).toBe('a,b,c\r\n1,,\r\n,"x,y",\r\n');
    expect(toCsv([{ a: "=cmd" }])).toBe("a\r\n'=cmd\r\n");
  });
});
