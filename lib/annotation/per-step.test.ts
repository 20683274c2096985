// The per-step label field (issue 13 item 10): validated against the item's trajectory on draft,
// submit and adjudication; exported as the answer string and per step; turned into per-step
// booleans for the critic's metrics.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { CHECKPOINT_LABEL_SCHEMA, setStepAnswer, stepAnswerProblems, TOOLEMU_LABEL_SCHEMA, valuesValidator, type LabelValues } from "@/lib/trajectory/label-schema";
import { adjudicate } from "./adjudicate";
import { claimNext, saveDraft, submitLabel } from "./assignments";
import { createCampaign } from "./campaigns";
import { exportLabels } from "./export";
import { firstOffTrackStep, ON_TRACK_FIELD, onTrackBeforeStep, onTrackGroundTruth } from "./per-step";

const BASE: LabelValues = { safety: "likely_severe_risk", helpfulness: "poor", emulator_input_validation: "none", emulator_realism: "none", emulator_consistency: "none", true_failure: true };

describe("per-step answers (pure)", () => {
  it("turn into per-step booleans, ground truth and the first off-track step", () => {
    expect(onTrackBeforeStep({ [ON_TRACK_FIELD]: "yyun" })).toEqual([true, true, null, false]);
    expect(onTrackBeforeStep({ [ON_TRACK_FIELD]: "y-n" })).toEqual([true, null, false]);
    expect(onTrackBeforeStep({}, ON_TRACK_FIELD)).toEqual([]);
    expect(onTrackBeforeStep(null)).toEqual([]);
    const labels = [{ [ON_TRACK_FIELD]: "yyn" }, { [ON_TRACK_FIELD]: "ynn" }, { [ON_TRACK_FIELD]: "yuy" }];
    expect(onTrackGroundTruth(labels, null, 3)).toEqual([true, null, false]);
    expect(onTrackGroundTruth(labels, { [ON_TRACK_FIELD]: "yny" }, 3)).toEqual([true, false, true]);
    expect(firstOffTrackStep([true, null, false, false])).toBe(3);
    expect(firstOffTrackStep([true, true])).toBeNull();
    expect(setStepAnswer(undefined, 2, "n", 4)).toBe("--n-");
    expect(setStepAnswer("--n-", 2, null, 4)).toBe("----");
  });

  it("are checked against the step count: one answer per step on submit, never more answers than steps", () => {
    const full = valuesValidator(CHECKPOINT_LABEL_SCHEMA, { partial: false });
    expect(full.safeParse({ ...BASE, [ON_TRACK_FIELD]: "yyn" }).success).toBe(true);
    expect(full.safeParse({ ...BASE, [ON_TRACK_FIELD]: "y-n" }).error?.issues[0]?.message).toBe("On track before each step?: answer every step with y, n or u");
    expect(full.safeParse({ ...BASE, [ON_TRACK_FIELD]: "yes" }).success).toBe(false);
    expect(full.safeParse(BASE).success).toBe(false);
    expect(valuesValidator(CHECKPOINT_LABEL_SCHEMA, { partial: true }).safeParse({ [ON_TRACK_FIELD]: "y--" }).success).toBe(true);
    expect(stepAnswerProblems(CHECKPOINT_LABEL_SCHEMA, { [ON_TRACK_FIELD]: "yy" }, 3, { partial: false })).toEqual(["On track before each step?: answer every step (2 of 3 answered)."]);
    expect(stepAnswerProblems(CHECKPOINT_LABEL_SCHEMA, { [ON_TRACK_FIELD]: "yyyy" }, 3, { partial: true })).toEqual(["On track before each step?: 4 answers for a trajectory of 3 steps."]);
    expect(stepAnswerProblems(CHECKPOINT_LABEL_SCHEMA, { [ON_TRACK_FIELD]: "y" }, 3, { partial: true })).toEqual([]);
    expect(stepAnswerProblems(CHECKPOINT_LABEL_SCHEMA, { [ON_TRACK_FIELD]: "" }, 0, { partial: false })).toEqual([]);
    expect(stepAnswerProblems(TOOLEMU_LABEL_SCHEMA, { anything: "yy" }, 3, { partial: false })).toEqual([]);
  });
});

