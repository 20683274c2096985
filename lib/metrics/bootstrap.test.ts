import { describe, expect, it } from "vitest";
import { agreementIntervals } from "./agreement";
import { conditionalShares, logFactorial, multinomialChain, sampleBinomial, sampleMultinomialInto } from "./binomial";
import { bootstrap, bootstrapCounts, quantileSorted } from "./bootstrap";
import { confusionFromPairs, flattenCounts } from "./confusion";
import { cohenKappa, kappaEvaluator, kappaVariants } from "./kappa";
import { mulberry32, openUniform, type Rng } from "./rng";

/** Pearson χ² of `draws` samples against Binomial(n, p), tails pooled so every bin expects ≥ 5. */
function chiSquare(n: number, p: number, draws: number, seed: number): { stat: number; df: number; mean: number } {
  const rng = mulberry32(seed);
  const seen = new Map<number, number>();
  let sum = 0;
  for (let i = 0; i < draws; i++) {
    const x = sampleBinomial(rng, n, p);
    if (!Number.isInteger(x) || x < 0 || x > n) throw new Error(`out of range: ${x}`);
    seen.set(x, (seen.get(x) ?? 0) + 1);
    sum += x;
  }
  const pmf = (k: number) => Math.exp(logFactorial(n) - logFactorial(k) - logFactorial(n - k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
  let stat = 0;
  let bins = 0;
  let expAcc = 0;
  let obsAcc = 0;
  for (let k = 0; k <= n; k++) {
    expAcc += pmf(k) * draws;
    obsAcc += seen.get(k) ?? 0;
    if (expAcc >= 5 || k === n) {
      stat += (obsAcc - expAcc) ** 2 / Math.max(expAcc, 1e-300);
      bins++;
      expAcc = 0;
      obsAcc = 0;
    }
  }
  return { stat, df: bins - 1, mean: sum / draws };
}

describe("exact binomial sampling (the fast bootstrap's engine)", () => {
  it("log-factorial matches direct summation past the table", () => {
    let direct = 0;
    for (let k = 1; k <= 5000; k++) {
      direct += Math.log(k);
      if (k > 250) expect(Math.abs(logFactorial(k) - direct) / direct).toBeLessThan(1e-13);
    }
  });

  it.each([
    [5, 0.3], // inversion
    [40, 0.2], // inversion, n·p just under 10
    [100000, 0.00005], // inversion, large n and tiny p: a small pattern early in a multinomial chain
    [60, 0.2], // BTRS just over 10
    [1000, 0.3],
    [100000, 0.02],
    [50, 0.9], // mirrored
    [200, 0.5],
  ])("Binomial(%i, %f) passes a χ² goodness-of-fit test", (n, p) => {
    const { stat, df, mean } = chiSquare(n, p, 60000, n * 31 + Math.round(p * 1000));
    // χ² mean df, sd √(2df): 6 sd is far outside sampling noise, well inside any real bug.
    expect(stat).toBeLessThan(df + 6 * Math.sqrt(2 * df));
    expect(Math.abs(mean - n * p)).toBeLessThan(6 * Math.sqrt((n * p * (1 - p)) / 60000));
  });

  it("edge probabilities are exact", () => {
    const rng = mulberry32(1);
    expect(sampleBinomial(rng, 10, 0)).toBe(0);
    expect(sampleBinomial(rng, 10, 1)).toBe(10);
    expect(sampleBinomial(rng, 0, 0.5)).toBe(0);
  });

  it("multinomial draws keep the total and the expected shares", () => {
    const counts = [500, 0, 300, 150, 50];
    const chain = multinomialChain(counts);
    const out = new Float64Array(5);
    const rng = mulberry32(3);
    const mean = new Float64Array(5);
    for (let r = 0; r < 4000; r++) {
      sampleMultinomialInto(rng, 1000, chain, out);
      expect(out.reduce((a, b) => a + b, 0)).toBe(1000);
      expect(out[1]).toBe(0);
      out.forEach((x, k) => (mean[k]! += x / 4000));
    }
    counts.forEach((c, k) => expect(Math.abs(mean[k]! - c)).toBeLessThan(2));
  });
});

// The sampler as it was before its per-link constants were precomputed (issue 19), verbatim:
// seeded intervals already shown must not move, so the fast path has to draw exactly this.
function referenceBinomial(rng: Rng, n: number, p: number): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p > 0.5) return n - referenceBinomial(rng, n, 1 - p);
  if (n * p < 10) {
    const ratio = p / (1 - p);
    let pk = Math.exp(n * Math.log1p(-p));
    let u = openUniform(rng);
    let k = 0;
    while (u > pk && k < n) {
      u -= pk;
      k++;
      pk *= (ratio * (n - k + 1)) / k;
    }
    return k;
  }
  const q = 1 - p;
  const spq = Math.sqrt(n * p * q);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const alpha = (2.83 + 5.1 / b) * spq;
  const logOdds = Math.log(p / q);
  const mode = Math.floor((n + 1) * p);
  const logModeTerms = logFactorial(mode) + logFactorial(n - mode);
  for (;;) {
    const u = openUniform(rng) - 0.5;
    const v = openUniform(rng);
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && v <= vr) return k;
    const logV = Math.log((v * alpha) / (a / (us * us) + b));
    const logRatio = logModeTerms - logFactorial(k) - logFactorial(n - k) + (k - mode) * logOdds;
    if (logV <= logRatio) return k;
  }
}

