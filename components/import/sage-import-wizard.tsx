"use client";

// The SAGE tab of the import page: choose family definitions and scenario files (or the release's
// folder), check them (nothing written), then write them in one transaction.
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { SageImportReport } from "@/lib/sage/import";
import { ProgressBar } from "@/components/ui/progress-bar";
import { uploadFiles, type WizardStage } from "./upload";

type Preview = { report: SageImportReport; changes: string[] };
type Applied = Preview & { written: { families: number; scenarios: number } | null };

interface Props {
  preview: (i: { uploadId: string }) => Promise<ActionResult<Preview>>;
  apply: (i: { uploadId: string; acceptChanges: boolean }) => Promise<ActionResult<Applied>>;
  maxUploadBytes?: number;
  maxUploadLabel?: string;
}

type Stage = WizardStage<Preview, Applied>;

const where = (i: { file: string; line: number | null; field: string | null; message: string }) => `${i.line === null ? i.file : `${i.file}:${i.line}`}${i.field ? ` ${i.field}` : ""}: ${i.message}`;

function ReportView({ report }: { report: SageImportReport }) {
  const rows: [string, { new: number; unchanged: number; changed: number }][] = [["Family definitions", report.families], ["Scenarios", report.scenarios]];
  return (
    <div className="space-y-4">
      <table className="min-w-full divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm" data-testid="sage-import-counts">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr><th className="px-3 py-1.5 text-left">Records</th><th className="px-3 py-1.5 text-right">New</th><th className="px-3 py-1.5 text-right">Unchanged</th><th className="px-3 py-1.5 text-right">Changed</th></tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map(([label, c]) => (
            <tr key={label}>
              <th scope="row" className="px-3 py-1.5 text-left font-medium text-slate-800">{label}</th>
              <td className="px-3 py-1.5 text-right tabular-nums text-emerald-700">{c.new}</td>
              <td className="px-3 py-1.5 text-right tabular-nums text-slate-500">{c.unchanged}</td>
              <td className={`px-3 py-1.5 text-right tabular-nums ${c.changed ? "font-semibold text-amber-700" : "text-slate-500"}`}>{c.changed}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.perDimension.some((d) => d.scenarios > 0) && (
        <ul className="text-sm text-slate-700" data-testid="sage-import-dimensions">
          {report.perDimension.filter((d) => d.scenarios > 0).map((d) => <li key={d.key}>{d.name}: {d.scenarios} scenario{d.scenarios === 1 ? "" : "s"} in {d.subcategories} subcategor{d.subcategories === 1 ? "y" : "ies"}</li>)}
        </ul>
      )}
      {report.scenarios.duplicates > 0 && <p className="text-sm text-slate-600">{report.scenarios.duplicates} scenario(s) appear in more than one file (e.g. seeds.json and benchmark.json) and count once.</p>}
      {report.mappings.length > 0 && (
        <details className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <summary className="cursor-pointer font-medium text-slate-800">{report.mappings.length} id(s) mapped to the taxonomy</summary>
          <ul className="mt-2 space-y-0.5 font-mono text-xs text-slate-600">{report.mappings.map((m) => <li key={m}>{m}</li>)}</ul>
        </details>
      )}
      {report.warnings.length > 0 && (
        <ul className="rounded-lg border border-amber-200 bg-amber-50 p-3 font-mono text-xs text-amber-900">{report.warnings.map((w, n) => <li key={n}>{where(w)}</li>)}</ul>
      )}
      {report.issues.length > 0 && (
        <div className="rounded-lg border border-rose-200 bg-rose-50 p-4" role="alert">
          <p className="text-sm font-medium text-rose-800">{report.issues.length} problem{report.issues.length === 1 ? "" : "s"} found — nothing will be written until they are fixed.</p>
          <ul className="mt-2 max-h-80 space-y-1 overflow-auto font-mono text-xs text-rose-900" data-testid="import-issues">{report.issues.slice(0, 200).map((i, n) => <li key={n}>{where(i)}</li>)}</ul>
        </div>
      )}
    </div>
  );
}

export function SageImportWizard({ preview, apply, maxUploadBytes, maxUploadLabel }: Props) {
  const [files, setFiles] = useState<File[]>([]);
  const [stage, setStage] = useState<Stage>({ kind: "idle" });
  const [error, setError] = useState<string | null>(null);
  const [uploadId, setUploadId] = useState<string | null>(null);
  const [accept, setAccept] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const busy = stage.kind === "uploading" || stage.kind === "checking" || stage.kind === "applying";

  useEffect(() => {
    folderInput.current?.setAttribute("webkitdirectory", "");
  }, []);

  async function start() {
    setError(null);
    if (maxUploadBytes && files.reduce((n, f) => n + f.size, 0) > maxUploadBytes) {
      setError(`These files add up to more than the upload limit of ${maxUploadLabel ?? `${maxUploadBytes} bytes`}; use npm run cli -- import sage <folder>.`);
      return;
    }
    setAccept(false);
    setStage({ kind: "uploading", fraction: 0 });
    try {
      const { uploadId: id } = await uploadFiles(files, (fraction) => setStage({ kind: "uploading", fraction }));
      setUploadId(id);
      setStage({ kind: "checking" });
      const res = await preview({ uploadId: id });
      if (!res.ok) throw new Error(res.error);
      setStage({ kind: "preview", data: res.data });
    } catch (e) {
      setError((e as Error).message);
      setStage({ kind: "idle" });
    }
  }

  async function confirm() {
    if (!uploadId) return;
    setStage({ kind: "applying" });
    const res = await apply({ uploadId, acceptChanges: accept });
    if (!res.ok) {
      setError(res.error);
      setStage({ kind: "idle" });
      return;
    }
    if (!res.data.written) setStage({ kind: "preview", data: res.data });
    else {
      setStage({ kind: "done", data: res.data });
      setUploadId(null);
    }
  }

  const nothingToWrite = (r: SageImportReport) => r.families.new + r.families.changed + r.scenarios.new + r.scenarios.changed === 0;

  return (
    <div className="max-w-4xl space-y-5" data-testid="sage-import">
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" disabled={busy} onClick={() => fileInput.current?.click()} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">Choose files…</button>
          <button type="button" disabled={busy} onClick={() => folderInput.current?.click()} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">Choose a folder…</button>
          <input ref={fileInput} type="file" multiple accept=".json,.zip" className="sr-only" aria-label="SAGE files to upload" data-testid="sage-import-files"
            onChange={(e) => { setFiles([...(e.target.files ?? [])]); setStage({ kind: "idle" }); }} />
          <input ref={folderInput} type="file" multiple className="sr-only" aria-label="SAGE folder to upload"
            onChange={(e) => { setFiles([...(e.target.files ?? [])].filter((f) => /\.(json|zip)$/i.test(f.name))); setStage({ kind: "idle" }); }} />
          <span className="text-sm text-slate-600">{files.length ? `${files.length} file${files.length === 1 ? "" : "s"}` : "No files chosen yet."}</span>
          <button type="button" disabled={!files.length || busy} onClick={start} className="ml-auto rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50">Check files</button>
        </div>
      </div>
      {error && <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700">{error}</p>}
      {stage.kind === "uploading" && <ProgressBar value={stage.fraction} label="Uploading" />}
      {stage.kind === "checking" && <ProgressBar value={null} label="Checking files" />}
      {stage.kind === "applying" && <ProgressBar value={null} label="Writing (one transaction)" />}
      {stage.kind === "preview" && (
        <div className="space-y-4" data-testid="sage-import-preview">
          <h2 className="text-lg font-medium">Preview — nothing has been written yet</h2>
          <ReportView report={stage.data.report} />
          {stage.data.changes.length > 0 && (
            <label className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              <input type="checkbox" checked={accept} onChange={(e) => setAccept(e.target.checked)} className="mt-0.5" />
              <span>Replace the existing records that changed: {stage.data.changes.join("; ")}.</span>
            </label>
          )}
          {nothingToWrite(stage.data.report) && stage.data.report.issues.length === 0 && <p role="status" className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">Everything in these files is already imported; there is nothing to write.</p>}
          <button type="button" onClick={confirm} disabled={stage.data.report.issues.length > 0 || nothingToWrite(stage.data.report) || (stage.data.changes.length > 0 && !accept)} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
            Write to the database
          </button>
        </div>
      )}
      {stage.kind === "done" && stage.data.written && (
        <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900" data-testid="sage-import-done">
          <p className="font-medium">Imported.</p>
          <p className="mt-1">{stage.data.written.families} family definition(s) and {stage.data.written.scenarios} scenario(s) written.</p>
          <p className="mt-2"><Link href="/sage" className="font-medium underline">Browse SAGE scenarios</Link></p>
        </div>
      )}
    </div>
  );
}
