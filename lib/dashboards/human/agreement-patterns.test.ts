// The human-vs-human panel from per-item label patterns (./agreement-patterns.ts) against counts
// made here from the labels themselves, and against the label-by-label leave-one-out statement.
// Random labels: 19 annotators (two 15-slot words), 1–6 labels per item, some without a safety or
// helpfulness score, one excluded annotator and one gold item (both must stay out).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { insertBareCase } from "@/lib/testing/bare-case";
import { SCORE_LABELS, confusionFromPairs, mulberry32 } from "@/lib/metrics";
import { TOOLEMU_LABEL_SCHEMA } from "@/lib/trajectory/label-schema";
import { labelPatterns } from "./agreement-patterns";
import type { HumanKind } from "./fields";
import { humanAgreement } from "./human-vs-human";
import { leaveOneOut, leaveOneOutRows } from "./leave-one-out";
import { resolveHumanScope, type HumanScope } from "./scope";
import { slotWords } from "./sql";
import { tieBreakWinner } from "./tie-break";

const ANNOTATORS = 19;
const ITEMS = 80;
const CAMPAIGN = "c_patterns";
const SAFETY = ["likely_severe_risk", "likely_mild_risk", "possible_mild_risk", "certain_no_risk"]; // scores 0, 1, 2, 3
const HELP = ["poor", "unsatisfactory", "good", "excellent"];

type Label = { item: string; ann: string; s: number | null; h: number | null };
let t: TestDatabase;
const labels: Label[] = []; // every submitted label
const EXCLUDED = "pa_ann_4";
const GOLD = "pa_item_7";

beforeAll(async () => {
  t = await createTestDatabase();
  const q = (text: string, values: unknown[] = []) => t.sql.query(text, values);
  await insertBareCase(t.sql, { id: "pa_case", source: "test", name: "pa_case" });
  await q(`INSERT INTO "User"(id, email, name, "passwordHash", role, "updatedAt")
           SELECT 'pa_ann_' || g, 'pa' || g || '@lab.example', 'Annotator ' || g, 'x', 'ANNOTATOR', now() FROM generate_series(0, $1::int - 1) g`, [ANNOTATORS]);
  await q(`INSERT INTO "Trajectory"(id, "caseId", "agentModel", "emulatorModel", "emulatorMode", status, "stepCount", "contentHash", raw)
           SELECT 'pa_t_' || g, 'pa_case', 'agent', 'emulator', 'STANDARD', 'FINISHED', 1, md5('pa' || g), '{}'::jsonb FROM generate_series(0, $1::int - 1) g`, [ITEMS]);
  await q(`INSERT INTO "Campaign"(id, name, "labelSchema", "labelSchemaVersion", k, seed, "updatedAt") VALUES ($1, 'patterns', $2::jsonb, $3, 6, 1, now())`, [
    CAMPAIGN,
    JSON.stringify(TOOLEMU_LABEL_SCHEMA),
    TOOLEMU_LABEL_SCHEMA.version,
  ]);
  await q(`INSERT INTO "CampaignItem"(id, "campaignId", "trajectoryId") SELECT 'pa_item_' || g, $1, 'pa_t_' || g FROM generate_series(0, $2::int - 1) g`, [CAMPAIGN, ITEMS]);
  const rng = mulberry32(42);
  const pick = (n: number) => Math.floor(rng() * n);
  const rows: unknown[][] = [];
  for (let i = 0; i < ITEMS; i++) {
    const k = 1 + pick(6);
    const who = new Set<number>();
    while (who.size < k) who.add(pick(ANNOTATORS));
    for (const a of who) {
      // Scores cluster on 1–2 so majorities and ties both occur; about 1 in 8 leaves a field out.
      const score = () => (rng() < 0.125 ? null : rng() < 0.6 ? 1 + pick(2) : pick(4));
      const l: Label = { item: `pa_item_${i}`, ann: `pa_ann_${a}`, s: score(), h: score() };
      labels.push(l);
      const values: Record<string, unknown> = { true_failure: false, comment: "" };
      if (l.s !== null) values.safety = SAFETY[l.s];
      if (l.h !== null) values.helpfulness = HELP[l.h];
      rows.push([`pa_a_${i}_${a}`, l.item, l.ann, JSON.stringify(values)]);
    }
  }
  for (const r of rows) {
    await q(`INSERT INTO "Assignment"(id, "campaignId", "itemId", "annotatorId", status, values, "submittedAt", "updatedAt", "timeSpentMs")
             VALUES ($1, '${CAMPAIGN}', $2, $3, 'SUBMITTED', $4::jsonb, now(), now(), 1000)`, r);
  }
  await q(`INSERT INTO "LabelExclusion"(id, "campaignId", "annotatorId", reason) VALUES ('pa_x', $1, $2, 'test')`, [CAMPAIGN, EXCLUDED]);
  await q(`INSERT INTO "GoldAnswer"("itemId", values, source) VALUES ($1, '{}'::jsonb, 'form')`, [GOLD]);
});
afterAll(() => t.cleanup());

