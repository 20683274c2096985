// The vote tables and version counters the database keeps for the agreement dashboards (./votes.ts):
// after every kind of write — submit, revision, adjudication, exclusion and restore of an
// annotator, a form revision that rescores, an evaluator's score — the tables equal what the
// labels' JSON gives, and the counter the panel cache probes has moved; a claim or a draft moves
// nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { seedLabelCampaign } from "@/lib/testing/label-campaign";
import { reviseCampaignForm } from "@/lib/annotation/campaigns";
import { claimNext, saveDraft, submitLabel } from "@/lib/annotation/assignments";
import { adjudicate } from "@/lib/annotation/adjudicate";
import { excludeAnnotator, restoreAnnotator } from "@/lib/annotation/quality/exclusion";
import { TOOLEMU_LABEL_SCHEMA } from "@/lib/trajectory/label-schema";
import { DEFAULT_SEED } from "../filters";
import { resolveHumanScope, type HumanScope } from "./scope";
import { dashboardVersions, voteTableDifferences } from "./votes";

const N = 5;
const SAFETY = ["certain_no_risk", "possible_mild_risk", "likely_mild_risk", "possible_severe_risk", "likely_severe_risk"];
const HELP = ["excellent", "good", "unsatisfactory", "poor"];
const users = ["vote_a", "vote_b", "vote_c"];
const PI = "vote_pi";

let t: TestDatabase;
let campaignId: string;

function values(user: number, item: number, shift = 0) {
  return {
    safety: SAFETY[(item + user + shift) % SAFETY.length]!,
    helpfulness: HELP[(item * 2 + user + shift) % HELP.length]!,
    emulator_input_validation: ["none", "minor", "critical"][(item + user) % 3]!,
    emulator_realism: (item + user) % 2 === 0 ? "critical" : "none",
    emulator_consistency: "minor",
    true_failure: (item + user + shift) % 2 === 0,
    comment: "",
  };
}

async function scope(): Promise<HumanScope> {
  const r = await resolveHumanScope(t.prisma, { campaign: campaignId, evaluator: "vote-judge", seed: DEFAULT_SEED });
  if (!r.scope) throw new Error(`no scope: ${r.missing}`);
  return r.scope;
}

/** The tables equal the JSON; returns the campaign's and the evaluator's counters. */
async function consistent(expectLabels: number): Promise<{ campaign: bigint; evaluator: bigint; other: bigint }> {
  if (expectLabels > 0) {
    const d = await voteTableDifferences(t.prisma, await scope());
    expect(d.labelMismatches).toEqual([]);
    expect(d.itemMismatches).toEqual([]);
    expect(d.labels).toBe(expectLabels);
  } else {
    expect(await t.prisma.labelVote.count({ where: { campaignId } })).toBe(0);
  }
  const v = await dashboardVersions(t.prisma, [`campaign:${campaignId}`, "evaluator:vote-judge", "evaluator:other-judge"]);
  return { campaign: v[`campaign:${campaignId}`]!, evaluator: v["evaluator:vote-judge"]!, other: v["evaluator:other-judge"]! };
}

async function labelAll(u: number): Promise<void> {
  for (;;) {
    const claim = await claimNext(t.prisma, campaignId, users[u]!);
    if (!claim) return;
    const i = Number(claim.itemId.replace("it_vote_", ""));
    expect((await submitLabel(t.prisma, users[u]!, claim.assignmentId, values(u, i), 1000)).status).toBe("submitted");
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  campaignId = await seedLabelCampaign(t, {
    prefix: "vote",
    n: N,
    annotators: users,
    creator: PI,
    evaluator: { model: "vote-judge", safety: (i) => i % 4, helpfulness: (i) => (i + 1) % 4 },
    campaignName: "votes",
  });
});
afterAll(() => t.cleanup());

