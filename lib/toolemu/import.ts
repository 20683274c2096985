// The one entry point for imports, shared by the CLI, the import page and the embedded seed:
// collect files → analyse (validate, pair, count) → optionally apply in one transaction.
import type { Db } from "@/lib/db/client";
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
  let files: SourceFile[];
  if (typeof input[0] === "string" || input.length === 0) {
    const collected = collectFiles(input as string[]);
    if (collected.issues.length) {
      return { report: emptyReport(collected.issues), changes: [], written: null };
    }
    files = collected.files;
  } else {
    files = input as SourceFile[];
  }
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
  return { files: [], toolkits: { ...c, changedNames: [] }, tools: 0, cases: { ...c, changedNames: [] }, trajectories: { ...c }, evaluations: { ...c, unparsed: 0 }, issues };
}
