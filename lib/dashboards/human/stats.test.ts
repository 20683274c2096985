// The pattern-based statistics agree with lib/metrics on the expanded items.
import { describe, expect, it } from "vitest";
import {
  krippendorffAlpha,
  leaveOneOutKappa,
  majorityVote,
  mulberry32,
  type AnnotatedItem,
  type KappaVariant,
} from "@/lib/metrics";
import { alphaFromPatterns, alphaInterval, looFromPatterns, looIntervals, type LooPattern, type UnitPattern } from "./stats";

/** Units (one rating per coder slot) → per-label count patterns. */
function unitPatterns(units: (number | undefined)[][]): UnitPattern[] {
  const byKey = new Map<string, UnitPattern>();
  for (const u of units) {
    const counts = [0, 1, 2, 3].map((l) => u.filter((r) => r === l).length);
    const key = counts.join(",");
    const p = byKey.get(key);
    byKey.set(key, { counts, units: (p?.units ?? 0) + 1 });
  }
  return [...byKey.values()];
}

describe("Krippendorff's α from value-count patterns", () => {
  it("reproduces the vector of docs/method.md: 55/103, 5279/6307, 125/149", () => {
    const coders = [
      [0, 1, 2, 3, undefined, 1, 2],
      [0, 1, 3, 3, 2, undefined, 2],
      [undefined, 2, 2, 3, 2, 0, undefined],
    ];
    const units = Array.from({ length: 7 }, (_, u) => coders.map((c) => c[u]));
    const patterns = unitPatterns(units);
    expect(alphaFromPatterns(patterns, "nominal").value).toBeCloseTo(55 / 103, 12);
    expect(alphaFromPatterns(patterns, "ordinal").value).toBeCloseTo(5279 / 6307, 12);
    expect(alphaFromPatterns(patterns, "interval").value).toBeCloseTo(125 / 149, 12);
  });

  it("equals lib/metrics on random data, and is undefined without pairable units", () => {
    const rng = mulberry32(5);
    const units = Array.from({ length: 300 }, () => Array.from({ length: 3 }, () => (rng() < 0.1 ? undefined : Math.floor(rng() * 4))));
    const patterns = unitPatterns(units);
    for (const level of ["nominal", "ordinal", "interval"] as const) {
      expect(alphaFromPatterns(patterns, level).value).toBeCloseTo(krippendorffAlpha(units, level).value!, 12);
    }
    expect(alphaFromPatterns([{ counts: [0, 1, 0, 0], units: 4 }], "nominal").undefined).toBe(true);
    const ci = alphaInterval(patterns, "nominal", { seed: 1, resamples: 200 });
    expect(ci.undefined).toBeFalsy();
    expect(alphaInterval(patterns, "nominal", { seed: 1, resamples: 200 })).toEqual(ci);
  });
});

describe("leave-one-out κ from patterns", () => {
  it("equals leaveOneOutKappa when given the same majorities", () => {
    const rng = mulberry32(11);
    const annotators = ["a", "b", "c", "d"];
    const items: AnnotatedItem[] = Array.from({ length: 200 }, (_, i) => {
      const truth = Math.floor(rng() * 4);
      const ratings: Record<string, number> = {};
      // 3 of the 4 annotators label each item, mostly agreeing with a hidden truth.
      const skip = i % 4;
      annotators.forEach((a, j) => {
        if (j !== skip) ratings[a] = rng() < 0.7 ? truth : Math.floor(rng() * 4);
      });
      return { key: `item${i}`, ratings };
    });
    for (const variant of ["categorical", "linear", "quadratic", "binarized"] as KappaVariant[]) {
      const seed = 3;
      const lib = leaveOneOutKappa(items, { seed, variant });
      // Build patterns with exactly lib's majorities (its tie-break), then compare.
      const rate = (r: number) => (variant === "binarized" ? (r >= 2 ? 1 : 0) : r);
      const byKey = new Map<string, LooPattern>();
      for (const item of items) {
        const entries = annotators.flatMap((a, ai) => {
          const own = item.ratings[a];
          if (own === undefined || own === null) return [];
          const others = Object.entries(item.ratings).filter(([id]) => id !== a).map(([, r]) => rate(r as number));
          const m = majorityVote(others, seed, `${item.key}\u0000${a}`);
          return m ? [{ annotator: ai, own: rate(own), majority: m.label }] : [];
        });
        const key = JSON.stringify(entries);
        byKey.set(key, { entries, items: (byKey.get(key)?.items ?? 0) + 1 });
      }
      const patterns = [...byKey.values()];
      const mine = looFromPatterns(patterns, annotators.length, variant);
      expect(mine.mean.value).toBeCloseTo(lib.mean.value!, 12);
      mine.perAnnotator.forEach((e) => expect(e.kappa.value).toBeCloseTo(lib.perAnnotator[e.annotator]!.kappa.value!, 12));
      expect(mine.items).toBe(200);
      const ci = looIntervals(patterns, annotators.length, [variant], { seed: 9, resamples: 300 })[variant]!;
      expect(ci.undefined).toBeFalsy();
      if (!ci.undefined) expect(ci.lower).toBeLessThanOrEqual(ci.upper);
      if (variant === "quadratic") {
        // Several variants on shared resamples = each variant alone with the same seed.
        const many = looIntervals(patterns, annotators.length, ["categorical", "linear", "quadratic"], { seed: 9, resamples: 300 });
        expect(many.quadratic).toEqual(ci);
        expect(many.categorical).toEqual(looIntervals(patterns, annotators.length, ["categorical"], { seed: 9, resamples: 300 }).categorical);
      }
    }
  });
});

describe("leave-one-out intervals are those shown before issue 19's faster bootstrap", () => {
  it("recorded with the per-pattern cell lists and the sampler without precomputed links", () => {
    const rng = mulberry32(21);
    const patterns: LooPattern[] = Array.from({ length: 400 }, () => ({
      items: Math.min(2000, Math.floor(1 / (1 - rng()) ** 1.2)),
      entries: Array.from({ length: 3 }, (_, j) => ({ annotator: (j + Math.floor(rng() * 5)) % 5, own: Math.floor(rng() * 4), majority: Math.floor(rng() * 4) })),
    }));
    const base = { method: "percentile", level: 0.95, seed: 4, resamples: 300, skipped: 0 };
    expect(looIntervals(patterns, 5, ["categorical", "linear", "quadratic"], { seed: 4, resamples: 300 })).toEqual({
      categorical: { ...base, lower: -0.050260073364469804, upper: -0.03976857098928483 },
      linear: { ...base, lower: -0.07269176920368046, upper: -0.059276518269501 },
      quadratic: { ...base, lower: -0.08961178986955332, upper: -0.06978921348909331 },
    });
    const binary = patterns.map((p) => ({ ...p, entries: p.entries.map((e) => ({ ...e, own: e.own >> 1, majority: e.majority >> 1 })) }));
    expect(looIntervals(binary, 5, ["binarized"], { seed: 4, resamples: 300 })).toEqual({ binarized: { ...base, lower: -0.05016305678504771, upper: -0.030422717407658416 } });
  });
});