describe("the dashboards' vote tables and version counters", () => {
  it("follow every write that changes the numbers, and only those", async () => {
    const v0 = await consistent(0);

    // Submit: two annotators label everything.
    await labelAll(0);
    await labelAll(1);
    const v1 = await consistent(2 * N);
    expect(v1.campaign).toBeGreaterThan(v0.campaign);
    const items = await t.prisma.itemVote.findMany({ where: { campaignId }, orderBy: { itemId: "asc" } });
    expect(items.map((r) => r.n)).toEqual(Array(N).fill(2));

    // A claim and a draft change nothing the dashboards read.
    const claim = await claimNext(t.prisma, campaignId, users[2]!);
    expect(claim).not.toBeNull();
    await saveDraft(t.prisma, users[2]!, claim!.assignmentId, { safety: "certain_no_risk" }, 10);
    expect((await consistent(2 * N)).campaign).toBe(v1.campaign);

    // The third label of that item.
    const i = Number(claim!.itemId.replace("it_vote_", ""));
    expect((await submitLabel(t.prisma, users[2]!, claim!.assignmentId, values(2, i), 1000)).status).toBe("submitted");
    const v2 = await consistent(2 * N + 1);
    expect(v2.campaign).toBeGreaterThan(v1.campaign);
    expect((await t.prisma.itemVote.findUniqueOrThrow({ where: { itemId: claim!.itemId } })).n).toBe(3);

    // Revision: same number of labels, other votes.
    const mine = await t.prisma.assignment.findFirstOrThrow({ where: { campaignId, annotatorId: users[0], itemId: "it_vote_1" } });
    const before = await t.prisma.labelVote.findUniqueOrThrow({ where: { assignmentId: mine.id } });
    expect((await submitLabel(t.prisma, users[0]!, mine.id, values(0, 1, 2), 1000)).status).toBe("revised");
    const v3 = await consistent(2 * N + 1);
    expect(v3.campaign).toBeGreaterThan(v2.campaign);
    expect(await t.prisma.labelVote.findUniqueOrThrow({ where: { assignmentId: mine.id } })).not.toEqual(before);
    // Submitting the same values again is no revision: nothing moves.
    expect((await submitLabel(t.prisma, users[0]!, mine.id, values(0, 1, 2), 1000)).status).toBe("unchanged");
    expect((await consistent(2 * N + 1)).campaign).toBe(v3.campaign);

    // Adjudication: the votes stay, the version moves.
    await adjudicate(t.prisma, PI, "it_vote_2", values(0, 2), "A is right");
    const v4 = await consistent(2 * N + 1);
    expect(v4.campaign).toBeGreaterThan(v3.campaign);

    // Exclusion: annotator 1's labels leave every item's vector; restoring brings them back.
    await excludeAnnotator(t.prisma, PI, campaignId, users[1]!, "guessing");
    const v5 = await consistent(2 * N + 1);
    expect(v5.campaign).toBeGreaterThan(v4.campaign);
    const excluded = await t.prisma.itemVote.findMany({ where: { campaignId }, orderBy: { itemId: "asc" } });
    expect(excluded.reduce((n, r) => n + r.n, 0)).toBe(N + 1);
    await restoreAnnotator(t.prisma, PI, campaignId, users[1]!, "checked again");
    const v6 = await consistent(2 * N + 1);
    expect(v6.campaign).toBeGreaterThan(v5.campaign);
    expect((await t.prisma.itemVote.findMany({ where: { campaignId } })).reduce((n, r) => n + r.n, 0)).toBe(2 * N + 1);

    // A form revision that changes safety's scores rescores every label of the campaign.
    const form = {
      ...TOOLEMU_LABEL_SCHEMA,
      fields: TOOLEMU_LABEL_SCHEMA.fields.map((f) =>
        f.key === "safety" && f.kind === "choice" ? { ...f, options: f.options.map((o) => (o.value === "possible_severe_risk" ? { ...o, score: 0 } : o)) } : f,
      ),
    };
    const s1 = (await t.prisma.labelVote.findMany({ where: { campaignId }, orderBy: { assignmentId: "asc" } })).map((r) => r.s);
    await reviseCampaignForm(t.prisma, PI, campaignId, form);
    const v7 = await consistent(2 * N + 1);
    expect(v7.campaign).toBeGreaterThan(v6.campaign);
    const s2 = (await t.prisma.labelVote.findMany({ where: { campaignId }, orderBy: { assignmentId: "asc" } })).map((r) => r.s);
    expect(s2).not.toEqual(s1);

    // An evaluator's score: its counter moves, once per transaction; another evaluator's does not.
    const e = await t.prisma.evaluation.findFirstOrThrow({ where: { trajectoryId: "vote_t_1", kind: "SAFETY", evaluatorModel: "vote-judge" } });
    await t.prisma.evaluation.update({ where: { id: e.id }, data: { score: (e.score! + 1) % 4 } });
    const v8 = await consistent(2 * N + 1);
    expect(v8.evaluator).toBe(v7.evaluator + 1n);
    expect(v8.campaign).toBe(v7.campaign);
    await t.prisma.$transaction([
      t.prisma.evaluation.updateMany({ where: { evaluatorModel: "vote-judge" }, data: { label: "re-imported" } }),
      t.prisma.evaluation.create({ data: { trajectoryId: "vote_t_2", kind: "SAFETY", evaluatorModel: "other-judge", score: 1, raw: {} } }),
      t.prisma.evaluation.create({ data: { trajectoryId: "vote_t_3", kind: "SAFETY", evaluatorModel: "other-judge", score: 2, raw: {} } }),
    ]);
    const v9 = await consistent(2 * N + 1);
    expect(v9.evaluator).toBe(v8.evaluator + 1n);
    expect(v9.other).toBe(v8.other + 1n);
    await t.prisma.evaluation.deleteMany({ where: { evaluatorModel: "vote-judge", trajectoryId: "vote_t_0" } });
    expect((await consistent(2 * N + 1)).evaluator).toBe(v9.evaluator + 1n);

    // The comparison sees a wrong row (so the checks above could fail).
    await t.sql.query(`UPDATE "LabelVote" SET sh = sh + 1 WHERE "assignmentId" = $1`, [mine.id]);
    await t.sql.query(`UPDATE "ItemVote" SET ft = ft + 1 WHERE "itemId" = 'it_vote_3'`);
    const d = await voteTableDifferences(t.prisma, await scope());
    expect(d.labelMismatches).toEqual([mine.id]);
    expect(d.itemMismatches).toEqual(["it_vote_3"]);
  });
});
