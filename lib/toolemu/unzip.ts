// Zip archives of import files: streamed entry by entry to disk (only .json and .jsonl entries),
// so a large archive never sits in memory whole.
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readSync, type WriteStream } from "node:fs";
import path from "node:path";
import { Unzip, UnzipInflate, UnzipPassThrough } from "fflate";

/** Keeps an entry's folder structure but never lets it escape `dest`. */
function safeEntryPath(dest: string, name: string): string | null {
  const parts = name.replace(/\\/g, "/").split("/").filter((p) => p && p !== "." && p !== "..");
  if (!parts.length || parts.some((p) => p.startsWith("__MACOSX"))) return null;
  return path.join(dest, ...parts);
}

export async function extractZip(zipPath: string, dest: string): Promise<string[]> {
  const head = Buffer.alloc(4);
  const fd = openSync(zipPath, "r");
  readSync(fd, head, 0, 4, 0);
  closeSync(fd);
  if (head.toString("latin1") !== "PK\x03\x04") throw new Error(`${path.basename(zipPath)} is not a zip archive`);
  const written: string[] = [];
  const pending: Promise<void>[] = [];
  let failure: Error | null = null;
  const unzip = new Unzip((entry) => {
    const target = /\.jsonl?$/i.test(entry.name) ? safeEntryPath(dest, entry.name) : null;
    if (!target) return; // not started: fflate skips its data
    mkdirSync(path.dirname(target), { recursive: true });
    const out: WriteStream = createWriteStream(target);
    pending.push(new Promise((resolve, reject) => out.on("finish", () => resolve()).on("error", reject)));
    written.push(target);
    entry.ondata = (err, chunk, final) => {
      if (err) {
        failure = new Error(`${path.basename(zipPath)}: ${entry.name}: ${err.message}`);
        out.destroy();
        return;
      }
      out.write(chunk);
      if (final) out.end();
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  await new Promise<void>((resolve, reject) => {
    createReadStream(zipPath)
      .on("data", (chunk) => {
        try {
          unzip.push(new Uint8Array(chunk as Buffer));
        } catch (e) {
          reject(new Error(`${path.basename(zipPath)} is not a readable zip archive (${(e as Error).message})`));
        }
      })
      .on("end", () => {
        try {
          unzip.push(new Uint8Array(0), true);
          resolve();
        } catch (e) {
          reject(new Error(`${path.basename(zipPath)} is not a readable zip archive (${(e as Error).message})`));
        }
      })
      .on("error", reject);
  });
  await Promise.all(pending);
  if (failure) throw failure;
  if (!written.length) throw new Error(`${path.basename(zipPath)} holds no .json or .jsonl files`);
  return written.sort();
}
