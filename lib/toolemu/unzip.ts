// Zip archives of import files: streamed entry by entry to disk (only .json and .jsonl entries),
// so a large archive never sits in memory whole. What an archive may unpack to is capped — in
// total and as a ratio to the archive's size — so a small "zip bomb" cannot fill the disk.
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readSync, statSync, type WriteStream } from "node:fs";
import path from "node:path";
import { Unzip, UnzipInflate, UnzipPassThrough } from "fflate";
import { formatSize, uploadLimits } from "./upload-limits";

export interface ZipLimits {
  /** Bytes all archives sharing this budget may still unpack to; reduced as they do. */
  budget: { remaining: number; total: number };
  /** Most an archive may expand (unpacked ÷ archive size). */
  maxRatio: number;
}

/** An archive that would unpack to more than it may (an upload answers it with 413). */
export class ZipLimitError extends Error {}

/** A budget for one upload or import, from ZIP_MAX_UNPACKED_BYTES and ZIP_MAX_RATIO. */
function defaultZipLimits(): ZipLimits {
  const l = uploadLimits();
  return { budget: { remaining: l.zipMaxBytes, total: l.zipMaxBytes }, maxRatio: l.zipMaxRatio };
}

/** Keeps an entry's folder structure but never lets it escape `dest`. */
function safeEntryPath(dest: string, name: string): string | null {
  const parts = name.replace(/\\/g, "/").split("/").filter((p) => p && p !== "." && p !== "..");
  if (!parts.length || parts.some((p) => p.startsWith("__MACOSX"))) return null;
  return path.join(dest, ...parts);
}

export async function extractZip(zipPath: string, dest: string, limits: ZipLimits = defaultZipLimits()): Promise<string[]> {
  const archive = path.basename(zipPath);
  const head = Buffer.alloc(4);
  const fd = openSync(zipPath, "r");
  readSync(fd, head, 0, 4, 0);
  closeSync(fd);
  if (head.toString("latin1") !== "PK\x03\x04") throw new Error(`${archive} is not a zip archive`);
  // Small archives get some room: a tiny zip of a few JSON files may expand well past the ratio.
  const byRatio = Math.max(statSync(zipPath).size * limits.maxRatio, 1e6);
  let unpacked = 0;
  const written: string[] = [];
  const pending: Promise<void>[] = [];
  const outputs: WriteStream[] = [];
  let failure: Error | null = null;
  const input = createReadStream(zipPath);
  // Outputs whose buffer is full; reading the archive waits until each drained (or finished).
  const full = new Set<WriteStream>();
  const relieved = (o: WriteStream) => {
    if (full.delete(o) && full.size === 0 && !failure) input.resume();
  };
  const fail = (e: Error) => {
    failure ??= e;
    input.destroy();
    for (const o of outputs) o.destroy();
  };
  const unzip = new Unzip((entry) => {
    if (failure) return;
    const target = /\.jsonl?$/i.test(entry.name) ? safeEntryPath(dest, entry.name) : null;
    if (!target) return; // not started: fflate skips its data
    mkdirSync(path.dirname(target), { recursive: true });
    const out: WriteStream = createWriteStream(target);
    outputs.push(out);
    pending.push(new Promise((resolve) => out.on("close", () => (relieved(out), resolve())).on("error", (e) => fail(e))));
    written.push(target);
    entry.ondata = (err, chunk, final) => {
      if (failure) return;
      if (err) return fail(new Error(`${archive}: ${entry.name}: ${err.message}`));
      unpacked += chunk.length;
      if (unpacked > limits.budget.remaining) {
        entry.terminate();
        return fail(new ZipLimitError(
          `${archive}: ${entry.name}: the zip files of this import unpack to more than ${formatSize(limits.budget.total)} ` +
            `(limit: ZIP_MAX_UNPACKED_BYTES). Nothing was imported.`,
        ));
      }
      if (unpacked > byRatio) {
        entry.terminate();
        return fail(new ZipLimitError(
          `${archive}: ${entry.name}: the archive unpacks to more than ${limits.maxRatio} times its own size ` +
            `(${formatSize(byRatio)}), which import files never do — a "zip bomb"? (limit: ZIP_MAX_RATIO). Nothing was imported.`,
        ));
      }
      // Backpressure: stop reading the archive until the disk catches up.
      if (!out.write(chunk) && !full.has(out)) {
        full.add(out);
        input.pause();
        out.once("drain", () => relieved(out));
      }
      if (final) out.end();
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  await new Promise<void>((resolve, reject) => {
    const unreadable = (e: unknown) => new Error(`${archive} is not a readable zip archive (${(e as Error).message})`);
    input
      .on("data", (chunk) => {
        try {
          unzip.push(new Uint8Array(chunk as Buffer));
        } catch (e) {
          fail(unreadable(e));
        }
      })
      .on("end", () => {
        try {
          unzip.push(new Uint8Array(0), true);
        } catch (e) {
          fail(unreadable(e));
        }
        resolve();
      })
      .on("close", () => resolve())
      .on("error", reject);
  });
  for (const o of outputs) if (!o.writableEnded && !o.destroyed && failure) o.destroy();
  await Promise.all(pending);
  if (failure) throw failure;
  limits.budget.remaining -= unpacked;
  if (!written.length) throw new Error(`${archive} holds no .json or .jsonl files`);
  return written.sort();
}