describe("a campaign with the checkpoint form", () => {
  let t: TestDatabase;
  let campaignId: string;
  beforeAll(async () => {
    t = await createTestDatabase();
    const tk = await t.prisma.toolkit.create({ data: { name: "T", nameForModel: "T", nameForHuman: "T", descriptionForModel: "", descriptionForHuman: "", source: "test", contentHash: "tk", raw: {} } });
    const c = await t.prisma.testCase.create({
      data: { source: "test", name: "c", userInstruction: "Do it", underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [], contentHash: "c0", raw: {}, toolkits: { create: [{ toolkitId: tk.id, position: 0 }] } },
    });
    const traj = await t.prisma.trajectory.create({
      data: {
        caseId: c.id, agentModel: "a", emulatorModel: "m", emulatorMode: "STANDARD", status: "FINISHED", stepCount: 3, contentHash: "h0", raw: {},
        steps: { create: [0, 1, 2].map((index) => ({ index, thought: "t", action: `TStep${index}`, actionInputRaw: "{}", observationRaw: "{}" })) },
      },
      select: { id: true },
    });
    await t.prisma.user.createMany({ data: ["ann", "bob"].map((id) => ({ id, email: `${id}@lab.example`, name: id, role: "ANNOTATOR" as const, passwordHash: "x" })) });
    ({ id: campaignId } = await createCampaign(t.prisma, null, { name: "checkpoints", k: 2, seed: 1, annotatorIds: ["ann", "bob"], selection: { kind: "ids", trajectoryIds: [traj.id] }, labelForm: "toolemu-checkpoints" }));
  });
  afterAll(() => t?.cleanup());

  it("stores the chosen form; drafts may be partial; a submit needs one answer per step; the export carries them per step", async () => {
    const campaign = await t.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { labelSchema: true } });
    expect(campaign.labelSchema).toMatchObject({ form: "toolemu-checkpoints" });
    const a = (await claimNext(t.prisma, campaignId, "ann"))!;
    await saveDraft(t.prisma, "ann", a.assignmentId, { [ON_TRACK_FIELD]: "y--" }, 10);
    await expect(saveDraft(t.prisma, "ann", a.assignmentId, { [ON_TRACK_FIELD]: "yyyy" }, 10)).rejects.toThrow("On track before each step?: 4 answers for a trajectory of 3 steps.");
    await expect(submitLabel(t.prisma, "ann", a.assignmentId, { ...BASE, [ON_TRACK_FIELD]: "yy" }, 10)).rejects.toThrow("On track before each step?: answer every step (2 of 3 answered).");
    await expect(submitLabel(t.prisma, "ann", a.assignmentId, { ...BASE }, 10)).rejects.toThrow(/On track before each step\?/);
    expect(await t.prisma.assignment.findUniqueOrThrow({ where: { id: a.assignmentId }, select: { status: true } })).toEqual({ status: "CLAIMED" });
    expect(await submitLabel(t.prisma, "ann", a.assignmentId, { ...BASE, [ON_TRACK_FIELD]: "yun" }, 10)).toEqual({ status: "submitted" });
    const b = (await claimNext(t.prisma, campaignId, "bob"))!;
    await submitLabel(t.prisma, "bob", b.assignmentId, { ...BASE, [ON_TRACK_FIELD]: "ynn" }, 10);

    const jsonl = (await exportLabels(t.prisma, campaignId, "jsonl")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonl.map((r) => [r.annotator, r[ON_TRACK_FIELD], r[`${ON_TRACK_FIELD}_by_step`]])).toEqual([
      ["ann", "yun", [true, null, false]],
      ["bob", "ynn", [true, false, false]],
    ]);
    const csv = await exportLabels(t.prisma, campaignId, "csv");
    expect(csv.split("\r\n")[0]).toContain(`${ON_TRACK_FIELD},`);
    expect(csv).toContain('"[true,null,false]"');
    expect(onTrackGroundTruth(jsonl.map((r) => r as LabelValues), null, 3)).toEqual([true, false, false]);

    const itemId = a.itemId;
    await expect(adjudicate(t.prisma, "ann", itemId, { ...BASE, [ON_TRACK_FIELD]: "yyyy" }, "x")).rejects.toThrow("On track before each step?: 4 answers for a trajectory of 3 steps.");
    await adjudicate(t.prisma, "ann", itemId, { ...BASE, [ON_TRACK_FIELD]: "yyn" }, "the second step was fine");
  });
});
