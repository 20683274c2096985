// Uploads: streamed multipart parsing, the size cap (declared and counted), the per-user limit
// on uploads in progress, and the caps on what zip archives unpack to.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { readMultipart, parsePartHeaders } from "./multipart";
import { parseSize, uploadLimits, type UploadLimits } from "./upload-limits";
import { receiveUpload, uploadFiles } from "./uploads";

const LIMITS: UploadLimits = { maxBytes: 10e6, maxConcurrentPerUser: 2, zipMaxBytes: 100e6, zipMaxRatio: 100 };

beforeAll(() => {
  process.env.TOOLEMU_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "uploads-test-"));
});
const uploadsDir = () => path.join(process.env.TOOLEMU_DATA_DIR!, "uploads");
const leftovers = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()) : []);

function form(files: Record<string, string | Uint8Array>, extra: Record<string, string> = {}): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(extra)) f.append(k, v);
  for (const [name, content] of Object.entries(files)) f.append("files", new Blob([content as BlobPart]), name);
  return f;
}

/** The bytes and content type a browser would send for `fd`. */
async function encode(fd: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const r = new Request("http://x/", { method: "POST", body: fd });
  return { bytes: new Uint8Array(await r.arrayBuffer()), type: r.headers.get("content-type")! };
}

/** A request whose body arrives in chunks of `size` bytes, without a Content-Length. */
function chunked(bytes: Uint8Array, type: string, size: number, opts: { stallAfter?: number } = {}): { req: Request; release: () => void } {
  let i = 0;
  let release = () => {};
  const stalled = new Promise<void>((r) => (release = r));
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (opts.stallAfter !== undefined && i >= opts.stallAfter) await stalled;
      if (i >= bytes.length) return c.close();
      c.enqueue(bytes.slice(i, i + size));
      i += size;
    },
  });
  return { req: new Request("http://x/", { method: "POST", body, headers: { "content-type": type }, duplex: "half" } as RequestInit), release };
}

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: AppError) => ({ status: e.status, message: e.message }));

describe("receiveUpload", () => {
  it("stores the files under their relative paths, also when chunks split the boundaries anywhere", async () => {
    const files = { "run/a_eval_agent_safe.jsonl": '{"x":1}\n{"x":2}\n', "toolkits.json": "[]", "notes.txt": "skipped" };
    const { bytes, type } = await encode(form(files, { other: "field" }));
    for (const size of [1, 7, 64, bytes.length]) {
      const { req } = chunked(bytes, type, size);
      const id = await receiveUpload(req, "user-1", LIMITS);
      const stored = uploadFiles(id);
      expect(stored.map((f) => f.name)).toEqual(["run/a_eval_agent_safe.jsonl", "toolkits.json"]);
      expect(readFileSync(stored[0]!.path, "utf8")).toBe(files["run/a_eval_agent_safe.jsonl"]);
    }
  });

  it("refuses a declared size over the cap before reading a byte (413)", async () => {
    const body = new ReadableStream({ pull: () => { throw new Error("the body was read"); } });
    const req = new Request("http://x/", { method: "POST", body, duplex: "half", headers: { "content-type": "multipart/form-data; boundary=b", "content-length": String(LIMITS.maxBytes + 1) } } as RequestInit);
    expect(await refusal(receiveUpload(req, "user-1", LIMITS))).toEqual({
      status: 413,
      message: "This upload is larger than the limit of 10 MB (UPLOAD_MAX_BYTES). Upload the files in several parts, or ask the administrator to raise the limit.",
    });
  });

  it("stops at the cap when the size was not declared, and keeps nothing (413)", async () => {
    const before = leftovers();
    const { bytes, type } = await encode(form({ "big.jsonl": "x".repeat(2000) }));
    const { req } = chunked(bytes, type, 100);
    expect(await refusal(receiveUpload(req, "user-1", { ...LIMITS, maxBytes: 1000 }))).toMatchObject({ status: 413 });
    expect(leftovers()).toEqual(before);
  });

  it("allows a user a limited number of uploads at once (429), others are not affected", async () => {
    const { bytes, type } = await encode(form({ "a.json": "[]" }));
    const slow = [chunked(bytes, type, 10, { stallAfter: 1 }), chunked(bytes, type, 10, { stallAfter: 1 })];
    const running = slow.map((s) => receiveUpload(s.req, "busy-user", LIMITS));
    const third = await refusal(receiveUpload(chunked(bytes, type, 10).req, "busy-user", LIMITS));
    expect(third).toEqual({ status: 429, message: "You already have 2 uploads in progress (at most 2 at once, UPLOAD_MAX_CONCURRENT); wait for one to finish." });
    expect(await receiveUpload(chunked(bytes, type, 10).req, "someone-else", LIMITS)).toMatch(/^[0-9a-f-]{36}$/);
    for (const s of slow) s.release();
    await Promise.all(running);
    expect(await receiveUpload(chunked(bytes, type, 10).req, "busy-user", LIMITS)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses what is not multipart, and a body cut before its closing boundary", async () => {
    const plain = new Request("http://x/", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(await refusal(receiveUpload(plain, "user-1", LIMITS))).toMatchObject({ status: 400, message: expect.stringMatching(/multipart form data/) });
    const { bytes, type } = await encode(form({ "a.json": "[]" }));
    const cut = chunked(bytes.slice(0, bytes.length - 10), type, 50).req;
    expect(await refusal(receiveUpload(cut, "user-1", LIMITS))).toMatchObject({ status: 400, message: expect.stringMatching(/ended before the closing boundary/) });
    // The client went away mid-upload: a clear 400, not a server error, and nothing kept.
    const before = leftovers();
    let sent = false;
    const broken = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent) return c.error(new Error("aborted"));
        sent = true;
        c.enqueue(bytes.slice(0, 20));
      },
    });
    const gone = new Request("http://x/", { method: "POST", body: broken, duplex: "half", headers: { "content-type": type } } as RequestInit);
    expect(await refusal(receiveUpload(gone, "user-1", LIMITS))).toEqual({ status: 400, message: "The upload was interrupted before it finished; nothing was kept. Try again." });
    expect(leftovers()).toEqual(before);
  });
});

