// Label forms per campaign (issue 18 item 6) and SAGE human validation (issue 14 item 7), on a
// real database: a custom form with a per-step rating whose κ the campaign's dashboard query
// reports (worked out by hand below), conditional fields and form versions on submitted labels,
// scenario campaigns (sampling, the blinded scenario view) and the item XOR constraint.
//
// κ of the per-step rating "progress" (1–3), two annotators A and B, four SAGE episodes of three
// steps each:   e0 A 111 B 111 · e1 A 222 B 223 · e2 A 333 B 332 · e3 A 123 B 123
// 12 units, 10 agree. Pooled pairs in both orders: diagonal 1:8, 2:6, 3:6; (2,3) = (3,2) = 2;
// total 24, every marginal 8/24 = 1/3.
//   categorical: Po = 20/24, Pe = 1/3 → κ = (5/6 − 1/3) / (2/3) = 0.75
//   linear:      Σw·O/n = 4/24, Σw·E/n = (1/9)·8 → κ = 1 − (1/6)/(8/9) = 0.8125
//   quadratic:   Σw·O/n = 4/24, Σw·E/n = (1/9)·12 → κ = 1 − (1/6)/(4/3) = 0.875
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { sharedDataDir } from "@/lib/testing/shared-data";
import { insertSageEpisode } from "@/lib/testing/sage";
import { runSageImport } from "@/lib/sage/import";
import { krippendorffAlpha } from "@/lib/metrics";
import { campaignFormAgreement } from "@/lib/dashboards/human/form-agreement-query";
import { claimNext, claimNextItem, submitLabel } from "./assignments";
import { createCampaign, reviseCampaignForm } from "./campaigns";

let t: TestDatabase;
const episodes: string[] = [];
const scenarioIds: string[] = [];
const RATINGS: Record<string, [string, string]> = {};
const PLAN = [["111", "111"], ["222", "223"], ["333", "332"], ["123", "123"]] as const;

beforeAll(async () => {
  t = await createTestDatabase();
  const tasks = path.join(sharedDataDir(), "sage", "data", "tasks");
  const imported = await runSageImport(t.prisma, [
    path.join(tasks, "interaction_understanding_failure", "intent_misinterpretation_seeds"),
    path.join(tasks, "goal_norm_misalignment", "reward_hacking_seeds"),
  ]);
  expect(imported.report.issues).toEqual([]);
  scenarioIds.push(...(await t.prisma.sageScenario.findMany({ orderBy: { instanceId: "asc" }, select: { id: true } })).map((s) => s.id));
  expect(scenarioIds).toHaveLength(14);
  await t.prisma.user.createMany({ data: ["a", "b", "c"].map((u) => ({ id: `ann-${u}`, email: `${u}@lab.example`, name: `Annotator ${u}`, role: "ANNOTATOR" as const, passwordHash: "x" })) });
  // Judges: j1 says unsafe on e0, e1; j2 says uncertain on e2 (matches nothing).
  const judge = [[{ judge: "j1", label: "unsafe" as const }], [{ judge: "j1", label: "unsafe" as const }], [{ judge: "j1", label: "safe" as const }, { judge: "j2", label: "uncertain" as const }], [{ judge: "j1", label: "safe" as const }]];
  for (let i = 0; i < 4; i++) {
    const id = await insertSageEpisode(t.prisma, {
      scenarioId: scenarioIds[i]!,
      agent: "agent-x",
      context: i % 2 ? "WARNING" : "TRUST",
      turns: [
        { user: `please do it ${i}`, tool: "check_status", observation: { ok: true } },
        { user: "hurry", tool: "check_status", observation: { ok: true } },
        { user: "now", tool: "check_status", observation: { ok: true } },
      ],
      judgments: judge[i],
    });
    episodes.push(id);
    RATINGS[id] = [PLAN[i]![0], PLAN[i]![1]];
  }
});
afterAll(() => t.cleanup());

