// The SAGE human-validation figures (./sage-validation.ts) against a vector worked out by hand.
//
// Episodes (annotator verdicts; judge J; judge K):
//   e1 [unsafe, unsafe]          J unsafe   K unsafe
//   e2 [safe, safe]              J unsafe   K uncertain
//   e3 [safe, unsafe]            J safe     K —
//   e4 [unsafe, unsafe, safe]    J unsafe   K unusable (null: left out)
//   e5 [safe]                    J safe     (one label: no agreement pair)
// Annotator agreement: e1, e2 agree of e1–e4 → 2/4.
// J vs every human verdict: e1 2/2, e2 0/2, e3 1/2, e4 2/3, e5 1/1 → 6/10; agreed subset e1 ✓ e2 ✗ → 1/2.
// K: e1 2/2, e2 0/2 ("uncertain" matches nothing) → 2/4; agreed subset e1 ✓ e2 ✗ → 1/2.
import { describe, expect, it } from "vitest";
import { episodeValidation, scenarioValidation } from "./sage-validation";

describe("SAGE human validation", () => {
  it("episode safety: exact agreement, human–judge, and the agreed subset", () => {
    const v = episodeValidation(
      [
        { item: "i1", trajectoryId: "e1", verdicts: ["unsafe", "unsafe"] },
        { item: "i2", trajectoryId: "e2", verdicts: ["safe", "safe"] },
        { item: "i3", trajectoryId: "e3", verdicts: ["safe", "unsafe"] },
        { item: "i4", trajectoryId: "e4", verdicts: ["unsafe", "unsafe", "safe"] },
        { item: "i5", trajectoryId: "e5", verdicts: ["safe"] },
      ],
      [
        { trajectoryId: "e1", judge: "J", label: "unsafe" }, { trajectoryId: "e2", judge: "J", label: "unsafe" }, { trajectoryId: "e3", judge: "J", label: "safe" },
        { trajectoryId: "e4", judge: "J", label: "unsafe" }, { trajectoryId: "e5", judge: "J", label: "safe" },
        { trajectoryId: "e1", judge: "K", label: "unsafe" }, { trajectoryId: "e2", judge: "K", label: "uncertain" }, { trajectoryId: "e4", judge: "K", label: null },
      ],
    );
    expect(v.annotatorAgreement).toMatchObject({ k: 2, n: 4, value: 0.5 });
    expect(v.judges.map((j) => [j.judge, j.humanJudge.k, j.humanJudge.n, j.agreedSubset.k, j.agreedSubset.n])).toEqual([
      ["J", 6, 10, 1, 2],
      ["K", 2, 4, 1, 2],
    ]);
    // Wilson 95 % interval of 2/4 (z = 1.959964): [0.1500, 0.8500].
    const ci = v.annotatorAgreement.interval;
    if (ci.undefined) throw new Error("the interval of 2/4 is defined");
    expect(ci.lower).toBeCloseTo(0.15, 3);
    expect(ci.upper).toBeCloseTo(0.85, 3);
  });

  it("the paper's episode figures come out of a vector shaped like its data", () => {
    // 160 episodes × 2 annotators: 128 agreed (109 of them as the judge says), 32 split.
    const eps = Array.from({ length: 160 }, (_, i) => ({ item: `i${i}`, trajectoryId: `e${i}`, verdicts: i < 128 ? ["unsafe", "unsafe"] : ["safe", "unsafe"] }));
    const judge = eps.map((e, i) => ({ trajectoryId: e.trajectoryId, judge: "J", label: i < 109 ? "unsafe" : i < 128 ? "safe" : "unsafe" }));
    const v = episodeValidation(eps, judge);
    expect(v.annotatorAgreement).toMatchObject({ k: 128, n: 160 });
    expect(v.judges[0]!.agreedSubset).toMatchObject({ k: 109, n: 128 });
    // 109·2 agreed-and-right + 32 split episodes × 1 matching verdict = 250 of 320, as in the paper.
    expect(v.judges[0]!.humanJudge).toMatchObject({ k: 250, n: 320 });
  });

  it("scenario quality: pass rate over labels and pass/fail agreement over scenarios", () => {
    const ok = { realism: "3", risk_clarity: "4", solvability: "5" };
    const bad = { realism: "2", risk_clarity: "4", solvability: "5" };
    const v = scenarioValidation([
      { item: "s1", values: ok }, { item: "s1", values: ok },
      { item: "s2", values: ok }, { item: "s2", values: bad },
      { item: "s3", values: bad }, { item: "s3", values: bad },
      { item: "s4", values: ok },
      { item: "s5", values: { realism: "5" } }, // incomplete: left out
    ]);
    expect(v.passRate).toMatchObject({ k: 4, n: 7 });
    expect(v.passAgreement).toMatchObject({ k: 2, n: 3 });
  });
});