function referenceMultinomial(rng: Rng, n: number, conditional: Float64Array, out: Float64Array): void {
  let remaining = n;
  for (let k = 0; k < conditional.length; k++) {
    const x = remaining === 0 ? 0 : referenceBinomial(rng, remaining, conditional[k]!);
    out[k] = x;
    remaining -= x;
  }
}

// bootstrapCounts' output for this case from the code before issue 19's precomputed chain.
const RECORDED = { method: "percentile", level: 0.95, seed: 42, resamples: 500, skipped: 0, lower: 4.682310924369748, upper: 4.908046218487395 };

describe("draws are those of the reference sampler, bit for bit", () => {
  it("binomial draws across inversion, BTRS and the mirror", () => {
    for (const [n, p] of [[7, 0.3], [100000, 0.00005], [40, 0.2], [60, 0.2], [300, 0.5], [1000, 0.7], [100000, 0.02], [250000, 0.4], [50, 0.9999]] as const) {
      const fast = mulberry32(n);
      const slow = mulberry32(n);
      let differ = 0;
      for (let i = 0; i < 3000; i++) if (!Object.is(sampleBinomial(fast, n, p), referenceBinomial(slow, n, p))) differ++;
      expect(differ).toBe(0);
    }
  });

  it("multinomial chains: heavy-tailed counts, zeros, shares past ½", () => {
    const rng = mulberry32(17);
    const shapes = [
      [500, 0, 300, 150, 50],
      [0, 0, 9, 0],
      [1, 1, 1, 1, 1, 1, 1, 1, 1, 3000],
      Array.from({ length: 2000 }, () => Math.max(1, Math.round(Math.min(3000, 1 / Math.pow(1 - rng(), 1.1))))),
    ];
    for (const counts of shapes) {
      const n = counts.reduce((a, b) => a + b, 0);
      const chain = multinomialChain(counts);
      const conditional = conditionalShares(counts);
      const fast = mulberry32(n);
      const slow = mulberry32(n);
      const got = new Float64Array(counts.length);
      const want = new Float64Array(counts.length);
      let differ = 0;
      for (let r = 0; r < 200; r++) {
        sampleMultinomialInto(fast, n, chain, got);
        referenceMultinomial(slow, n, conditional, want);
        for (let k = 0; k < counts.length; k++) if (!Object.is(got[k], want[k])) differ++;
      }
      expect(differ).toBe(0);
      expect(fast()).toBe(slow()); // the same number of uniforms used
    }
  });

  it("a bootstrap interval recorded before the change", () => {
    const counts = [120, 3, 0, 45, 7, 900, 1, 2, 60, 15, 4, 33];
    const mean = (r: Float64Array) => r.reduce((a, x, k) => a + x * k, 0) / r.reduce((a, x) => a + x, 0);
    expect(bootstrapCounts(counts, mean, { seed: 42, resamples: 500 })).toMatchObject(RECORDED);
  });
});

/** Correlated synthetic ratings: rater 2 = rater 1 ± noise. */
function syntheticPairs(n: number, seed: number): [number[], number[]] {
  const rng = mulberry32(seed);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = Math.floor(rng() * 4);
    const noise = rng() < 0.6 ? 0 : rng() < 0.5 ? -1 : 1;
    a.push(x);
    b.push(Math.min(3, Math.max(0, x + noise)));
  }
  return [a, b];
}

