// Problems found in import files, each located at file:line and a field path.
import type { z } from "zod";

export interface ImportIssue {
  file: string;
  line: number | null;
  field: string | null;
  message: string;
}

export function formatIssue(i: ImportIssue): string {
  const where = i.line === null ? i.file : `${i.file}:${i.line}`;
  return i.field ? `${where}: ${i.field}: ${i.message}` : `${where}: ${i.message}`;
}

export class ImportFailed extends Error {
  constructor(readonly issues: ImportIssue[]) {
    super(`Import refused: ${issues.length} problem${issues.length === 1 ? "" : "s"}; nothing was written.\n${issues.slice(0, 50).map(formatIssue).join("\n")}`);
  }
}

function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

export function zodIssues(file: string, line: number | null, prefix: string, error: z.ZodError): ImportIssue[] {
  return error.issues.map((i) => ({ file, line, field: fieldPath(prefix, i.path) || null, message: i.message }));
}
