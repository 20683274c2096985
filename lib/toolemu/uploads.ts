// Files uploaded on the import page live in the data folder until they are imported or a day
// old, so a preview and its confirmation read exactly the same bytes.
import "server-only";
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { dataDir } from "@/lib/db/embedded";
import { AppError } from "@/lib/errors";
import type { SourceFile } from "./read";
import { boundaryOf, readMultipart, type PartSink } from "./multipart";
import { extractZip, ZipLimitError } from "./unzip";
import { formatSize, uploadLimits, type UploadLimits } from "./upload-limits";

const MAX_AGE_MS = 24 * 60 * 60_000;
const ID = /^[0-9a-f-]{36}$/;

function uploadsRoot(): string {
  return path.join(dataDir(), "uploads");
}

/** Keeps the relative path a browser sent (folder uploads) but never lets it escape the folder. */
function safeRelativeName(name: string): string {
  const parts = name.replace(/\\/g, "/").split("/").filter((p) => p && p !== "." && p !== "..");
  const cleaned = parts.map((p) => p.replace(/[^\w.\- ()+@]/g, "_")).join("/");
  if (!cleaned) throw new AppError(`Unusable file name "${name}".`, 400);
  return cleaned;
}

/** Uploads in progress per user, in this process (UPLOAD_MAX_CONCURRENT). */
const g = globalThis as unknown as { __uploadsInProgress?: Map<string, number> };
const inProgress = (g.__uploadsInProgress ??= new Map());

/**
 * Receives an upload (multipart form data, field "files", relative paths as file names) from an
 * already authorised user: refuses a declared size over the cap before reading a byte, streams
 * the files to disk counting bytes as they come (413 the moment the cap is passed, whatever the
 * request declared), unpacks zip archives within their caps, and keeps nothing if anything fails.
 */
export async function receiveUpload(req: Request, userId: string, limits: UploadLimits = uploadLimits()): Promise<string> {
  const tooLarge = () =>
    new AppError(`This upload is larger than the limit of ${formatSize(limits.maxBytes)} (UPLOAD_MAX_BYTES). Upload the files in several parts, or ask the administrator to raise the limit.`, 413);
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limits.maxBytes) throw tooLarge();
  const boundary = boundaryOf(req.headers.get("content-type"));
  if (!req.body) throw new AppError("The upload is empty: choose .json, .jsonl or .zip files.", 400);

  const running = inProgress.get(userId) ?? 0;
  if (running >= limits.maxConcurrentPerUser) {
    throw new AppError(`You already have ${running} upload${running === 1 ? "" : "s"} in progress (at most ${limits.maxConcurrentPerUser} at once, UPLOAD_MAX_CONCURRENT); wait for ${running === 1 ? "it" : "one"} to finish.`, 429);
  }
  inProgress.set(userId, running + 1);
  removeStaleUploads();
  const id = randomUUID();
  const dir = path.join(uploadsRoot(), id);
  mkdirSync(dir, { recursive: true });
  try {
    const saved: string[] = [];
    await readMultipart(countedBody(req.body, limits.maxBytes, tooLarge), boundary, (part) => {
      if (part.name !== "files" || !part.filename || !/\.(jsonl?|zip)$/i.test(part.filename)) return null;
      const rel = safeRelativeName(part.filename);
      const target = path.join(dir, rel);
      mkdirSync(path.dirname(target), { recursive: true });
      saved.push(rel);
      return fileSink(target);
    });
    if (!saved.length) throw new AppError("Choose .json, .jsonl or .zip files (toolkits, cases, trajectories and their _eval_ companions).", 400);
    // Unpacked beside the other files, within one budget for the whole upload; the archives are not kept.
    const zipLimits = { budget: { remaining: limits.zipMaxBytes, total: limits.zipMaxBytes }, maxRatio: limits.zipMaxRatio };
    for (const rel of saved.filter((r) => /\.zip$/i.test(r))) {
      const target = path.join(dir, rel);
      await extractZip(target, path.join(dir, rel.replace(/\.zip$/i, "")), zipLimits).catch((e) => {
        throw new AppError((e as Error).message, e instanceof ZipLimitError ? 413 : 400);
      });
      rmSync(target);
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  } finally {
    const n = (inProgress.get(userId) ?? 1) - 1;
    if (n > 0) inProgress.set(userId, n);
    else inProgress.delete(userId);
  }
  writeFileSync(path.join(dir, ".complete"), "");
  return id;
}

/** The request body, counted: throws `tooLarge()` as soon as more than `max` bytes arrived. */
async function* countedBody(body: ReadableStream<Uint8Array>, max: number, tooLarge: () => Error): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        throw new AppError("The upload was interrupted before it finished; nothing was kept. Try again.", 400);
      });
      if (done) return;
      total += value.length;
      if (total > max) throw tooLarge();
      yield value;
    }
  } finally {
    // Stop receiving: a refused upload is not read to its end.
    reader.cancel().catch(() => {});
  }
}

/** A file on disk as a multipart sink, waiting for the disk when it is slower than the network. */
function fileSink(target: string): PartSink {
  const out = createWriteStream(target);
  const failed = new Promise<never>((_, reject) => out.once("error", reject));
  failed.catch(() => {});
  return {
    async write(chunk) {
      if (!out.write(chunk)) await Promise.race([once(out, "drain"), failed]);
    },
    async end() {
      out.end();
      await Promise.race([once(out, "close"), failed]);
    },
  };
}

export function uploadFiles(id: string): SourceFile[] {
  if (!ID.test(id)) throw new AppError("Unknown upload.", 404);
  const dir = path.join(uploadsRoot(), id);
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    throw new AppError("This upload is no longer available (uploads are kept for a day); upload the files again.", 404);
  }
  return names
    .filter((n) => /\.jsonl?$/i.test(n))
    .sort()
    .map((n) => ({ path: path.join(dir, n), name: n }));
}

export function removeUpload(id: string): void {
  if (ID.test(id)) rmSync(path.join(uploadsRoot(), id), { recursive: true, force: true });
}

function removeStaleUploads(): void {
  try {
    for (const entry of readdirSync(uploadsRoot())) {
      const p = path.join(uploadsRoot(), entry);
      if (Date.now() - statSync(p).mtimeMs > MAX_AGE_MS) rmSync(p, { recursive: true, force: true });
    }
  } catch {
    /* no uploads yet */
  }
}