/** Claims every item of the campaign for `user` and submits what `values` says for its trajectory/scenario. */
async function labelAll(campaignId: string, user: string, values: (item: { trajectoryId: string | null; scenarioId: string | null }) => Record<string, string | boolean>) {
  for (;;) {
    const claim = await claimNext(t.prisma, campaignId, user);
    if (!claim) return;
    const item = await t.prisma.campaignItem.findUniqueOrThrow({ where: { id: claim.itemId }, select: { trajectoryId: true, scenarioId: true } });
    await submitLabel(t.prisma, user, claim.assignmentId, values(item), 1000);
  }
}

describe("a custom form with a per-step rating", () => {
  it("is stored with the campaign, and the dashboard query reports κ and α of the per-step field", async () => {
    const { id, items } = await createCampaign(t.prisma, null, {
      name: "custom per-step", k: 2, seed: 11, annotatorIds: ["ann-a", "ann-b"], includeOffline: true,
      labelForm: "custom",
      customForm: {
        version: 1,
        fields: [
          { key: "progress", kind: "step_rating", label: "Progress", required: true, min: 1, max: 3 },
          { key: "overall", kind: "scale", label: "Overall", required: true, min: 1, max: 5 },
          { key: "note", kind: "text", label: "Note", required: false, maxLength: 200 },
        ],
      },
      selection: { kind: "sage-episodes" },
    });
    expect(items).toBe(4);
    const c = await t.prisma.campaign.findUniqueOrThrow({ where: { id }, select: { labelSchemaVersion: true, labelSchema: true, formVersions: true } });
    expect(c.labelSchemaVersion).toBe(1);
    expect((c.labelSchema as { form: string }).form).toBe("custom");
    expect(c.formVersions.map((v) => v.version)).toEqual([1]);

    await labelAll(id, "ann-a", (it) => ({ progress: RATINGS[it.trajectoryId!]![0], overall: "4" }));
    await labelAll(id, "ann-b", (it) => ({ progress: RATINGS[it.trajectoryId!]![1], overall: "4" }));
    const d = await campaignFormAgreement(t.prisma, id);
    const progress = d.fields.find((f) => f.id === "progress")!;
    expect(progress).toMatchObject({ scale: "ordinal", perStep: true, n: { items: 4, units: 12, pairs: 12 } });
    expect(progress.observedAgreement).toBeCloseTo(10 / 12, 12);
    expect(progress.kappa.categorical!.result.value).toBeCloseTo(0.75, 12);
    expect(progress.kappa.linear!.result.value).toBeCloseTo(0.8125, 12);
    expect(progress.kappa.quadratic!.result.value).toBeCloseTo(0.875, 12);
    expect(progress.kappa.quadratic!.interval.undefined).toBeFalsy();
    const units = PLAN.flatMap(([a, b]) => [0, 1, 2].map((s) => [Number(a[s]), Number(b[s])]));
    expect(progress.alpha.ordinal!.result.value).toBeCloseTo(krippendorffAlpha(units, "ordinal").value!, 12);
    // Everyone said 4: no chance disagreement, so κ is undefined (with a reason), not 1.
    expect(d.fields.find((f) => f.id === "overall")!.kappa.categorical!.result.undefined).toBe(true);
    expect(d.fields.map((f) => f.id)).toEqual(["progress", "overall"]); // free text is not measured
    expect(d.labelsByVersion).toEqual([{ version: 1, labels: 8 }]);
  });

  it("refuses a broken custom form with located messages, and a form that does not fit the items", async () => {
    const base = { name: "x", k: 1, annotatorIds: ["ann-a"], includeOffline: true };
    await expect(createCampaign(t.prisma, null, { ...base, labelForm: "custom", customForm: { version: 1, fields: [{ key: "a", kind: "scale", label: "A", min: 3, max: 2 }] }, selection: { kind: "sage-episodes" } }))
      .rejects.toThrow("fields[0].max: max (2) must be greater than min (3)");
    await expect(createCampaign(t.prisma, null, { ...base, labelForm: "custom", customForm: { version: 1, fields: [{ key: "p", kind: "step_rating", label: "P", min: 1, max: 3 }] }, selection: { kind: "scenarios" } }))
      .rejects.toThrow('"P" is answered per step of a trajectory, but scenario items have no steps');
    await expect(createCampaign(t.prisma, null, { ...base, labelForm: "sage-scenario-quality", selection: { kind: "sage-episodes" } }))
      .rejects.toThrow('The form "SAGE scenario quality" labels SAGE scenarios, but the selection picks SAGE episodes.');
  });
});

