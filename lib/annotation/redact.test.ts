// Blinding over the shared ToolEmu data: offline-model trajectories stay out of campaigns unless
// one opts in, and a redacting campaign shows no known model or endpoint name to annotators.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { createCampaign } from "./campaigns";
import { claimNextItem, submitLabel } from "./assignments";
import { loadBlindedItem, type BlindedItem } from "./blinded";
import { previewSelection } from "./manage-queries";
import { forgetModelNames, knownModelNames, makeRedactor, nameVariants, REDACTED_MODEL } from "./redact";

const VALID = { safety: "certain_no_risk", helpfulness: "good", emulator_input_validation: "none", emulator_realism: "none", emulator_consistency: "none", true_failure: false, comment: "" };
const SELF_ID = " As Qwen2.5, a model by Qwen, I double-checked with gpt-5-mini and Qwen3-32B before acting.";

let t: TestDatabase;
let offlineId: string;
let selfIdentifying: string;
beforeAll(async () => {
  t = await createTestDatabase({ seed: "all" });
  expect(t.imported?.written?.trajectories).toBe(144);
  // A trajectory the offline model played, as the playground or a run would store it.
  const real = await t.prisma.trajectory.findFirstOrThrow({ where: { steps: { some: {} } }, orderBy: { id: "asc" }, select: { id: true, caseId: true } });
  const offline = await t.prisma.trajectory.create({
    data: {
      caseId: real.caseId, agentModel: "offline-heuristic", emulatorModel: "offline-heuristic", emulatorMode: "STANDARD", status: "FINISHED", stepCount: 1,
      contentHash: "emulated:offline", raw: {}, origin: "EMULATED", finalAnswer: `Done. (${OFFLINE_MODEL_LABEL})`, finalLog: `offline-heuristic (not an LLM) finished`,
      steps: { create: [{ index: 0, thought: `I am the offline-heuristic model (not an LLM).`, action: "Noop", actionInputRaw: "{}", observationRaw: "{}" }] },
    },
  });
  offlineId = offline.id;
  // A real trajectory whose agent names itself (and others) in a thought.
  const step = await t.prisma.step.findFirstOrThrow({ where: { trajectoryId: real.id, thought: { not: null } }, orderBy: { index: "asc" } });
  await t.prisma.step.update({ where: { id: step.id }, data: { thought: `${step.thought}${SELF_ID}` } });
  selfIdentifying = real.id;
  await t.prisma.user.createMany({ data: ["a1", "a2"].map((id) => ({ id, email: `${id}@lab.example`, name: id, role: "ANNOTATOR" as const, passwordHash: "x" })) });
  forgetModelNames();
});
afterAll(() => t?.cleanup());

async function claimAll(campaignId: string, user: string): Promise<BlindedItem[]> {
  const items: BlindedItem[] = [];
  for (let item = await claimNextItem(t.prisma, campaignId, user); item; item = await claimNextItem(t.prisma, campaignId, user)) {
    items.push(item);
    await submitLabel(t.prisma, user, item.assignment.id, VALID, 1);
  }
  return items;
}

const texts = (i: BlindedItem) => [...i.steps.flatMap((s) => [s.thought, s.action, s.actionInput, s.observation]), i.finalAnswer, i.finalMessage].filter((x): x is string => x !== null);

describe("name variants", () => {
  it("covers ids, organisations, short names and family words, but not plain words", () => {
    expect(nameVariants("Qwen/Qwen2.5-7B-Instruct").sort()).toEqual(["Qwen", "Qwen/Qwen2.5-7B-Instruct", "Qwen2.5", "Qwen2.5-7B", "Qwen2.5-7B-Instruct"].sort());
    expect(nameVariants("gpt-5-mini").sort()).toEqual(["gpt", "gpt-5", "gpt-5-mini"]);
    expect(nameVariants("offline-heuristic")).toEqual(["offline-heuristic"]);
    const r = makeRedactor(["Qwen/Qwen2.5-7B-Instruct", "gpt-5-mini", "offline-heuristic"]);
    expect(r("I am QWEN2.5 (qwen), not GPT; the server is offline; gptq stays; offline-heuristic.")).toBe(
      `I am ${REDACTED_MODEL} (${REDACTED_MODEL}), not ${REDACTED_MODEL}; the server is offline; gptq stays; ${REDACTED_MODEL}.`,
    );
  });
});

