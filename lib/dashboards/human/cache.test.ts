// The per-campaign-version cache of the human-label panels: a repeated request is served from the
// cache, and anything that changes the numbers — a newly submitted label, a revised label, a
// re-imported evaluator score — is seen by the next request (no stale panel). Every cached result
// is compared with a fresh, uncached computation on the same rows.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { seedLabelCampaign } from "@/lib/testing/label-campaign";
import { claimNext, submitLabel } from "@/lib/annotation/assignments";
import { DEFAULT_SEED, type DashboardFilter } from "../filters";
import { clearPanelCache } from "./cache";
import { emulatorQualityCached, emulatorQualityReport } from "./emulator-quality";
import { evaluatorVsHuman, evaluatorVsHumanCached } from "./evaluator-vs-human";
import { failureReport, failureReportCached } from "./failures";
import { humanAgreement, humanAgreementCached } from "./human-vs-human";
import { resolveHumanScope, type HumanScope } from "./scope";

const N = 6;
const SAFETY = ["certain_no_risk", "possible_mild_risk", "likely_mild_risk", "likely_severe_risk"];
const HELP = ["excellent", "good", "unsatisfactory", "poor"];
const RESAMPLES = 200;

let t: TestDatabase;
let campaignId: string;
const users = ["cache_a", "cache_b", "cache_c"];

/**
 * Annotators 0 and 2 answer alike, annotator 1 differently on every field that is voted on: with
 * two labels every item ties (the seeded tie-break decides), the third label settles it — so a
 * label of annotator 2 always changes the numbers (fewer ties, other majorities).
 */
function values(user: number, item: number, shift = 0) {
  const b = user === 1 ? 1 : 0;
  return {
    safety: SAFETY[(item + b + shift) % 4]!,
    helpfulness: HELP[(item * 2 + b + shift) % 4]!,
    emulator_input_validation: "none",
    emulator_realism: (item + b) % 2 === 0 ? "critical" : "none",
    emulator_consistency: "minor",
    true_failure: (item + b + shift) % 2 === 0,
    comment: "",
  };
}

/** Claims and submits `count` items (all that are left when omitted) as annotator `u`. */
async function label(u: number, count = Infinity): Promise<{ assignmentId: string; itemId: string }[]> {
  const done: { assignmentId: string; itemId: string }[] = [];
  while (done.length < count) {
    const claim = await claimNext(t.prisma, campaignId, users[u]!);
    if (!claim) break;
    const i = Number(claim.itemId.replace("it_cache_", ""));
    expect((await submitLabel(t.prisma, users[u]!, claim.assignmentId, values(u, i), 1000)).status).toBe("submitted");
    done.push(claim);
  }
  return done;
}

async function scopeFor(filter: Partial<DashboardFilter> = {}): Promise<HumanScope> {
  const r = await resolveHumanScope(t.prisma, { campaign: campaignId, evaluator: "cache-judge", seed: DEFAULT_SEED, ...filter });
  if (!r.scope) throw new Error(`no scope: ${r.missing}`);
  return r.scope;
}

/** The numbers without what differs between two computations of the same numbers. */
function numbers<T extends { timings: unknown }>(r: T): Omit<T, "timings" | "cache"> {
  const { timings: _t, cache: _c, ...rest } = r as T & { cache?: unknown };
  return rest;
}

beforeAll(async () => {
  t = await createTestDatabase();
  campaignId = await seedLabelCampaign(t, {
    prefix: "cache",
    n: N,
    annotators: users,
    evaluator: { model: "cache-judge", safety: (i) => (i * 3) % 4, helpfulness: (i) => (i + 1) % 4 },
    alternateModes: true,
  });
  // Two full rounds of labels; the third annotator labels later, in the tests.
  await label(0);
  await label(1);
});
afterAll(() => t.cleanup());
beforeEach(() => clearPanelCache());

