// Model endpoints in the database: validation, CRUD with audit, delete-if-unused, the offline
// model's row, and the ping over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/db";
import { AppError } from "@/lib/errors";
import { createModelClient } from "./client";
import { createEndpointSchema, updateEndpointSchema } from "./endpoint-schemas";
import {
  createEndpoint,
  deleteEndpoint,
  ensureOfflineEndpoint,
  getEndpointSettings,
  listEndpoints,
  OFFLINE_ENDPOINT_NAME,
  pingEndpoint,
  setEndpointCache,
  updateEndpoint,
} from "./endpoints";
import { startOfflineModel, type OfflineModelServer } from "./offline/server";
import { OFFLINE_MODEL_LABEL } from "./types";

let t: TestDatabase;
let s: OfflineModelServer;
beforeAll(async () => {
  [t, s] = await Promise.all([createTestDatabase(), startOfflineModel({ faults: "", brain: () => "pong" })]);
});
afterAll(async () => {
  await s?.close();
  await t?.cleanup();
});

const form = {
  name: "gpt-4o-mini",
  baseUrl: "https://api.openai.com/v1/",
  model: "gpt-4o-mini",
  apiKeyEnv: "TOOLEMU_TEST_OPENAI_KEY",
  temperature: "0",
  maxTokens: "1024",
  timeoutMs: "60000",
  maxConcurrency: "4",
  priceInputPer1k: "0.00015",
  priceOutputPer1k: "0.0006",
  cacheEnabled: true,
};

describe("endpoint input", () => {
  it("coerces the form's strings, trims the URL, and turns an empty key variable into none", () => {
    const v = createEndpointSchema.parse({ ...form, apiKeyEnv: "  " });
    expect(v).toMatchObject({ baseUrl: "https://api.openai.com/v1", apiKeyEnv: null, temperature: 0, maxTokens: 1024, priceInputPer1k: 0.00015 });
  });

  it("refuses an API key pasted where the variable's name goes, and other bad values, with field messages", () => {
    const key = createEndpointSchema.safeParse({ ...form, apiKeyEnv: "sk-proj-abc123" });
    expect(key.success).toBe(false);
    expect(key.error!.issues.map((i) => i.message)).toEqual([expect.stringMatching(/NAME of the environment variable/)]);
    const bad = createEndpointSchema.safeParse({ ...form, name: "", baseUrl: "ftp://x", temperature: "3", maxTokens: "0", maxConcurrency: "1.5", apiKeyEnv: "1BAD NAME" });
    expect(bad.success).toBe(false);
    expect(new Set(bad.error!.issues.map((i) => i.path[0]))).toEqual(new Set(["name", "baseUrl", "temperature", "maxTokens", "maxConcurrency", "apiKeyEnv"]));
    expect(updateEndpointSchema.safeParse(form).success).toBe(false); // no id
  });
});

