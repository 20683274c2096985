import { describe, expect, it } from "vitest";
import type { Estimate } from "./estimate";
import { leaveOneOutInterval, leaveOneOutKappa, pairwiseKappa, type AnnotatedItem } from "./human-agreement";
import { binarizedKappa } from "./kappa";
import { evaluatorVsMajority, majorityLabels, majorityVote } from "./majority";
import { rngFor, seedForKey } from "./rng";

function value(e: Estimate): number {
  if (e.undefined) throw new Error(`expected a value, got undefined: ${e.reason}`);
  return e.value;
}

describe("majority vote", () => {
  it("takes the most frequent label and ignores missing ratings", () => {
    expect(majorityVote([2, 3, 2, null, undefined], 1, "x")).toEqual({ label: 2, votes: 2, of: 3, tiedBetween: [] });
    expect(majorityVote([null, undefined], 1, "x")).toBeUndefined();
  });

  it("breaks a tie the same way for the same seed and item, whatever the rating order", () => {
    const first = majorityVote([0, 3, 1, 0, 3, 1], 42, "traj-17")!;
    expect(first.tiedBetween).toEqual([0, 1, 3]);
    for (const order of [[3, 1, 0, 3, 1, 0], [1, 1, 0, 0, 3, 3], [0, 0, 1, 1, 3, 3]]) {
      expect(majorityVote(order, 42, "traj-17")).toEqual(first);
    }
  });

  it("results per item do not depend on the order of the items", () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ key: `item-${i}`, ratings: [i % 4, (i + 1) % 4, i % 3 === 0 ? 2 : null] }));
    const forward = majorityLabels(items, 2024);
    const reversed = majorityLabels([...items].reverse(), 2024);
    expect([...reversed.labels].reverse()).toEqual(forward.labels);
    expect(reversed.ties).toBe(forward.ties);
    expect(forward.ties).toBeGreaterThan(0);
    // A different seed changes some tie-breaks, never a clear majority.
    const other = majorityLabels(items, 2025);
    expect(other.labels).not.toEqual(forward.labels);
    items.forEach((item, i) => {
      if (majorityVote(item.ratings, 2024, item.key)!.tiedBetween.length === 0) expect(other.labels[i]).toBe(forward.labels[i]);
    });
  });

  it("the tie-break is fair: each tied label wins about equally often", () => {
    const wins = new Map<number, number>();
    for (let i = 0; i < 4000; i++) {
      const label = majorityVote([0, 1], 9, `k${i}`)!.label;
      wins.set(label, (wins.get(label) ?? 0) + 1);
    }
    expect(wins.get(0)! / 4000).toBeGreaterThan(0.46);
    expect(wins.get(0)! / 4000).toBeLessThan(0.54);
  });

  it("binarizes before voting when asked: 1, 2, 3 is a tie on 0..3 but 'safe' when binarized", () => {
    expect(majorityVote([1, 2, 3], 5, "a")!.tiedBetween).toEqual([1, 2, 3]);
    expect(majorityLabels([{ key: "a", ratings: [1, 2, 3] }], 5, 2)).toEqual({ labels: [1], ties: 0, seed: 5 });
  });

  it("per-item generators are deterministic and differ between keys and seeds", () => {
    expect(rngFor(1, "a")()).toBe(rngFor(1, "a")());
    expect(seedForKey(1, "a")).not.toBe(seedForKey(1, "b"));
    expect(seedForKey(1, "a")).not.toBe(seedForKey(2, "a"));
    expect(() => seedForKey(1.5, "a")).toThrow(/integer/);
  });
});

// Four annotators, binary labels on the 0..3 scale; with three others there is never a tie.
const TABLE: [string, number, number, number, number][] = [
  ["t1", 1, 1, 1, 1],
  ["t2", 0, 0, 0, 0],
  ["t3", 1, 1, 1, 0],
  ["t4", 0, 0, 1, 0],
  ["t5", 1, 0, 1, 1],
  ["t6", 0, 0, 0, 1],
];
const ITEMS: AnnotatedItem[] = [
  ...TABLE.map(([key, A, B, C, D]) => ({ key, ratings: { A, B, C, D } })),
  { key: "t7", ratings: { A: 1, B: null } }, // nobody else labelled it: no leave-one-out pair
];