describe("the SAGE episode-safety form", () => {
  it("asks the boundary only for unsafe, keeps each label's form version, and reports the paper's agreement figures", async () => {
    const { id } = await createCampaign(t.prisma, null, { name: "sage safety", k: 2, seed: 3, annotatorIds: ["ann-a", "ann-b"], includeOffline: true, labelForm: "sage-episode-safety", selection: { kind: "sage-episodes" } });
    const claim = (await claimNext(t.prisma, id, "ann-a"))!;
    await expect(submitLabel(t.prisma, "ann-a", claim.assignmentId, { verdict: "unsafe" }, 1)).rejects.toThrow("Which boundary was crossed?: required");
    // A boundary given while "unsafe" and left after switching to "safe" is not stored.
    await submitLabel(t.prisma, "ann-a", claim.assignmentId, { verdict: "safe", boundary: "other" }, 1);
    const stored = await t.prisma.assignment.findUniqueOrThrow({ where: { id: claim.assignmentId }, select: { values: true, labelSchemaVersion: true } });
    expect(stored).toEqual({ values: { verdict: "safe" }, labelSchemaVersion: 1 });

    // Verdicts by episode: A: e0 unsafe, e1 unsafe, e2 safe, e3 safe; B: e0 unsafe, e1 safe, e2 safe, e3 unsafe.
    const A = ["unsafe", "unsafe", "safe", "safe"];
    const B = ["unsafe", "safe", "safe", "unsafe"];
    const v = (x: string): Record<string, string> => (x === "unsafe" ? { verdict: x, boundary: "dangerous_action" } : { verdict: x });
    const first = (await t.prisma.campaignItem.findUniqueOrThrow({ where: { id: claim.itemId }, select: { trajectoryId: true } })).trajectoryId!;
    await submitLabel(t.prisma, "ann-a", claim.assignmentId, v(A[episodes.indexOf(first)]!), 1);
    await labelAll(id, "ann-a", (it) => v(A[episodes.indexOf(it.trajectoryId!)]!));

    // A form edit makes version 2; A's labels keep version 1, B's get 2.
    const form = (await t.prisma.campaign.findUniqueOrThrow({ where: { id } })).labelSchema as { version: number; fields: unknown[] };
    expect(await reviseCampaignForm(t.prisma, "ann-c", id, { ...form, fields: [...form.fields, { key: "confidence", kind: "scale", label: "Confidence", required: false, min: 1, max: 3 }] })).toEqual({ version: 2 });
    await labelAll(id, "ann-b", (it) => v(B[episodes.indexOf(it.trajectoryId!)]!));
    const versions = await t.prisma.assignment.groupBy({ by: ["annotatorId", "labelSchemaVersion"], where: { campaignId: id, status: "SUBMITTED" }, _count: { _all: true } });
    expect(versions.map((r) => [r.annotatorId, r.labelSchemaVersion, r._count._all]).sort()).toEqual([["ann-a", 1, 4], ["ann-b", 2, 4]]);
    expect((await t.prisma.campaignFormVersion.findMany({ where: { campaignId: id }, orderBy: { version: "asc" } })).map((r) => r.version)).toEqual([1, 2]);

    const d = await campaignFormAgreement(t.prisma, id);
    expect(d.form).toBe("sage-episode-safety+edited");
    expect(d.labelsByVersion).toEqual([{ version: 1, labels: 4 }, { version: 2, labels: 4 }]);
    // Agreed on e0 (unsafe) and e2 (safe): 2/4.
    expect(d.sageEpisodes!.annotatorAgreement).toMatchObject({ k: 2, n: 4 });
    // j1 (e0 u, e1 u, e2 s, e3 s) vs all 8 human verdicts: e0 2, e1 1, e2 2, e3 1 = 6/8; agreed subset e0, e2: 2/2.
    // j2 labelled e2 only, "uncertain": 0/2, agreed subset 0/1.
    const j = Object.fromEntries(d.sageEpisodes!.judges.map((x) => [x.judge, x]));
    expect(j["j1 (ternary)"]).toMatchObject({ humanJudge: { k: 6, n: 8 }, agreedSubset: { k: 2, n: 2 } });
    expect(j["j2 (ternary)"]).toMatchObject({ humanJudge: { k: 0, n: 2 }, agreedSubset: { k: 0, n: 1 } });
    // κ of the verdict (categorical) sits beside them: pairs (u,u) (u,s) (s,s) (s,u).
    expect(d.fields.find((f) => f.id === "verdict")!.kappa.categorical!.result.value).toBeCloseTo(0, 12);
  });
});

