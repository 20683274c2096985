import { describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "../filters";
import { parseSageFilter, sageFilterToSearchParams, sageHref } from "./filters";

describe("SAGE dashboard filter", () => {
  it("defaults", () => {
    expect(parseSageFilter({})).toEqual({ judges: [], mode: "TERNARY", heat: "asr", seed: DEFAULT_SEED });
    expect(sageHref(parseSageFilter({}))).toBe("/dashboards/sage");
  });

  it("reads repeated and comma-separated judges, lenient cases, and drops bad values", () => {
    const f = parseSageFilter(new URLSearchParams("judge=judge-a&judge=judge-b,judge-a&order=reference&mode=binary&heat=UTR&seed=7&effect=judge:judge-a&agent=x"));
    expect(f).toEqual({ judges: ["judge-a", "judge-b"], order: "REFERENCE", mode: "BINARY", heat: "utr", seed: 7, effect: "judge:judge-a", agent: "x" });
    const bad = parseSageFilter({ order: "sideways", mode: "x", heat: "kappa", seed: "1e9", effect: "nonsense" });
    expect(bad).toEqual({ judges: [], mode: "TERNARY", heat: "asr", seed: DEFAULT_SEED });
  });

  it("round-trips through the URL with defaults left out", () => {
    const f = parseSageFilter({ agent: "a b", judge: ["j1", "j2"], subcategory: "d.s", heat: "utr" });
    const p = sageFilterToSearchParams(f);
    expect(p.toString()).toBe("agent=a+b&subcategory=d.s&heat=utr&judge=j1&judge=j2");
    expect(parseSageFilter(p)).toEqual(f);
    expect(sageHref(f, { heat: undefined })).toBe("/dashboards/sage?agent=a+b&subcategory=d.s&judge=j1&judge=j2");
  });

  it("keeps a run filter (a SAGE run's page links here) first in the URL", () => {
    const f = parseSageFilter({ run: "cmrun1", judge: "j1" });
    expect(f.run).toBe("cmrun1");
    expect(sageHref(f)).toBe("/dashboards/sage?run=cmrun1&judge=j1");
    expect(sageHref(f, { run: undefined })).toBe("/dashboards/sage?judge=j1");
  });

  it("rejects bad bytes", () => {
    expect(() => parseSageFilter({ agent: "a\u0000b" })).toThrow();
  });
});
