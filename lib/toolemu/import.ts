// The one entry point for imports, shared by the CLI, the import page and the embedded seed:
// collect files → analyse (validate, pair, count) → optionally apply in one transaction.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/lib/db/client";
import { extractZip } from "./unzip";
import { analyzeImport, type AnalyzeOptions, type ImportReport } from "./analyze";
import { applyImport, changesNeedingConfirmation, type ApplyResult } from "./apply";
import { collectFiles, type SourceFile } from "./read";

export interface RunImportOptions extends AnalyzeOptions {
  /** Only report what would happen. */
  dryRun?: boolean;
  acceptChanges?: boolean;
}

export interface RunImportResult {
  report: ImportReport;
  /** What needs confirmation before it is written (changed toolkits, cases, evaluations). */
  changes: string[];
  written: ApplyResult | null;
}

export async function runImport(db: Db, input: string[] | SourceFile[], opts: RunImportOptions = {}): Promise<RunImportResult> {
  if (input.length > 0 && typeof input[0] !== "string") return analyseAndApply(db, input as SourceFile[], opts);
  const paths = input as string[];
  const zips = paths.filter((p) => /\.zip$/i.test(p));
  // Zip archives are unpacked to a temporary folder and imported like folders.
  const unpacked = zips.length ? mkdtempSync(path.join(os.tmpdir(), "toolemu-zip-")) : null;
  try {
    const shown = new Map<string, string>(); // unpacked folder → the archive's name in messages
    const expanded: string[] = [];
    for (const p of paths) {
      if (!/\.zip$/i.test(p)) {
        expanded.push(p);
        continue;
      }
      const dir = path.join(unpacked!, `${expanded.length}-${path.basename(p)}`);
      try {
        await extractZip(p, dir);
      } catch (e) {
        return { report: emptyReport([{ file: p, line: null, field: null, message: (e as Error).message }]), changes: [], written: null };
      }
      shown.set(dir, p);
      expanded.push(dir);
    }
    const collected = collectFiles(expanded);
    if (collected.issues.length) return { report: emptyReport(collected.issues), changes: [], written: null };
    const files = collected.files.map((f) => {
      for (const [dir, zip] of shown) if (f.name.startsWith(dir)) return { ...f, name: `${zip}/${path.relative(dir, f.path)}` };
      return f;
    });
    return await analyseAndApply(db, files, opts);
  } finally {
    if (unpacked) rmSync(unpacked, { recursive: true, force: true });
  }
}

async function analyseAndApply(db: Db, files: SourceFile[], opts: RunImportOptions): Promise<RunImportResult> {
  const analysis = await analyzeImport(db, files, opts);
  const changes = changesNeedingConfirmation(analysis);
  if (opts.dryRun || analysis.report.issues.length || (changes.length && !opts.acceptChanges)) {
    return { report: analysis.report, changes, written: null };
  }
  const written = await applyImport(db, analysis, { acceptChanges: opts.acceptChanges, onProgress: opts.onProgress });
  return { report: analysis.report, changes, written };
}

function emptyReport(issues: ImportReport["issues"]): ImportReport {
  const c = { new: 0, unchanged: 0, changed: 0 };
  return { files: [], runs: [], toolkits: { ...c, changedNames: [] }, tools: 0, cases: { ...c, changedNames: [] }, trajectories: { ...c }, evaluations: { ...c, unparsed: 0 }, issues };
}