describe("leave-one-out human–human κ", () => {
  it("matches the hand computation: A 1, B 2/3, C 2/3, D 1/3, mean 2/3", () => {
    const loo = leaveOneOutKappa(ITEMS, { seed: 1 });
    expect(loo.perAnnotator.map((e) => e.annotator)).toEqual(["A", "B", "C", "D"]);
    const expected = [1, 2 / 3, 2 / 3, 1 / 3];
    loo.perAnnotator.forEach((e, i) => {
      expect(Math.abs(value(e.kappa) - expected[i]!)).toBeLessThan(1e-12);
      expect(e.kappa.n).toBe(6);
      expect(e.ties).toBe(0);
    });
    expect(Math.abs(value(loo.mean) - 2 / 3)).toBeLessThan(1e-12);
    expect(loo.mean.annotators).toBe(4);
    expect(loo.mean.excluded).toEqual([]);
  });

  it("binarized: same figures once 0/1 are spread over 0..1 and 2..3", () => {
    const spread = ITEMS.map((it, i) => ({
      key: it.key,
      ratings: Object.fromEntries(Object.entries(it.ratings).map(([a, r]) => [a, r == null ? r : r === 1 ? 2 + (i % 2) : i % 2])),
    }));
    const loo = leaveOneOutKappa(spread, { seed: 1, variant: "binarized" });
    expect(loo.variant).toBe("binarized");
    expect(Math.abs(value(loo.mean) - 2 / 3)).toBeLessThan(1e-12);
  });

  it("is deterministic for a seed when ties occur, and counts them", () => {
    const tied: AnnotatedItem[] = Array.from({ length: 30 }, (_, i) => ({
      key: `k${i}`,
      ratings: { A: i % 4, B: (i * 7) % 4, C: (i * 3 + 1) % 4 },
    }));
    const a = leaveOneOutKappa(tied, { seed: 3 });
    expect(leaveOneOutKappa([...tied].reverse(), { seed: 3 })).toEqual(a);
    expect(a.perAnnotator.some((e) => e.ties > 0)).toBe(true);
  });

  it("an annotator whose κ is undefined is excluded from the mean and named", () => {
    const items: AnnotatedItem[] = [
      { key: "a", ratings: { A: 2, B: 2, C: 2 } },
      { key: "b", ratings: { A: 2, B: 2, C: 0 } },
    ];
    const loo = leaveOneOutKappa(items, { seed: 1 });
    expect(loo.perAnnotator.find((e) => e.annotator === "A")!.kappa.undefined).toBe(true);
    expect(loo.mean.excluded).toContain("A");
  });

  it("bootstrap CI is seeded and brackets the mean", () => {
    const ci = leaveOneOutInterval(ITEMS, { seed: 11, resamples: 300 });
    expect(leaveOneOutInterval(ITEMS, { seed: 11, resamples: 300 })).toEqual(ci);
    if (ci.undefined) throw new Error(ci.reason);
    expect(ci.lower).toBeLessThanOrEqual(2 / 3);
    expect(ci.upper).toBeGreaterThanOrEqual(2 / 3);
  });
});

describe("pairwise κ matrix", () => {
  const m = pairwiseKappa(ITEMS, {});
  it("has κ and n per pair, symmetric, with the transposed confusion below the diagonal", () => {
    expect(m.annotators).toEqual(["A", "B", "C", "D"]);
    const ab = m.cells[0]![1]!;
    expect(Math.abs(value(ab.kappa) - 2 / 3)).toBeLessThan(1e-12);
    expect(ab.kappa.n).toBe(6);
    expect(ab.confusion.dropped).toBe(1); // t7: only A labelled it
    expect(m.cells[1]![0]!.kappa).toEqual(ab.kappa);
    expect(m.cells[1]![0]!.confusion.counts[0]![1]).toBe(ab.confusion.counts[1]![0]);
    expect(value(m.cells[2]![2]!.kappa)).toBe(1);
    expect(m.cells[0]![0]!.kappa.n).toBe(7);
  });
});

describe("evaluator vs human majority", () => {
  const items = [
    { key: "a", evaluator: 3, humans: [3, 3, 2] },
    { key: "b", evaluator: 0, humans: [0, 1, 0] },
    { key: "c", evaluator: 2, humans: [1, 2, 3] }, // 0..3: a three-way tie; binarized: 2 of 3 say safe
    { key: "d", evaluator: 1, humans: [null, null] }, // no human label: dropped
    { key: "e", evaluator: null, humans: [2, 2] }, // no evaluator score: dropped
  ];

  it("pairs the evaluator with the seeded majority and counts ties and drops", () => {
    const r = evaluatorVsMajority(items, { seed: 8 });
    expect(r.confusion.n).toBe(3);
    expect(r.confusion.dropped).toBe(2);
    expect(r.ties).toBe(1);
    expect(r.confusion.counts[3]![3]).toBe(1);
    expect(r.confusion.counts[0]![0]).toBe(1);
    expect(evaluatorVsMajority([...items].reverse(), { seed: 8 }).confusion.counts).toEqual(r.confusion.counts);
  });

  it("binarized scale votes on binarized ratings", () => {
    const r = evaluatorVsMajority(items, { seed: 8, scale: "binarized" });
    expect(r.ties).toBe(0);
    expect(r.confusion.labels).toEqual([0, 1]);
    expect(r.confusion.counts).toEqual([[1, 0], [0, 2]]);
    expect(binarizedKappa(r.confusion).value).toBe(1);
  });
});
