import { describe, expect, it } from "vitest";
import { crossOriginRefusal, jsonRefusal } from "./request-checks";

const req = (headers: Record<string, string>, url = "http://localhost:3000/api/annotate/x/next") => new Request(url, { method: "POST", headers });

describe("crossOriginRefusal", () => {
  const pub = "https://studio.lab.example";
  it.each([
    [{}, null],
    [{ "sec-fetch-site": "same-origin" }, null],
    [{ origin: "https://studio.lab.example" }, null],
    [{ origin: "http://localhost:3000", host: "localhost:3000" }, null],
    [{ "sec-fetch-site": "same-site" }, 403],
    [{ "sec-fetch-site": "cross-site", origin: "https://studio.lab.example" }, 403],
    [{ origin: "https://evil.example" }, 403],
    [{ origin: "https://other.lab.example", host: "localhost:3000" }, 403],
    [{ origin: "http://localhost:3001", host: "localhost:3000" }, 403],
    [{ origin: "null" }, 403],
  ] as [Record<string, string>, number | null][])("%j → %s", (headers, status) => {
    expect(crossOriginRefusal(req(headers), pub)?.status ?? null).toBe(status);
  });

  it("names the origin it refused", () => {
    expect(crossOriginRefusal(req({ origin: "https://evil.example" }), pub)?.error).toBe("Refused: this request came from another origin (https://evil.example).");
  });
});

describe("jsonRefusal", () => {
  it("wants application/json (parameters allowed), and no type only for an optional, absent body", () => {
    expect(jsonRefusal(req({ "content-type": "application/json; charset=utf-8" }))).toBeNull();
    expect(jsonRefusal(req({ "content-type": "text/plain" }))).toEqual({ status: 415, error: "Send the body as JSON (Content-Type: application/json, not text/plain)." });
    expect(jsonRefusal(req({ "content-type": "application/x-www-form-urlencoded" }))?.status).toBe(415);
    expect(jsonRefusal(req({}))?.status).toBe(415);
    expect(jsonRefusal(req({}), { bodyOptional: true })).toBeNull();
    expect(jsonRefusal(new Request("http://x/", { method: "POST", body: "{}" }), { bodyOptional: true })?.status).toBe(415);
  });
});
