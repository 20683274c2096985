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
import { startOfflineModel, type OfflineModelServer } from "@/lib/offline/server";
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
  apiKeyEnv: "LLM_KEY_TOOLEMU_TEST_OPENAI",
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
    // The token field defaults to max_tokens; anything but the two known fields is refused.
    expect(v.tokenParam).toBe("max_tokens");
    expect(createEndpointSchema.parse({ ...form, tokenParam: "max_completion_tokens" }).tokenParam).toBe("max_completion_tokens");
    expect(createEndpointSchema.safeParse({ ...form, tokenParam: "max_output_tokens" }).error?.issues.map((i) => i.path[0])).toEqual(["tokenParam"]);
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

  it("takes the key only from LLM_KEY_… or OPENAI_API_KEY, refusing the app's own secrets by name", () => {
    const message = (apiKeyEnv: string) => {
      const r = createEndpointSchema.safeParse({ ...form, apiKeyEnv });
      return r.success ? null : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join(" | ");
    };
    for (const name of ["NEXTAUTH_SECRET", "DATABASE_URL", "database_url", "TEST_DATABASE_URL"]) {
      expect(message(name)).toMatch(/^apiKeyEnv: .* is one of the app's own secrets and is never sent to a model endpoint/);
    }
    for (const name of ["HOME", "PATH", "AWS_SECRET_ACCESS_KEY", "LLM_KEY_", "llm_key_x", "MY_LLM_KEY_X"]) {
      expect(message(name)).toMatch(/^apiKeyEnv: Only variables named LLM_KEY_… .* or OPENAI_API_KEY may hold an endpoint's key/);
    }
    for (const name of ["OPENAI_API_KEY", "LLM_KEY_OPENROUTER", "LLM_KEY_a1"]) expect(message(name)).toBeNull();
  });
});

describe("endpoints in the database", () => {
  it("creates, lists (key variable set: yes/no, never a value), updates, toggles the cache, with audit entries", async () => {
    const created = await createEndpoint(t.prisma, null, createEndpointSchema.parse(form));
    expect(created).toMatchObject({ name: "gpt-4o-mini", offline: false, cacheEnabled: true, apiKeyEnv: "LLM_KEY_TOOLEMU_TEST_OPENAI", tokenParam: "max_tokens" });

    const secret = "sk-live-should-never-appear";
    const unset = (await listEndpoints(t.prisma, {})).find((e) => e.id === created.id)!;
    expect(unset).toMatchObject({ apiKeySet: false, badge: null, trajectories: 0, calls: 0 });
    const set = (await listEndpoints(t.prisma, { LLM_KEY_TOOLEMU_TEST_OPENAI: secret })).find((e) => e.id === created.id)!;
    expect(set.apiKeySet).toBe(true);
    expect(JSON.stringify(set)).not.toContain(secret);

    await expect(createEndpoint(t.prisma, null, createEndpointSchema.parse(form))).rejects.toMatchObject({ status: 409 });

    const updated = await updateEndpoint(t.prisma, null, created.id!, createEndpointSchema.parse({ ...form, name: "mini", temperature: "0.7", cacheEnabled: false, tokenParam: "max_completion_tokens" }));
    expect(updated).toMatchObject({ name: "mini", temperature: 0.7, cacheEnabled: false, tokenParam: "max_completion_tokens" });
    await setEndpointCache(t.prisma, null, created.id!, true);
    expect((await getEndpointSettings(t.prisma, created.id!)).cacheEnabled).toBe(true);

    const audit = await t.prisma.auditLog.findMany({ where: { entityId: created.id }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["endpoint.create", "endpoint.update", "endpoint.cache"]);
    expect(audit[1]!.before).toMatchObject({ name: "gpt-4o-mini", temperature: 0 });
    expect(audit[1]!.after).toMatchObject({ name: "mini", temperature: 0.7, tokenParam: "max_completion_tokens" });

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

    const keyed = await createEndpoint(t.prisma, null, createEndpointSchema.parse({ ...form, name: "keyed", baseUrl: s.url, apiKeyEnv: "LLM_KEY_TOOLEMU_TEST_UNSET" }));
    const noKey = await pingEndpoint(t.prisma, keyed.id!, { env: {} });
    expect(noKey).toMatchObject({ ok: false, kind: "missing_api_key" });
    if (!noKey.ok) expect(noKey.error).toContain("LLM_KEY_TOOLEMU_TEST_UNSET");
  });

  it("an endpoint saved before the name rule never sends that variable, and the page does not say whether it is set", async () => {
    // Written around the schema, as a row from before the rule would be.
    const legacy = await t.prisma.modelEndpoint.create({
      data: { name: "legacy", baseUrl: s.url, model: "m", apiKeyEnv: "NEXTAUTH_SECRET", temperature: 0, maxTokens: 16, timeoutMs: 5000, maxConcurrency: 1, priceInputPer1k: 0, priceOutputPer1k: 0, cacheEnabled: false, offline: false },
    });
    const secret = "the-app-session-secret";
    const withSecret = (await listEndpoints(t.prisma, { NEXTAUTH_SECRET: secret })).find((e) => e.id === legacy.id)!;
    const without = (await listEndpoints(t.prisma, {})).find((e) => e.id === legacy.id)!;
    expect(withSecret.apiKeySet).toBeNull();
    expect(withSecret).toEqual(without); // nothing on the page depends on whether the variable is set
    expect(withSecret.apiKeyProblem).toMatch(/one of the app's own secrets/);
    expect(JSON.stringify(withSecret)).not.toContain(secret);

    const before = s.stats.requests;
    const r = await pingEndpoint(t.prisma, legacy.id, { env: { NEXTAUTH_SECRET: secret } });
    expect(r).toMatchObject({ ok: false, kind: "refused_api_key", error: expect.stringContaining("NEXTAUTH_SECRET is not allowed, so no key was sent") });
    expect(s.stats.requests).toBe(before); // nothing left the server
    const call = await t.prisma.llmCall.findFirstOrThrow({ where: { endpointId: legacy.id }, orderBy: { createdAt: "desc" } });
    expect(call.error).toMatch(/^refused_api_key: /);
    expect(call.error).not.toContain(secret);

    // An allowed name still works (and says whether it is set).
    const fine = (await listEndpoints(t.prisma, { LLM_KEY_TOOLEMU_TEST_UNSET: "x" })).find((e) => e.name === "keyed")!;
    expect(fine).toMatchObject({ apiKeySet: true, apiKeyProblem: null });
  });
});