describe("campaigns and the offline model", () => {
  it("leave offline-model trajectories out unless the campaign opts in", async () => {
    expect(await previewSelection(t.prisma, {})).toMatchObject({ matching: 144, offlineExcluded: 1 });
    expect(await previewSelection(t.prisma, {}, true)).toMatchObject({ matching: 145, offlineExcluded: 0 });
    const plain = await createCampaign(t.prisma, null, { name: "default", k: 1, seed: 1, annotatorIds: ["a1"], selection: { kind: "filter", filter: {} } });
    expect(plain.items).toBe(144);
    expect(await t.prisma.campaignItem.count({ where: { campaignId: plain.id, trajectoryId: offlineId } })).toBe(0);
    const opted = await createCampaign(t.prisma, null, { name: "opted in", k: 1, seed: 1, includeOffline: true, annotatorIds: ["a1"], selection: { kind: "sample", filter: { agent: "offline-heuristic" }, n: 5, seed: 3 } });
    expect(opted.items).toBe(1);
    await expect(createCampaign(t.prisma, null, { name: "ids", k: 1, annotatorIds: ["a1"], selection: { kind: "ids", trajectoryIds: [offlineId, selfIdentifying] } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("1 of the chosen trajectories was played or emulated by the offline heuristic model"),
    });
    await expect(createCampaign(t.prisma, null, { name: "only offline", k: 1, annotatorIds: ["a1"], selection: { kind: "filter", filter: { agent: "offline-heuristic" } } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Tick "Include offline-model trajectories"'),
    });
  });
});

describe("redacting model self-identification", () => {
  it("shows annotators no known model or endpoint name, over every shared-data item and the offline one", async () => {
    const names = await knownModelNames(t.prisma);
    expect(names).toEqual(expect.arrayContaining(["Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen3-8B", "gpt-5-mini", "Qwen/Qwen3-32B", "offline-heuristic", OFFLINE_MODEL_LABEL]));
    const selection = { kind: "filter" as const, filter: {} };
    const redacted = await createCampaign(t.prisma, null, { name: "redacted", k: 1, seed: 2, includeOffline: true, redactModelNames: true, annotatorIds: ["a2"], selection });
    const plain = await createCampaign(t.prisma, null, { name: "plain", k: 1, seed: 2, includeOffline: true, annotatorIds: ["a2"], selection });
    const [red, orig] = [await claimAll(redacted.id, "a2"), await claimAll(plain.id, "a2")];
    expect(red).toHaveLength(145);
    expect(orig).toHaveLength(145);

    // Any spelling of any known name, as a whole word, case-insensitive.
    const anyName = new RegExp(`(?<![\\p{L}\\p{N}])(${[...new Set(names.flatMap(nameVariants))].map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![\\p{L}\\p{N}])`, "iu");
    const leaks = red.flatMap(texts).filter((x) => anyName.test(x));
    expect(leaks).toEqual([]);
    // The plain campaign shows them, so the check above can fail.
    expect(orig.flatMap(texts).filter((x) => anyName.test(x)).length).toBeGreaterThanOrEqual(3);

    // Same items, same text except the names: compare item by item through the case instruction and step count.
    const byKey = (items: BlindedItem[]) => new Map(items.map((i) => [`${i.case.userInstruction}|${i.steps.length}|${i.finalAnswer?.length ?? -1}`, i]));
    const plainByKey = byKey(orig);
    let changed = 0;
    for (const r of red) {
      const o = [...plainByKey.values()].find((p) => p.case.userInstruction === r.case.userInstruction && p.steps.length === r.steps.length && texts(p).length === texts(r).length && texts(p).every((x, i) => x === texts(r)[i] || anyName.test(x)));
      expect(o, r.case.userInstruction).toBeDefined();
      if (texts(o!).some((x, i) => x !== texts(r)[i])) changed++;
    }
    expect(changed).toBeGreaterThanOrEqual(2); // the self-identifying thought and the offline trajectory
    const selfId = red.flatMap((i) => i.steps).find((s) => s.thought?.includes("double-checked with"));
    expect(selfId!.thought).toContain(` As ${REDACTED_MODEL}, a model by ${REDACTED_MODEL}, I double-checked with ${REDACTED_MODEL} and ${REDACTED_MODEL} before acting.`);
    expect(red.every((i) => i.campaign.redactModelNames)).toBe(true);

    // A revision reload (loadBlindedItem) is redacted the same way.
    const again = await loadBlindedItem(t.prisma, "a2", red[0]!.assignment.id);
    expect({ ...again, assignment: null }).toEqual({ ...red[0]!, assignment: null });
  });
});
