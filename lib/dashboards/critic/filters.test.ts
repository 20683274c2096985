import { describe, expect, it } from "vitest";
import { DEFAULT_SEED } from "../filters";
import { criticFilterToSearchParams, criticHref, parseCriticFilter } from "./filters";

describe("critic dashboard filter", () => {
  it("defaults: τ 0.5, ERROR flags, ties excluded, the dashboards' seed", () => {
    expect(parseCriticFilter({})).toEqual({ tau: 0.5, errors: "flag", ties: "exclude", seed: DEFAULT_SEED });
    expect(criticHref(parseCriticFilter({}))).toBe("/dashboards/critic");
  });

  it("reads every field; bad values fall back instead of failing", () => {
    const f = parseCriticFilter({ method: "inferact", model: "m", run: "r1", source: "proxy:Qwen/Qwen3-32B", tau: "0.35", errors: "EXCLUDE", ties: "seeded", seed: "7", mode: "standard", agent: "a", toolkit: "k" });
    expect(f).toEqual({ method: "INFERACT", model: "m", run: "r1", source: "proxy:Qwen/Qwen3-32B", tau: 0.35, errors: "exclude", ties: "seeded", seed: 7, mode: "STANDARD", agent: "a", toolkit: "k" });
    expect(parseCriticFilter({ tau: "1.5" }).tau).toBe(0.5);
    expect(parseCriticFilter({ tau: "-0.1" }).tau).toBe(0.5);
    expect(parseCriticFilter({ tau: "1" }).tau).toBe(1);
    expect(parseCriticFilter({ errors: "ignore" }).errors).toBe("flag");
    expect(parseCriticFilter({ source: "evaluator:x" }).source).toBeUndefined();
    expect(parseCriticFilter({ method: "ORACLE" }).method).toBeUndefined();
  });

  it("round-trips through the URL, defaults left out; a patch with undefined removes a key", () => {
    const f = parseCriticFilter({ source: "human:c1", tau: "0.25", errors: "exclude", method: "STANDARD" });
    const p = criticFilterToSearchParams(f);
    expect(p.toString()).toBe("method=STANDARD&source=human%3Ac1&tau=0.25&errors=exclude");
    expect(parseCriticFilter(p)).toEqual(f);
    expect(criticHref(f, { method: undefined, tau: 0.5 })).toBe("/dashboards/critic?source=human%3Ac1&errors=exclude");
  });

  it("refuses bad bytes with a 400 naming the parameter", () => {
    expect(() => parseCriticFilter({ model: "a\u0000b" })).toThrow(/model/);
  });
});
