// The offline model's protocol over real HTTP (plain fetch, no SDK): shapes, usage, stop
// sequences, errors, fault mode.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE_MODEL_LABEL } from "@/lib/llm/types";
import { parseFaults, pickFault, seededRandom } from "./faults";
import { startOfflineModel, type OfflineModelServer } from "./server";

const SCRIPTED = "Thought: look it up.\nAction: Search\nAction Input: {\"q\": 1}\nObservation: fake\nFinal Answer: done";

let s: OfflineModelServer;
beforeAll(async () => {
  s = await startOfflineModel({ faults: "", brain: () => SCRIPTED });
});
afterAll(() => s.close());

const post = (body: unknown, headers: Record<string, string> = {}, server = s) =>
  fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const chat = { model: "offline-heuristic", messages: [{ role: "system", content: "You are the agent." }, { role: "user", content: "Do the task." }] };

describe("offline model protocol", () => {
  it("answers a chat completion with usage", async () => {
    const res = await post(chat);
    expect(res.status).toBe(200);
    const j = await res.json();
    expect(j).toMatchObject({
      object: "chat.completion",
      model: "offline-heuristic",
      choices: [{ index: 0, message: { role: "assistant", content: SCRIPTED }, finish_reason: "stop" }],
    });
    expect(typeof j.id).toBe("string");
    expect(typeof j.created).toBe("number");
    const prompt = Math.ceil("You are the agent.".length / 4) + 4 + Math.ceil("Do the task.".length / 4) + 4;
    expect(j.usage).toEqual({ prompt_tokens: prompt, completion_tokens: Math.ceil(SCRIPTED.length / 4), total_tokens: prompt + Math.ceil(SCRIPTED.length / 4) });
    expect(res.headers.get("x-offline-model")).toBe(OFFLINE_MODEL_LABEL);
  });

  it("cuts the content at the first stop sequence and honours max_tokens", async () => {
    const j = await (await post({ ...chat, stop: ["Final Answer", "\nObservation:"] })).json();
    expect(j.choices[0].message.content).toBe("Thought: look it up.\nAction: Search\nAction Input: {\"q\": 1}");
    const one = await (await post({ ...chat, stop: "Action:" })).json();
    expect(one.choices[0].message.content).toBe("Thought: look it up.\n");
    const short = await (await post({ ...chat, max_tokens: 3 })).json();
    expect(short.choices[0]).toMatchObject({ message: { content: SCRIPTED.slice(0, 12) }, finish_reason: "length" });
  });

  it("accepts text-part arrays and developer/tool roles", async () => {
    const res = await post({ model: "x", messages: [{ role: "developer", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }, { role: "tool", content: "c" }] });
    expect(res.status).toBe(200);
  });

  it("lists the model", async () => {
    const j = await (await fetch(`${s.url}/models`)).json();
    expect(j.data.map((m: { id: string }) => m.id)).toEqual(["offline-heuristic"]);
  });

  it("answers bad requests with 400 JSON errors naming the field", async () => {
    const cases: [unknown, string][] = [
      ["{not json", "not valid JSON"],
      [[1, 2], "JSON object"],
      [{ messages: chat.messages }, "model"],
      [{ model: "m" }, "messages"],
      [{ model: "m", messages: [] }, "messages"],
      [{ model: "m", messages: [{ role: "wizard", content: "x" }] }, "messages[0].role"],
      [{ model: "m", messages: [{ role: "user", content: 3 }] }, "messages[0].content"],
      [{ ...chat, stop: 7 }, "stop"],
      [{ ...chat, max_tokens: -1 }, "max_tokens"],
      [{ ...chat, temperature: 5 }, "temperature"],
      [{ ...chat, stream: true }, "Streaming"],
    ];
    for (const [body, words] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const j = await res.json();
      expect(j.error.message).toContain(words);
      expect(j.error.type).toBe("invalid_request_error");
    }
    expect((await fetch(`${s.url}/embeddings`, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${s.url}/chat/completions`)).status).toBe(405);
  });
});

describe("fault mode", () => {
  it("parses the OFFLINE_LLM_FAULTS syntax and refuses nonsense", () => {
    expect(parseFaults("429=0.05,500=0.05,hang=0.05,malformed=0.05")).toMatchObject({ rate429: 0.05, rate500: 0.05, rateHang: 0.05, rateMalformed: 0.05 });
    expect(parseFaults("500, retryAfter=3, hangMs=250")).toMatchObject({ rate500: 1, retryAfterSeconds: 3, hangMs: 250 });
    expect(() => parseFaults("teapot=0.1")).toThrow(/Unknown fault "teapot"/);
    expect(() => parseFaults("429=2")).toThrow(/between 0 and 1/);
    expect(() => parseFaults("429=0.6,500=0.6")).toThrow(/add up/);
  });

  it("picks faults by the configured rates from a seeded sequence", () => {
    const f = parseFaults("429=0.25,500=0.25,hang=0.25,malformed=0.25");
    expect(pickFault(f, 0.1, 0)).toBe("429");
    expect(pickFault(f, 0.3, 0)).toBe("500");
    expect(pickFault(f, 0.6, 0)).toBe("hang");
    expect(pickFault(f, 0.8, 0.2)).toBe("malformed");
    expect(pickFault(f, 0.8, 0.7)).toBe("invalid-json");
    expect(pickFault(parseFaults(""), 0, 0)).toBe("ok");
    const a = seededRandom(42), b = seededRandom(42), c = seededRandom(43);
    const sa = Array.from({ length: 20 }, a), sb = Array.from({ length: 20 }, b), sc = Array.from({ length: 20 }, c);
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
    expect(sa.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it("fails the same requests for the same seed, at about the configured rates", async () => {
    const run = async (seed: number) => {
      const srv = await startOfflineModel({ faults: "429=0.2,500=0.2,malformed=0.2,retryAfter=3", seed, brain: () => "ok" });
      const statuses: string[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await post(chat, {}, srv);
        const text = await res.text();
        if (res.status === 429) expect(res.headers.get("retry-after")).toBe("3");
        let kind = String(res.status);
        if (res.status === 200) {
          try {
            kind = JSON.parse(text).choices ? "ok" : "no-choices";
          } catch {
            kind = "bad-json";
          }
        }
        statuses.push(kind);
      }
      const stats = { ...srv.stats, faults: { ...srv.stats.faults } };
      await srv.close();
      return { statuses, stats };
    };
    const a = await run(7);
    const b = await run(7);
    expect(a.statuses).toEqual(b.statuses);
    expect(a.stats.requests).toBe(40);
    const count = (k: string) => a.statuses.filter((x) => x === k).length;
    expect(count("429")).toBeGreaterThan(2);
    expect(count("500")).toBeGreaterThan(2);
    expect(count("no-choices") + count("bad-json")).toBeGreaterThan(2);
    expect(count("ok")).toBeGreaterThan(10);
    expect(a.stats.completions).toBe(count("ok"));
  });

  it("forces a fault for one request by header, or for the next requests by injectFaults", async () => {
    expect((await post(chat, { "x-offline-faults": "500" })).status).toBe(500);
    expect((await post(chat, { "x-offline-faults": "429=1" })).status).toBe(429);
    expect((await post(chat, { "x-offline-faults": "bogus" })).status).toBe(400);
    const bad = await post(chat, { "x-offline-faults": "invalid-json" });
    expect(bad.status).toBe(200);
    await expect(bad.json()).rejects.toThrow();
    expect((await post(chat)).status).toBe(200);
    s.injectFaults("429", "malformed");
    expect((await post(chat)).status).toBe(429);
    expect(await (await post(chat)).json()).not.toHaveProperty("choices");
    expect((await post(chat)).status).toBe(200);
  });

  it("hangs for hangMs, and a client that gives up frees the request", async () => {
    const srv = await startOfflineModel({ faults: "hangMs=150", brain: () => "late" });
    try {
      const t0 = Date.now();
      const slow = await post(chat, { "x-offline-faults": "hang" }, srv);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      expect((await slow.json()).choices[0].message.content).toBe("late");
      srv.injectFaults("hang");
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 30);
      await expect(fetch(`${srv.url}/chat/completions`, { method: "POST", body: JSON.stringify(chat), signal: ac.signal })).rejects.toThrow();
      // The server learns of the hang-up when its socket closes, which a busy machine may deliver
      // late: wait for it (the test's time limit bounds the wait), then check nothing was answered.
      while (srv.stats.inFlight > 0) await new Promise((r) => setTimeout(r, 10));
      expect(srv.stats.completions).toBe(1);
    } finally {
      await srv.close();
    }
  });
});