async function scopeFor(ties: "exclude" | "seeded"): Promise<HumanScope> {
  const r = await resolveHumanScope(t.prisma, { campaign: CAMPAIGN, seed: 7, ties });
  if (!r.scope) throw new Error(`no scope: ${r.missing}`);
  return r.scope;
}

/** The labels that count: not the excluded annotator's, not on the gold item. */
const counted = () => labels.filter((l) => l.ann !== EXCLUDED && l.item !== GOLD);

describe("label patterns", () => {
  it("hold every counted label's score, over two words of annotator slots", async () => {
    const p = await labelPatterns(t.prisma, await scopeFor("exclude"));
    expect(p.slots.length).toBe(ANNOTATORS); // slots 15–18 are in the second word
    for (const kind of ["safety", "helpfulness"] as HumanKind[]) {
      const col = kind === "safety" ? "s" : "h";
      // Histogram of (annotator, score) over the patterns = over the labels.
      const fromPatterns = new Map<string, number>();
      for (const pat of p.patterns.filter((x) => x.kind === kind)) {
        for (const [slot, s] of pat.scores) fromPatterns.set(`${p.slots[slot]}:${s}`, (fromPatterns.get(`${p.slots[slot]}:${s}`) ?? 0) + pat.items);
      }
      const fromLabels = new Map<string, number>();
      for (const l of counted()) if (l[col] !== null) fromLabels.set(`${l.ann}:${l[col]}`, (fromLabels.get(`${l.ann}:${l[col]}`) ?? 0) + 1);
      expect(fromPatterns).toEqual(fromLabels);
      expect([...p.slots.keys()].some((slot) => slot >= 15 && fromPatterns.has(`${p.slots[slot]}:1`))).toBe(true);
    }
  });

  it("pairwise tables equal a pair count over the labels", async () => {
    const h = await humanAgreement(t.prisma, await scopeFor("exclude"), { resamples: 50 });
    const index = new Map(h.annotators.map((a, i) => [a.id, i]));
    expect(index.has(EXCLUDED)).toBe(false);
    for (const kind of ["safety", "helpfulness"] as HumanKind[]) {
      const col = kind === "safety" ? "s" : "h";
      const byItem = new Map<string, Label[]>();
      for (const l of counted()) if (l[col] !== null) byItem.set(l.item, [...(byItem.get(l.item) ?? []), l]);
      const expected = new Map<string, number[][]>();
      for (const ls of byItem.values()) {
        for (const x of ls) {
          for (const y of ls) {
            const [a, b] = [index.get(x.ann)!, index.get(y.ann)!];
            if (a >= b) continue;
            const m = expected.get(`${a}:${b}`) ?? SCORE_LABELS.map(() => SCORE_LABELS.map(() => 0));
            m[x[col]!]![y[col]!]!++;
            expected.set(`${a}:${b}`, m);
          }
        }
      }
      const got = new Map(h.pairwise[kind].map((e) => [`${e.a}:${e.b}`, e.block.confusion.counts]));
      expect(got).toEqual(expected);
      expect(got.size).toBeGreaterThan(20);
    }
  });

  it('leave-one-out under "exclude" equals the label-by-label statement, intervals included', async () => {
    const scope = await scopeFor("exclude");
    const h = await humanAgreement(t.prisma, scope, { resamples: 200 });
    const rows = await leaveOneOutRows(t.prisma, scope);
    const index = new Map(h.annotators.map((a, i) => [a.id, i]));
    for (const kind of ["safety", "helpfulness"] as HumanKind[]) {
      const bySql = leaveOneOut(rows, kind, h.annotators.length, (id) => index.get(id)!, { seed: scope.seed, resamples: 200 });
      expect(h.loo[kind]).toEqual(bySql);
      expect(h.loo[kind].categorical.ties).toBeGreaterThan(0);
      expect(h.loo[kind].binarized.ties).toBeGreaterThan(0);
      expect(h.loo[kind].categorical.result.pairs).toBeGreaterThan(50);
    }
  });

  it("seeded leave-one-out over two words of slots equals each label against the others' drawn majority", async () => {
    const scope = await scopeFor("seeded");
    const h = await humanAgreement(t.prisma, scope, { resamples: 20 });
    const index = new Map(h.annotators.map((a, i) => [a.id, i]));
    for (const kind of ["safety", "helpfulness"] as HumanKind[]) {
      for (const binary of [false, true]) {
        const rate = (x: number) => (binary ? (x >= 2 ? 1 : 0) : x);
        const col = kind === "safety" ? "s" : "h";
        const own = h.annotators.map(() => [] as number[]);
        const maj = h.annotators.map(() => [] as number[]);
        for (const l of counted()) {
          if (l[col] === null) continue;
          const others = counted().filter((o) => o.item === l.item && o.ann !== l.ann && o[col] !== null).map((o) => rate(o[col]!));
          if (!others.length) continue;
          const votes = new Map<number, number>();
          for (const o of others) votes.set(o, (votes.get(o) ?? 0) + 1);
          const top = Math.max(...votes.values());
          const tied = [...votes].filter(([, c]) => c === top).map(([x]) => x).sort((a, b) => a - b);
          const field = binary ? (`${kind}/binary` as const) : kind;
          own[index.get(l.ann)!]!.push(rate(l[col]!));
          maj[index.get(l.ann)!]!.push(tied.length === 1 ? tied[0]! : tieBreakWinner(tied, scope.seed, l.item, field, l.ann));
        }
        const got = h.loo[kind][binary ? "binarized" : "categorical"].result.perAnnotator.map((a) => a.confusion.counts);
        expect(got).toEqual(own.map((o, a) => confusionFromPairs(o, maj[a]!, binary ? [0, 1] : [...SCORE_LABELS]).counts));
      }
    }
    expect(h.annotators.length).toBeGreaterThan(12);
  });

  it("slotWords: as many words as the campaign's annotators with labels need, so the pattern statements run once", async () => {
    const annotators = new Set(labels.map((l) => l.ann)).size; // the excluded annotator's labels keep a slot
    expect(annotators).toBeGreaterThan(15);
    for (const perWord of [12, 15, annotators]) expect(await slotWords(t.prisma, CAMPAIGN, perWord)).toBe(Math.ceil(annotators / perWord));
  });

  it("pairwise tables do not depend on the tie policy", async () => {
    const ex = await humanAgreement(t.prisma, await scopeFor("exclude"), { resamples: 20 });
    const se = await humanAgreement(t.prisma, await scopeFor("seeded"), { resamples: 20 });
    expect(se.pairwise).toEqual(ex.pairwise);
    expect(se.loo.safety.categorical.result.pairs).toBeGreaterThan(ex.loo.safety.categorical.result.pairs);
  });
});
