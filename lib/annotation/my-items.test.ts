// "Previous item" and my finished items (issue 18 item 3): listed in submit order with a content
// hint, walked back and forth; a revision of one's own earlier label is audited; nobody else's
// items, and nothing unsubmitted, appear; a campaign with nothing left says Done.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { claimNext, saveDraft, skipItem, submitLabel } from "./assignments";
import { loadBlindedItem } from "./blinded";
import { createCampaign } from "./campaigns";
import { campaignsWithMyClaim, itemHint, listMyFinishedItems, myCampaignState, neighbours, submitNotice } from "./my-items";
import { listMyCampaigns } from "./queries";

const LABEL = { safety: "certain_no_risk", helpfulness: "good", emulator_input_validation: "none", emulator_realism: "none", emulator_consistency: "none", true_failure: false, comment: "" };

describe("item hints and neighbours (pure)", () => {
  it("are the instruction's first words and the toolkits", () => {
    expect(itemHint("Please send the quarterly report to Anna and copy the finance team today", ["Gmail", "Dropbox"])).toBe("Please send the quarterly report to Anna and copy … · Gmail, Dropbox");
    expect(itemHint("  Transfer $5 now ", [])).toBe("Transfer $5 now");
    expect(itemHint(null, ["Bank"])).toBe("Bank");
    expect(itemHint("", [])).toBe("(no instruction)");
  });

  it("lead back from the item being worked on to the last finished one, and between finished ones", () => {
    const f = [1, 2, 3].map((position) => ({ assignmentId: `a${position}`, itemId: `i${position}`, position, submittedAt: null, hint: "" }));
    expect(neighbours(f, "current")).toEqual({ previous: f[2], next: null });
    expect(neighbours(f, "a2")).toEqual({ previous: f[0], next: f[2] });
    expect(neighbours(f, "a1")).toEqual({ previous: null, next: f[1] });
    expect(neighbours(f, "a3")).toEqual({ previous: f[1], next: null });
    expect(neighbours([], "current")).toEqual({ previous: null, next: null });
  });

  it("say Done when nothing is left and nothing is being worked on", () => {
    expect(myCampaignState({ locked: true, available: 3, submitted: 0, skipped: 0 }, false)).toBe("locked");
    expect(myCampaignState({ locked: false, available: 3, submitted: 0, skipped: 0 }, false)).toBe("start");
    expect(myCampaignState({ locked: false, available: 2, submitted: 1, skipped: 0 }, false)).toBe("continue");
    expect(myCampaignState({ locked: false, available: 0, submitted: 3, skipped: 0 }, true)).toBe("continue");
    expect(myCampaignState({ locked: false, available: 0, submitted: 3, skipped: 0 }, false)).toBe("done");
  });
});