describe("scenario campaigns", () => {
  it("sample scenarios (seeded, stratified by subcategory) and show annotators the visible scenario only", async () => {
    const make = (seed: number) => createCampaign(t.prisma, null, { name: `scen ${seed}`, k: 1, annotatorIds: ["ann-c"], labelForm: "sage-scenario-quality", selection: { kind: "scenarios", n: 6, seed } });
    const one = await make(5);
    const two = await make(5);
    const setOf = async (campaignId: string) => (await t.prisma.campaignItem.findMany({ where: { campaignId }, select: { scenarioId: true, trajectoryId: true, scenario: { select: { subcategoryId: true } } } }));
    const a = await setOf(one.id);
    expect(a).toHaveLength(6);
    expect(a.every((i) => i.trajectoryId === null && i.scenarioId)).toBe(true);
    // 7 + 7 seeds in two subcategories: 3 of each.
    const per = new Map<string, number>();
    for (const i of a) per.set(i.scenario!.subcategoryId, (per.get(i.scenario!.subcategoryId) ?? 0) + 1);
    expect([...per.values()]).toEqual([3, 3]);
    expect((await setOf(two.id)).map((i) => i.scenarioId).sort()).toEqual(a.map((i) => i.scenarioId).sort());

    const item = (await claimNextItem(t.prisma, one.id, "ann-c"))!;
    expect(item.kind).toBe("scenario");
    expect(item.steps).toEqual([]);
    const s = await t.prisma.sageScenario.findFirstOrThrow({ where: { campaignItems: { some: { id: item.itemId } } } });
    expect(item.scenario).toMatchObject({ role: s.roleContext, task: s.taskContext });
    const seen = JSON.stringify(item);
    expect(seen).not.toContain(JSON.stringify(s.judgeSpec).slice(1, 60));
    expect(seen).not.toContain(s.attackerObjective);
    expect(seen).not.toContain("riskLevel");
    // All three ≥ 3 passes.
    await submitLabel(t.prisma, "ann-c", item.assignment.id, { realism: "4", risk_clarity: "3", solvability: "3", issues: "" }, 1);
    const d = await campaignFormAgreement(t.prisma, one.id);
    expect(d.sageScenarios!.passRate).toMatchObject({ k: 1, n: 1 });
  });

  it("an item is a trajectory or a scenario, never both or neither (database CHECK)", async () => {
    const c = await t.prisma.campaign.findFirstOrThrow({ select: { id: true } });
    const insert = (traj: string | null, scen: string | null) =>
      t.sql.query(`INSERT INTO "CampaignItem" (id, "campaignId", "trajectoryId", "scenarioId") VALUES ($1, $2, $3, $4)`, [`xor-${traj}-${scen}`, c.id, traj, scen]);
    await expect(insert(episodes[0]!, scenarioIds[0]!)).rejects.toThrow(/CampaignItem_trajectory_xor_scenario/);
    await expect(insert(null, null)).rejects.toThrow(/CampaignItem_trajectory_xor_scenario/);
    await insert(null, scenarioIds[13]!);
  });
});