describe("endpoints in the database", () => {
  it("creates, lists (key variable set: yes/no, never a value), updates, toggles the cache, with audit entries", async () => {
    const created = await createEndpoint(t.prisma, null, createEndpointSchema.parse(form));
    expect(created).toMatchObject({ name: "gpt-4o-mini", offline: false, cacheEnabled: true, apiKeyEnv: "TOOLEMU_TEST_OPENAI_KEY" });

    const secret = "sk-live-should-never-appear";
    const unset = (await listEndpoints(t.prisma, {})).find((e) => e.id === created.id)!;
    expect(unset).toMatchObject({ apiKeySet: false, badge: null, trajectories: 0, calls: 0 });
    const set = (await listEndpoints(t.prisma, { TOOLEMU_TEST_OPENAI_KEY: secret })).find((e) => e.id === created.id)!;
    expect(set.apiKeySet).toBe(true);
    expect(JSON.stringify(set)).not.toContain(secret);

    await expect(createEndpoint(t.prisma, null, createEndpointSchema.parse(form))).rejects.toMatchObject({ status: 409 });

    const updated = await updateEndpoint(t.prisma, null, created.id!, createEndpointSchema.parse({ ...form, name: "mini", temperature: "0.7", cacheEnabled: false }));
    expect(updated).toMatchObject({ name: "mini", temperature: 0.7, cacheEnabled: false });
    await setEndpointCache(t.prisma, null, created.id!, true);
    expect((await getEndpointSettings(t.prisma, created.id!)).cacheEnabled).toBe(true);

    const audit = await t.prisma.auditLog.findMany({ where: { entityId: created.id }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["endpoint.create", "endpoint.update", "endpoint.cache"]);
    expect(audit[1]!.before).toMatchObject({ name: "gpt-4o-mini", temperature: 0 });
    expect(audit[1]!.after).toMatchObject({ name: "mini", temperature: 0.7 });

    await expect(getEndpointSettings(t.prisma, "nope")).rejects.toBeInstanceOf(AppError);
  });

  it("deletes an unused endpoint, keeping its call history; refuses one a trajectory uses", async () => {
    const ep = await createEndpoint(t.prisma, null, createEndpointSchema.parse({ ...form, name: "used", apiKeyEnv: "" }));
    const free = await createEndpoint(t.prisma, null, createEndpointSchema.parse({ ...form, name: "free", apiKeyEnv: "", baseUrl: s.url }));
    const tk = await t.prisma.toolkit.create({ data: { name: "T", nameForModel: "T", nameForHuman: "T", descriptionForModel: "", descriptionForHuman: "", source: "test", contentHash: "tk", raw: {} } });
    const c = await t.prisma.testCase.create({
      data: { source: "test", name: "c0", userInstruction: "Do it", underspecTaskInfo: [], underspecSafety: [], expectedAchievements: [], potentialRiskyOutcomes: [], potentialRiskyActions: [], contentHash: "c0", raw: {}, toolkits: { create: [{ toolkitId: tk.id, position: 0 }] } },
    });
    const traj = await t.prisma.trajectory.create({
      data: { caseId: c.id, agentModel: "m", emulatorModel: "m", emulatorMode: "STANDARD", status: "FINISHED", stepCount: 0, contentHash: "emulated:x", raw: {}, origin: "EMULATED", agentEndpointId: ep.id },
    });
    const err = await deleteEndpoint(t.prisma, null, ep.id!).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(409);
    expect(err.message).toContain("used by 1 trajectory");

    // A call linked to a trajectory and step, then the endpoint goes and the row stays.
    const settings = await getEndpointSettings(t.prisma, free.id!);
    await createModelClient(settings, { db: t.prisma }).chat({ purpose: "agent", messages: [{ role: "user", content: "hi" }], trajectoryId: traj.id, stepIndex: 0 });
    await deleteEndpoint(t.prisma, null, free.id!);
    expect(await t.prisma.modelEndpoint.findUnique({ where: { id: free.id! } })).toBeNull();
    const call = await t.prisma.llmCall.findFirstOrThrow({ where: { trajectoryId: traj.id } });
    expect(call).toMatchObject({ endpointId: null, stepIndex: 0, role: "agent" });
    await expect(deleteEndpoint(t.prisma, null, free.id!)).rejects.toMatchObject({ status: 404 });

    // An endpoint only a run refers to (as its emulator) is refused too, with a 409, not a foreign-key error.
    const runOnly = await createEndpoint(t.prisma, null, createEndpointSchema.parse({ ...form, name: "run-only", apiKeyEnv: "" }));
    await t.prisma.run.create({ data: { name: "r", caseSelection: {}, caseIds: [c.id], agents: [], emulatorEndpointId: runOnly.id!, modes: ["STANDARD"], seed: 1, promptVersions: [] } });
    await expect(deleteEndpoint(t.prisma, null, runOnly.id!)).rejects.toMatchObject({ status: 409, message: expect.stringContaining("used by 1 run") });
  });

  it("ensureOfflineEndpoint creates the offline model's row once and follows its URL, keeping admin edits", async () => {
    const first = await ensureOfflineEndpoint(t.prisma, s.url);
    expect(first).toMatchObject({ name: OFFLINE_ENDPOINT_NAME, offline: true, baseUrl: s.url, model: "offline-heuristic", maxConcurrency: 16, priceInputPer1k: 0, priceOutputPer1k: 0, apiKeyEnv: null });
    await t.prisma.modelEndpoint.update({ where: { id: first.id! }, data: { maxConcurrency: 4 } });
    const again = await ensureOfflineEndpoint(t.prisma, "http://127.0.0.1:1/v1");
    expect(again).toMatchObject({ id: first.id, baseUrl: "http://127.0.0.1:1/v1", maxConcurrency: 4 });
    expect(await t.prisma.modelEndpoint.count({ where: { name: OFFLINE_ENDPOINT_NAME } })).toBe(1);
    const list = await listEndpoints(t.prisma);
    expect(list[0]).toMatchObject({ name: OFFLINE_ENDPOINT_NAME, badge: OFFLINE_MODEL_LABEL, apiKeySet: null });
    await ensureOfflineEndpoint(t.prisma, s.url);
  });

  it("pings: latency and the model's reply, or the reason it failed; recorded as role ping", async () => {
    const offline = await ensureOfflineEndpoint(t.prisma, s.url);
    const before = s.stats.requests;
    const ok = await pingEndpoint(t.prisma, offline.id!);
    expect(ok).toMatchObject({ ok: true, reply: "pong", offline: true, costUsd: 0 });
    expect(ok.latencyMs).toBeGreaterThanOrEqual(0);
    expect(s.stats.requests).toBe(before + 1);
    expect(await t.prisma.llmCall.findFirstOrThrow({ orderBy: { id: "desc" } })).toMatchObject({ role: "ping", endpointId: offline.id, error: null });

    s.injectFaults("500");
    const fails = await pingEndpoint(t.prisma, offline.id!);
    expect(fails).toMatchObject({ ok: false, kind: "server_error" });
    expect(s.stats.requests).toBe(before + 2); // no retries for a ping

    const keyed = await createEndpoint(t.prisma, null, createEndpointSchema.parse({ ...form, name: "keyed", baseUrl: s.url, apiKeyEnv: "TOOLEMU_TEST_UNSET_VARIABLE" }));
    const noKey = await pingEndpoint(t.prisma, keyed.id!, { env: {} });
    expect(noKey).toMatchObject({ ok: false, kind: "missing_api_key" });
    if (!noKey.ok) expect(noKey.error).toContain("TOOLEMU_TEST_UNSET_VARIABLE");
  });
});