describe("my finished items in a campaign", () => {
  let t: TestDatabase;
  let campaignId: string;
  beforeAll(async () => {
    t = await createTestDatabase();
    const tk = await t.prisma.toolkit.create({ data: { name: "Mail", nameForModel: "Mail", nameForHuman: "Mail app", descriptionForModel: "", descriptionForHuman: "", source: "test", contentHash: "tk", raw: {} } });
    const instructions = ["Send the invoice to Bob", "Delete the old backups in the shared folder please", "Book a table for two tonight"];
    const ids: string[] = [];
    for (const [i, userInstruction] of instructions.entries()) {
      const c = await t.prisma.testCase.create({
        data: { source: "test", name: `c${i}`, userInstruction, underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [], contentHash: `c${i}`, raw: {}, toolkits: { create: [{ toolkitId: tk.id, position: 0 }] } },
      });
      const traj = await t.prisma.trajectory.create({
        data: { caseId: c.id, agentModel: "secret-model-7B", emulatorModel: "m", emulatorMode: "STANDARD", status: "FINISHED", stepCount: 0, contentHash: `h${i}`, raw: {} },
        select: { id: true },
      });
      ids.push(traj.id);
    }
    await t.prisma.user.createMany({ data: ["ann", "bob"].map((id) => ({ id, email: `${id}@lab.example`, name: id, role: "ANNOTATOR" as const, passwordHash: "x" })) });
    ({ id: campaignId } = await createCampaign(t.prisma, null, { name: "mine", k: 2, seed: 3, annotatorIds: ["ann", "bob"], selection: { kind: "ids", trajectoryIds: ids } }));
  });
  afterAll(() => t?.cleanup());

  it("lists what I submitted, in order, with hints; a revision of an earlier one is audited; nothing left says Done", async () => {
    expect(await listMyFinishedItems(t.prisma, "ann", campaignId)).toEqual([]);
    const first = (await claimNext(t.prisma, campaignId, "ann"))!;
    // A draft autosaved before the last answer: the submitted label supersedes it (going back shows the label).
    await saveDraft(t.prisma, "ann", first.assignmentId, { safety: "likely_mild_risk" }, 500);
    await submitLabel(t.prisma, "ann", first.assignmentId, LABEL, 1000, new Date("2026-01-01T10:00:00Z"));
    expect((await loadBlindedItem(t.prisma, "ann", first.assignmentId)).assignment).toMatchObject({ status: "SUBMITTED", draft: null, values: LABEL });
    const second = (await claimNext(t.prisma, campaignId, "ann"))!;
    await skipItem(t.prisma, "ann", second.assignmentId, "cannot judge");
    const third = (await claimNext(t.prisma, campaignId, "ann"))!;
    await submitLabel(t.prisma, "ann", third.assignmentId, LABEL, 1000, new Date("2026-01-01T10:05:00Z"));
    // Bob's label is his: never in Ann's list.
    const bobs = (await claimNext(t.prisma, campaignId, "bob"))!;
    await submitLabel(t.prisma, "bob", bobs.assignmentId, LABEL, 1000);

    const mine = await listMyFinishedItems(t.prisma, "ann", campaignId);
    expect(mine.map((m) => [m.assignmentId, m.position])).toEqual([[first.assignmentId, 1], [third.assignmentId, 2]]);
    const instructionOf = async (assignmentId: string) =>
      (await t.prisma.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { item: { select: { trajectory: { select: { case: { select: { userInstruction: true } } } } } } } })).item.trajectory!.case!.userInstruction;
    for (const [i, m] of mine.entries()) {
      expect(m.hint).toBe(itemHint(await instructionOf([first, third][i]!.assignmentId), ["Mail app"]));
      expect(m.hint).not.toContain("secret-model");
    }

    // Previous from the item being worked on is the last finished; a changed label is a revision, audited.
    expect(neighbours(mine, "working-on-another").previous?.assignmentId).toBe(third.assignmentId);
    await saveDraft(t.prisma, "ann", first.assignmentId, { ...LABEL, safety: "likely_severe_risk", true_failure: null }, 1500);
    expect(await submitLabel(t.prisma, "ann", first.assignmentId, { ...LABEL, safety: "likely_severe_risk" }, 2000)).toEqual({ status: "revised" });
    expect((await loadBlindedItem(t.prisma, "ann", first.assignmentId)).assignment.draft).toBeNull();
    const audit = await t.prisma.auditLog.findMany({ where: { entityId: first.assignmentId, action: "label.revise" }, select: { actorId: true, before: true, after: true } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: "ann", before: { safety: "certain_no_risk" }, after: { safety: "likely_severe_risk" } });
    // A revision keeps the item's place in the list.
    expect((await listMyFinishedItems(t.prisma, "ann", campaignId)).map((m) => m.assignmentId)).toEqual([first.assignmentId, third.assignmentId]);

    // The confirmation after a submit names my item; someone else's assignment or a made-up result gives none.
    expect(await submitNotice(t.prisma, "ann", campaignId, first.assignmentId, "revised")).toEqual({ result: "revised", hint: mine[0]!.hint, position: 1 });
    expect(await submitNotice(t.prisma, "ann", campaignId, bobs.assignmentId, "submitted")).toBeNull();
    expect(await submitNotice(t.prisma, "ann", campaignId, first.assignmentId, "deleted")).toBeNull();

    // Ann labelled or skipped all three: Done. Bob has more to claim: not done.
    const [a] = await listMyCampaigns(t.prisma, "ann");
    expect(a).toMatchObject({ available: 0, submitted: 2, skipped: 1 });
    expect(myCampaignState(a!, (await campaignsWithMyClaim(t.prisma, "ann")).has(campaignId))).toBe("done");
    const [b] = await listMyCampaigns(t.prisma, "bob");
    expect(myCampaignState(b!, (await campaignsWithMyClaim(t.prisma, "bob")).has(campaignId))).toBe("continue");
    await claimNext(t.prisma, campaignId, "bob");
    expect((await campaignsWithMyClaim(t.prisma, "bob")).has(campaignId)).toBe(true);
  });
});
