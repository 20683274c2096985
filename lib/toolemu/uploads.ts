// Files uploaded on the import page live in the data folder until they are imported or a day
// old, so a preview and its confirmation read exactly the same bytes.
import "server-only";
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import path from "node:path";
import { dataDir } from "@/lib/db/embedded";
import { AppError } from "@/lib/errors";
import type { SourceFile } from "./read";
import { extractZip } from "./unzip";

const MAX_AGE_MS = 24 * 60 * 60_000;
const ID = /^[0-9a-f-]{36}$/;

function uploadsRoot(): string {
  return path.join(dataDir(), "uploads");
}

/** Keeps the relative path a browser sent (folder uploads) but never lets it escape the folder. */
export function safeRelativeName(name: string): string {
  const parts = name.replace(/\\/g, "/").split("/").filter((p) => p && p !== "." && p !== "..");
  const cleaned = parts.map((p) => p.replace(/[^\w.\- ()+@]/g, "_")).join("/");
  if (!cleaned) throw new AppError(`Unusable file name "${name}".`, 400);
  return cleaned;
}

export async function saveUpload(files: File[]): Promise<string> {
  const usable = files.filter((f) => /\.(jsonl?|zip)$/i.test(f.name));
  if (!usable.length) throw new AppError("Choose .json, .jsonl or .zip files (toolkits, cases, trajectories and their _eval_ companions).", 400);
  removeStaleUploads();
  const id = randomUUID();
  const dir = path.join(uploadsRoot(), id);
  mkdirSync(dir, { recursive: true });
  try {
    for (const f of usable) {
      const rel = safeRelativeName(f.name);
      const target = path.join(dir, rel);
      mkdirSync(path.dirname(target), { recursive: true });
      // Streamed to disk: a large trajectory file never sits whole in memory.
      await pipeline(Readable.fromWeb(f.stream() as never), createWriteStream(target));
      if (/\.zip$/i.test(rel)) {
        // Unpacked beside the other files; the archive itself is not kept.
        await extractZip(target, path.join(dir, rel.replace(/\.zip$/i, ""))).catch((e) => {
          throw new AppError((e as Error).message, 400);
        });
        rmSync(target);
      }
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  writeFileSync(path.join(dir, ".complete"), "");
  return id;
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