describe("zip archives in uploads", () => {
  it("unpacks a zip beside the other files", async () => {
    const zip = zipSync({ "cases/all_cases.json": strToU8("[]"), "README": strToU8("not kept") });
    const { bytes, type } = await encode(form({ "bundle.zip": zip }));
    const id = await receiveUpload(chunked(bytes, type, 4096).req, "user-1", LIMITS);
    expect(uploadFiles(id).map((f) => f.name)).toEqual(["bundle/cases/all_cases.json"]);
  });

  it("refuses a zip that expands beyond the ratio, naming the entry, and keeps nothing (413)", async () => {
    const before = leftovers();
    // 50 MB of one repeated line packs into ~50 kB: a ratio near 1000.
    const bomb = zipSync({ "fine.json": strToU8("[]"), "bomb/trajectories.jsonl": new Uint8Array(50e6).fill(0x20) }, { level: 9 });
    const { bytes, type } = await encode(form({ "innocent.zip": bomb }));
    const r = await refusal(receiveUpload(chunked(bytes, type, 65536).req, "user-1", LIMITS));
    expect(r).toMatchObject({ status: 413, message: expect.stringMatching(/^innocent\.zip: bomb\/trajectories\.jsonl: the archive unpacks to more than 100 times its own size .*ZIP_MAX_RATIO/) });
    expect(leftovers()).toEqual(before);
  });

  it("refuses zips that together unpack to more than the total cap, naming the entry (413)", async () => {
    const before = leftovers();
    const one = zipSync({ "data.jsonl": strToU8('{"a":1}\n'.repeat(100_000)) }, { level: 0 });
    const { bytes, type } = await encode(form({ "a.zip": one, "b.zip": one }));
    const r = await refusal(receiveUpload(chunked(bytes, type, 65536).req, "user-1", { ...LIMITS, zipMaxBytes: 1.5e6 }));
    expect(r).toMatchObject({ status: 413, message: expect.stringMatching(/^b\.zip: data\.jsonl: the zip files of this import unpack to more than 1.5 MB \(limit: ZIP_MAX_UNPACKED_BYTES\)/) });
    expect(leftovers()).toEqual(before);
  });
});

describe("limits and parts", () => {
  it("reads sizes with units and refuses nonsense naming the variable", () => {
    expect(parseSize("X", "2GB")).toBe(2e9);
    expect(parseSize("X", "1.5 MiB")).toBe(1.5 * 2 ** 20);
    expect(uploadLimits({})).toEqual({ maxBytes: 2e9, maxConcurrentPerUser: 2, zipMaxBytes: 8e9, zipMaxRatio: 100 });
    expect(() => uploadLimits({ UPLOAD_MAX_BYTES: "lots" })).toThrow("UPLOAD_MAX_BYTES=lots is not a size; use bytes or a unit, e.g. UPLOAD_MAX_BYTES=500MB or UPLOAD_MAX_BYTES=2GB.");
    expect(() => uploadLimits({ ZIP_MAX_RATIO: "-1" })).toThrow("ZIP_MAX_RATIO=-1 must be a positive number.");
  });

  it("reads part headers as browsers write them", () => {
    expect(parsePartHeaders('Content-Disposition: form-data; name="files"; filename="dir/a %22b%22.json"\r\nContent-Type: application/json')).toEqual({ name: "files", filename: 'dir/a "b".json' });
    expect(parsePartHeaders("Content-Disposition: form-data; name=other")).toEqual({ name: "other", filename: null });
    expect(parsePartHeaders("Content-Type: text/plain")).toBeNull();
  });

  it("refuses part headers without end", async () => {
    async function* body() { yield strToU8(`--b\r\nContent-Disposition: form-data; name="x"${" ".repeat(20_000)}`); }
    await expect(readMultipart(body(), "b", () => null)).rejects.toThrow(/part headers are too long/);
  });
});