describe("bootstrap CIs", () => {
  const [r1, r2] = syntheticPairs(400, 99);
  const cm = confusionFromPairs(r1, r2);

  it("are deterministic for a fixed seed and change with it", () => {
    const a = agreementIntervals(cm, { seed: 123 });
    expect(agreementIntervals(cm, { seed: 123 })).toEqual(a);
    expect(agreementIntervals(cm, { seed: 124 }).linear).not.toEqual(a.linear);
    const items = r1.map((x, i) => [x, r2[i]!] as const);
    const stat = (s: readonly (readonly [number, number])[]) => s.reduce((acc, [x, y]) => acc + (x === y ? 1 : 0), 0) / s.length;
    expect(bootstrap(items, stat, { seed: 5 })).toEqual(bootstrap(items, stat, { seed: 5 }));
  });

  it("contain the point estimate, report the seed, level and resamples", () => {
    const point = kappaVariants(cm);
    const ci = agreementIntervals(cm, { seed: 1 });
    for (const v of ["categorical", "linear", "quadratic", "binarized"] as const) {
      const c = ci[v];
      if (c.undefined || point[v].undefined) throw new Error("undefined");
      expect(c.lower).toBeLessThan(point[v].value);
      expect(c.upper).toBeGreaterThan(point[v].value);
      expect(c).toMatchObject({ method: "percentile", level: 0.95, seed: 1, resamples: 1000, skipped: 0 });
    }
    const raw = ci.rawAgreement;
    if (raw.undefined) throw new Error(raw.reason);
    expect(raw.lower).toBeLessThan(0.6 + 0.1);
  });

  it("resampling counts agrees with resampling items (same distribution, different streams)", () => {
    const pairs = r1.map((x, i) => [x, r2[i]!] as const);
    const viaItems = bootstrap(pairs, (s) => cohenKappa(confusionFromPairs(s.map((p) => p[0]), s.map((p) => p[1])), "quadratic"), {
      seed: 8,
      resamples: 2000,
    });
    const viaCounts = bootstrapCounts(flattenCounts(cm), kappaEvaluator(4, "quadratic"), { seed: 8, resamples: 2000 });
    if (viaItems.undefined || viaCounts.undefined) throw new Error("undefined");
    expect(Math.abs(viaItems.lower - viaCounts.lower)).toBeLessThan(0.015);
    expect(Math.abs(viaItems.upper - viaCounts.upper)).toBeLessThan(0.015);
  });

  it("skip resamples where the statistic is undefined and say how many", () => {
    // Three items, two of them (0,0): about (2/3)³ ≈ 30% of resamples have one label only.
    const tiny = confusionFromPairs([0, 0, 1], [0, 0, 1]);
    const ci = agreementIntervals(tiny, { seed: 2 }).categorical;
    expect(ci.skipped).toBeGreaterThan(200);
    expect(ci.skipped).toBeLessThan(400);
    expect(ci.undefined).toBeUndefined();
    // K3b: κ undefined on every resample → an undefined interval, with a reason.
    const k3b = agreementIntervals(confusionFromPairs([2, 2, 2, 2], [2, 2, 2, 2]), { seed: 2 }).linear;
    expect(k3b).toMatchObject({ undefined: true, skipped: 1000 });
    expect(k3b.reason).toMatch(/undefined on all 1000 resamples/);
  });

  it("are undefined with no items, and refuse nonsense options", () => {
    expect(bootstrap([], () => 1, { seed: 1 })).toMatchObject({ undefined: true, reason: "no items to resample" });
    expect(agreementIntervals(confusionFromPairs([], []), { seed: 1 }).quadratic.undefined).toBe(true);
    expect(() => bootstrap([1], () => 1, { seed: 1, resamples: 0 })).toThrow(/resamples/);
    expect(() => bootstrap([1], () => 1, { seed: 1, level: 1 })).toThrow(/level/);
    expect(() => bootstrap([1], () => 1, { seed: 0.5 })).toThrow(/seed/);
  });

  it("percentiles interpolate linearly (type 7)", () => {
    const sorted = Float64Array.from([1, 2, 3, 4, 5]);
    expect(quantileSorted(sorted, 0)).toBe(1);
    expect(quantileSorted(sorted, 1)).toBe(5);
    expect(quantileSorted(sorted, 0.5)).toBe(3);
    expect(quantileSorted(sorted, 0.025)).toBeCloseTo(1.1, 12);
  });

  it("a generic mean CI is close to the normal approximation", () => {
    const rng = mulberry32(4);
    const xs = Array.from({ length: 2000 }, () => rng());
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const ci = bootstrap(xs, (s) => s.reduce((a, b) => a + b, 0) / s.length, { seed: 4 });
    if (ci.undefined) throw new Error(ci.reason);
    const halfWidth = 1.96 * Math.sqrt(1 / 12 / xs.length);
    expect(Math.abs(ci.lower - (mean - halfWidth))).toBeLessThan(0.003);
    expect(Math.abs(ci.upper - (mean + halfWidth))).toBeLessThan(0.003);
  });
});
