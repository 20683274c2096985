// Reading import files: whole JSON arrays (toolkits and cases files are small) and JSONL
// streamed line by line (trajectory files can be hundreds of MB).
import { createReadStream, readdirSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import type { ImportIssue } from "./issues";
import { relieveHeap } from "./heap";
import { arrayElementLines, checkJsonText, lineAt, shortSyntaxError, syntaxErrorLine } from "./locate";

/** A line longer than this is refused rather than parsed (a trajectory is ~10–100 KB). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
const MAX_JSON_FILE_BYTES = 64 * 1024 * 1024;

export interface SourceFile {
  /** Absolute path on disk. */
  path: string;
  /** The name shown in messages (relative path or the uploaded name). */
  name: string;
}

/** Expands folders into their .json and .jsonl files (sorted); other files are ignored. */
export function collectFiles(inputs: string[], cwd = process.cwd()): { files: SourceFile[]; issues: ImportIssue[] } {
  const files: SourceFile[] = [];
  const issues: ImportIssue[] = [];
  const walk = (abs: string, shown: string) => {
    const st = statSync(abs);
    if (st.isDirectory()) {
      for (const entry of readdirSync(abs).sort()) walk(path.join(abs, entry), path.join(shown, entry));
    } else if (/\.jsonl?$/i.test(abs)) {
      files.push({ path: abs, name: shown });
    }
  };
  for (const input of inputs) {
    const abs = path.resolve(cwd, input);
    try {
      const st = statSync(/*turbopackIgnore: true*/ abs);
      if (st.isFile() && !/\.jsonl?$/i.test(abs)) {
        issues.push({ file: input, line: null, field: null, message: "not a .json or .jsonl file" });
        continue;
      }
      walk(abs, input);
    } catch {
      issues.push({ file: input, line: null, field: null, message: "no such file or folder" });
    }
  }
  if (!files.length && !issues.length) issues.push({ file: inputs.join(", ") || "(none)", line: null, field: null, message: "no .json or .jsonl files found" });
  return { files, issues };
}

export interface ArrayElement {
  value: unknown;
  line: number;
  index: number;
}

export async function readJsonArray(file: SourceFile): Promise<{ elements: ArrayElement[] } | { issue: ImportIssue }> {
  const size = statSync(file.path).size;
  if (size === 0) return { issue: { file: file.name, line: null, field: null, message: "the file is empty" } };
  if (size > MAX_JSON_FILE_BYTES) {
    return { issue: { file: file.name, line: null, field: null, message: `the file is ${(size / 2 ** 20).toFixed(0)} MiB; JSON files over ${MAX_JSON_FILE_BYTES / 2 ** 20} MiB are refused` } };
  }
  const { readFile } = await import("node:fs/promises");
  const text = (await readFile(file.path, "utf8")).replace(/^\uFEFF/, "");
  // Checked before JSON.parse: every syntax error gets a line, and text PostgreSQL cannot store or
  // nesting too deep to hash is refused here rather than failing the write.
  const problem = checkJsonText(text);
  if (problem) return { issue: { file: file.name, line: lineAt(text, problem.offset), field: null, message: problem.message } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { issue: { file: file.name, line: syntaxErrorLine(text, e), field: null, message: shortSyntaxError(e) } };
  }
  if (!Array.isArray(value)) return { issue: { file: file.name, line: 1, field: null, message: "expected a JSON array at the top level" } };
  const lines = arrayElementLines(text);
  return { elements: value.map((v, index) => ({ value: v, index, line: lines[index] ?? 1 })) };
}

export interface JsonlLine {
  line: number;
  /** Parsed JSON, or undefined when the line is blank (or skipped). */
  value?: unknown;
  /** Not parsed: `only` said so. */
  skipped?: true;
  issue?: ImportIssue;
}

export interface ReadJsonlOptions {
  /** Only these lines are parsed; the others are yielded as { line, skipped: true }. */
  only?: (line: number, text: string) => boolean;
  /**
   * The file was checked by the analysis pass and has not changed since (size and time): skip the
   * text scanner and parse directly (a changed record still fails its content-hash check).
   */
  checked?: boolean;
}

/** Streams a JSONL file; each line is parsed on its own, errors located by line. */
export async function* readJsonl(file: SourceFile, onBytes?: (n: number) => void, opts: ReadJsonlOptions = {}): AsyncGenerator<JsonlLine> {
  const stream = createReadStream(file.path, { encoding: "utf8", highWaterMark: 1 << 20 });
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  let sinceRelief = 0;
  try {
    for await (const text of rl) {
      line++;
      const bytes = Buffer.byteLength(text) + 1;
      onBytes?.(bytes);
      sinceRelief += bytes;
      if (sinceRelief > 4 << 20) {
        sinceRelief = 0;
        relieveHeap();
      }
      if (opts.only && !opts.only(line, text)) {
        yield { line, skipped: true };
        continue;
      }
      if (!text.trim()) {
        yield { line };
        continue;
      }
      if (text.length > MAX_LINE_BYTES) {
        yield { line, issue: { file: file.name, line, field: null, message: `the line is ${(text.length / 2 ** 20).toFixed(0)} MiB, more than the ${MAX_LINE_BYTES / 2 ** 20} MiB a record may have` } };
        continue;
      }
      const record = line === 1 ? text.replace(/^\uFEFF/, "") : text;
      const problem = opts.checked ? null : checkJsonText(record);
      if (problem) {
        yield { line, issue: { file: file.name, line, field: null, message: problem.message } };
        continue;
      }
      try {
        yield { line, value: JSON.parse(record) };
      } catch (e) {
        yield { line, issue: { file: file.name, line, field: null, message: shortSyntaxError(e) } };
      }
    }
  } finally {
    rl.close();
    stream.destroy();
    relieveHeap();
  }
}