describe("the panel cache", () => {
  it("serves a repeated request from the cache, and a newly submitted label changes the next result", async () => {
    const scope = await scopeFor();
    const first = await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES });
    expect(first.cache.status).toBe("miss");
    expect(numbers(first)).toEqual(numbers(await evaluatorVsHuman(t.prisma, scope, { resamples: RESAMPLES })));
    const second = await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES });
    expect(second.cache.status).toBe("hit");
    expect(second.cache.computedAt).toEqual(first.cache.computedAt);
    expect(numbers(second)).toEqual(numbers(first));

    // One more label, through the ordinary claim and submit: item 0 now has 3 votes.
    const [submitted] = await label(2, 1);
    expect(submitted).toBeDefined();
    const third = await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES });
    expect(third.cache.status).toBe("miss");
    const fresh = await evaluatorVsHuman(t.prisma, scope, { resamples: RESAMPLES });
    expect(numbers(third)).toEqual(numbers(fresh));
    // The new vote changed the numbers (the test would prove nothing otherwise).
    expect(numbers(third)).not.toEqual(numbers(first));
    expect((await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES })).cache.status).toBe("hit");
  });

  it("a revised label (same number of labels) changes the next result", async () => {
    const scope = await scopeFor();
    const before = await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES });
    expect((await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES })).cache.status).toBe("hit");
    const mine = await t.prisma.assignment.findMany({ where: { campaignId, annotatorId: users[0], status: "SUBMITTED" }, orderBy: { itemId: "asc" } });
    for (const a of mine.slice(0, 3)) {
      const i = Number(a.itemId.replace("it_cache_", ""));
      expect((await submitLabel(t.prisma, users[0]!, a.id, values(0, i, 1), 1000)).status).toBe("revised");
    }
    const after = await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES });
    expect(after.cache.status).toBe("miss");
    expect(numbers(after)).toEqual(numbers(await evaluatorVsHuman(t.prisma, scope, { resamples: RESAMPLES })));
    expect(numbers(after)).not.toEqual(numbers(before));
  });

  it("a changed or newly imported evaluator score changes the next result", async () => {
    const scope = await scopeFor();
    const before = await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES });
    expect((await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES })).cache.status).toBe("hit");
    // What a re-import does (lib/toolemu/apply.ts): update the row in place.
    const e = await t.prisma.evaluation.findFirstOrThrow({ where: { trajectoryId: "cache_t_1", kind: "SAFETY", evaluatorModel: "cache-judge" } });
    await t.prisma.evaluation.update({ where: { id: e.id }, data: { score: (e.score! + 2) % 4 } });
    const after = await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES });
    expect(after.cache.status).toBe("miss");
    expect(numbers(after)).toEqual(numbers(await evaluatorVsHuman(t.prisma, scope, { resamples: RESAMPLES })));
    expect(numbers(after)).not.toEqual(numbers(before));
    // Another evaluator's scores are not this panel's input: still a hit.
    await t.prisma.evaluation.create({ data: { trajectoryId: "cache_t_1", kind: "SAFETY", evaluatorModel: "other-judge", score: 0, raw: {} } });
    expect((await evaluatorVsHumanCached(t.prisma, scope, { resamples: RESAMPLES })).cache.status).toBe("hit");
  });

  it("keys on the filter, seed and resamples", async () => {
    const all = await evaluatorVsHumanCached(t.prisma, await scopeFor(), { resamples: RESAMPLES });
    const std = await evaluatorVsHumanCached(t.prisma, await scopeFor({ mode: "STANDARD" }), { resamples: RESAMPLES });
    const seeded = await evaluatorVsHumanCached(t.prisma, await scopeFor({ seed: 7 }), { resamples: RESAMPLES });
    const more = await evaluatorVsHumanCached(t.prisma, await scopeFor(), { resamples: RESAMPLES + 1 });
    expect([all, std, seeded, more].map((r) => r.cache.status)).toEqual(["miss", "miss", "miss", "miss"]);
    expect(std.safety.score.n).toBeLessThan(all.safety.score.n);
    expect(seeded.seed).toBe(7);
    expect(numbers(std)).toEqual(numbers(await evaluatorVsHuman(t.prisma, await scopeFor({ mode: "STANDARD" }), { resamples: RESAMPLES })));
  });

  it("human vs human, failures and emulator quality: hit, then recomputed after a submit; names are read fresh", async () => {
    const scope = await scopeFor();
    const panels = [
      { cached: () => humanAgreementCached(t.prisma, scope, { resamples: RESAMPLES }), fresh: () => humanAgreement(t.prisma, scope, { resamples: RESAMPLES }) },
      { cached: () => failureReportCached(t.prisma, scope), fresh: () => failureReport(t.prisma, scope) },
      { cached: () => emulatorQualityCached(t.prisma, scope), fresh: () => emulatorQualityReport(t.prisma, scope) },
    ];
    const before = [];
    for (const p of panels) {
      const r = await p.cached();
      expect(r.cache.status).toBe("miss");
      expect((await p.cached()).cache.status).toBe("hit");
      before.push(numbers(r));
    }
    await t.prisma.user.update({ where: { id: users[1] }, data: { name: "Renamed annotator" } });
    const renamed = await humanAgreementCached(t.prisma, scope, { resamples: RESAMPLES });
    expect(renamed.cache.status).toBe("hit");
    expect(renamed.annotators.map((a) => a.name)).toContain("Renamed annotator");

    expect(await label(2, 1)).toHaveLength(1);
    for (const [i, p] of panels.entries()) {
      const r = await p.cached();
      expect(r.cache.status).toBe("miss");
      expect(numbers(r)).toEqual(numbers(await p.fresh()));
      expect(numbers(r)).not.toEqual(before[i]);
    }
  });
});
