"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { FileSummary, ImportProgress, ImportReport, ModelLabels } from "@/lib/toolemu/analyze";
import type { ApplyResult } from "@/lib/toolemu/apply";
import { ProgressBar } from "@/components/ui/progress-bar";
import { ImportReportView } from "./import-report-view";
import { importVerdict, type ImportVerdict } from "@/lib/toolemu/verdict";
import { uploadFiles, type WizardStage } from "./upload";

type Preview = { report: ImportReport; changes: string[] };
type Applied = Preview & { written: ApplyResult | null };
type Overrides = Record<string, ModelLabels>;

interface Props {
  preview: (i: { uploadId: string; overrides: Overrides }) => Promise<ActionResult<Preview>>;
  apply: (i: { uploadId: string; overrides: Overrides; acceptChanges: boolean }) => Promise<ActionResult<Applied>>;
  /** The server's upload size cap (UPLOAD_MAX_BYTES), checked here too so a refusal comes before the bytes are sent. */
  maxUploadBytes?: number;
  maxUploadLabel?: string;
}

type Stage = WizardStage<Preview, Applied>;

/** Polls the server's progress for this upload while `active`. */
function useServerProgress(uploadId: string | null, active: boolean): ImportProgress | null {
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  useEffect(() => {
    if (!uploadId || !active) return;
    let stop = false;
    const tick = async () => {
      try {
        const res = await fetch(`/api/import/progress/${uploadId}`);
        if (res.ok && !stop) setProgress((await res.json()).progress);
      } catch {
        /* next tick */
      }
      if (!stop) setTimeout(tick, 400);
    };
    void tick();
    return () => {
      stop = true;
      setProgress(null);
    };
  }, [uploadId, active]);
  return progress;
}

const VERDICT_TONE: Record<ImportVerdict["kind"], string> = {
  blocked: "border-rose-200 bg-rose-50 text-rose-900",
  none: "border-slate-200 bg-slate-100 text-slate-800",
  confirm: "border-amber-200 bg-amber-50 text-amber-900",
  ready: "border-emerald-200 bg-emerald-50 text-emerald-900",
};

/** The one verdict of a preview: what will happen if anything. */
function VerdictBanner({ verdict }: { verdict: ImportVerdict }) {
  return (
    <div role={verdict.kind === "blocked" ? "alert" : "status"} data-testid="import-verdict" data-verdict={verdict.kind}
      className={`rounded-lg border px-4 py-3 text-sm ${VERDICT_TONE[verdict.kind]}`}>
      <p className="font-semibold">{verdict.title}</p>
      <p className="mt-0.5">{verdict.detail}</p>
    </div>
  );
}

function nothingToWrite(r: ImportReport): boolean {
  return [r.toolkits, r.cases, r.trajectories, r.evaluations].every((c) => c.new + c.changed === 0);
}

const modelFields: [keyof ModelLabels, string][] = [["agentModel", "Agent"], ["emulatorModel", "Emulator"], ["evaluatorModel", "Evaluator"]];

/** One row per file prefix with its model labels, editable. */
function ModelLabelsEditor({ files, overrides, onChange }: { files: FileSummary[]; overrides: Overrides; onChange: (o: Overrides) => void }) {
  const byPrefix = new Map<string, ModelLabels & { files: number; records: number }>();
  for (const f of files) {
    if (!f.prefix) continue;
    const e = byPrefix.get(f.prefix) ?? { files: 0, records: 0 };
    e.files++;
    if (f.kind === "trajectories") e.records = f.records;
    if (f.agentModel) e.agentModel = f.agentModel;
    if (f.emulatorModel) e.emulatorModel = f.emulatorModel;
    if (f.evaluatorModel) e.evaluatorModel = f.evaluatorModel;
    byPrefix.set(f.prefix, e);
  }
  if (!byPrefix.size) return null;
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-3" open={byPrefix.size <= 4}>
      <summary className="cursor-pointer text-sm font-medium text-slate-800">Model names read from {byPrefix.size} file group{byPrefix.size === 1 ? "" : "s"} — edit before confirming</summary>
      <div className="mt-3 max-h-96 overflow-auto" data-testid="model-names-scroll">
        <table className="min-w-full whitespace-nowrap text-xs">
          <thead className="text-left text-slate-500"><tr><th className="py-1 pr-2">File prefix</th>{modelFields.map(([, l]) => <th key={l} className="py-1 pr-2">{l}</th>)}</tr></thead>
          <tbody>
            {[...byPrefix.entries()].map(([prefix, e]) => (
              <tr key={prefix} className="border-t border-slate-100">
                <td className="whitespace-nowrap py-1 pr-2 font-mono" title={prefix}>{prefix}</td>
                {modelFields.map(([field, l]) => (
                  <td key={field} className="py-1 pr-2">
                    <input aria-label={`${l} model for ${prefix}`} className="w-48 rounded border border-slate-300 px-1.5 py-0.5"
                      value={overrides[prefix]?.[field] ?? e[field] ?? ""}
                      onChange={(ev) => onChange({ ...overrides, [prefix]: { ...overrides[prefix], [field]: ev.target.value } })} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function ImportWizard({ preview, apply, maxUploadBytes, maxUploadLabel }: Props) {
  const [files, setFiles] = useState<File[]>([]);
  const [stage, setStage] = useState<Stage>({ kind: "idle" });
  const [error, setError] = useState<string | null>(null);
  const [uploadId, setUploadId] = useState<string | null>(null);
  const [overrides, setOverrides] = useState<Overrides>({});
  const [accept, setAccept] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const serverProgress = useServerProgress(uploadId, stage.kind === "checking" || stage.kind === "applying");
  const busy = stage.kind === "uploading" || stage.kind === "checking" || stage.kind === "applying";

  useEffect(() => {
    // webkitdirectory is not a React prop; set it on the element.
    folderInput.current?.setAttribute("webkitdirectory", "");
  }, []);

  async function check(id: string, o: Overrides) {
    setStage({ kind: "checking" });
    const res = await preview({ uploadId: id, overrides: o });
    if (!res.ok) {
      setError(res.error);
      setStage({ kind: "idle" });
      return;
    }
    setStage({ kind: "preview", data: res.data });
  }

  async function start() {
    setError(null);
    const total = files.reduce((n, f) => n + f.size, 0);
    if (maxUploadBytes && total > maxUploadBytes) {
      setError(`These files add up to more than the upload limit of ${maxUploadLabel ?? `${maxUploadBytes} bytes`}. Upload them in several parts, or ask the administrator to raise UPLOAD_MAX_BYTES.`);
      return;
    }
    setAccept(false);
    setOverrides({});
    setStage({ kind: "uploading", fraction: 0 });
    try {
      const { uploadId: id } = await uploadFiles(files, (fraction) => setStage({ kind: "uploading", fraction }));
      setUploadId(id);
      await check(id, {});
    } catch (e) {
      setError((e as Error).message);
      setStage({ kind: "idle" });
    }
  }

  async function confirm() {
    if (!uploadId) return;
    setStage({ kind: "applying" });
    const res = await apply({ uploadId, overrides, acceptChanges: accept });
    if (!res.ok) {
      setError(res.error);
      setStage({ kind: "idle" });
      return;
    }
    if (!res.data.written) {
      setStage({ kind: "preview", data: res.data });
      return;
    }
    setStage({ kind: "done", data: res.data });
    setUploadId(null);
  }

  const totalMb = files.reduce((n, f) => n + f.size, 0) / 1e6;
  const fraction = serverProgress ? serverProgress.bytesDone / Math.max(1, serverProgress.bytesTotal) : null;

  return (
    <div className="max-w-4xl space-y-5">
      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" disabled={busy} onClick={() => fileInput.current?.click()} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">Choose files…</button>
          <button type="button" disabled={busy} onClick={() => folderInput.current?.click()} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">Choose a folder…</button>
          <input ref={fileInput} type="file" multiple accept=".json,.jsonl,.zip" className="sr-only" aria-label="Files to upload" data-testid="import-files"
            onChange={(e) => { setFiles([...(e.target.files ?? [])]); setStage({ kind: "idle" }); }} />
          <input ref={folderInput} type="file" multiple className="sr-only" aria-label="Folder to upload"
            onChange={(e) => { setFiles([...(e.target.files ?? [])].filter((f) => /\.(jsonl?|zip)$/i.test(f.name))); setStage({ kind: "idle" }); }} />
          <span className="text-sm text-slate-600">
            {files.length ? `${files.length} file${files.length === 1 ? "" : "s"}, ${totalMb.toFixed(1)} MB` : "No files chosen yet."}
          </span>
          <button type="button" disabled={!files.length || busy} onClick={start}
            className="ml-auto rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
            Check files
          </button>
        </div>
        {files.length > 0 && files.length <= 8 && (
          <ul className="mt-3 space-y-0.5 font-mono text-xs text-slate-600">{files.map((f) => <li key={f.name + f.size}>{f.name}</li>)}</ul>
        )}
      </div>

      {error && <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700">{error}</p>}
      {stage.kind === "uploading" && <ProgressBar value={stage.fraction} label="Uploading" />}
      {stage.kind === "checking" && <ProgressBar value={fraction} label={serverProgress ? `Checking ${serverProgress.file}` : "Checking files"} />}
      {stage.kind === "applying" && <ProgressBar value={fraction} label={serverProgress ? `Writing ${serverProgress.file}` : "Writing (one transaction)"} />}

      {stage.kind === "preview" && (
        <div className="space-y-4" data-testid="import-preview">
          <h2 className="text-lg font-medium">Preview — nothing has been written yet</h2>
          <VerdictBanner verdict={importVerdict(stage.data.report, stage.data.changes)} />
          <ImportReportView report={stage.data.report} />
          <ModelLabelsEditor files={stage.data.report.files} overrides={overrides} onChange={setOverrides} />
          {stage.data.changes.length > 0 && (
            <label className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              <input type="checkbox" checked={accept} onChange={(e) => setAccept(e.target.checked)} className="mt-0.5" />
              <span>Replace the existing records that changed: {stage.data.changes.join("; ")}.</span>
            </label>
          )}
          <div className="flex gap-3">
            {Object.keys(overrides).length > 0 && uploadId && (
              <button type="button" onClick={() => check(uploadId, overrides)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">Check again with these names</button>
            )}
            <button type="button" onClick={confirm}
              disabled={stage.data.report.issues.length > 0 || nothingToWrite(stage.data.report) || (stage.data.changes.length > 0 && !accept)}
              className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
              Write to the database
            </button>
          </div>
        </div>
      )}

      {stage.kind === "done" && stage.data.written && (
        <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900" data-testid="import-done">
          <p className="font-medium">Imported.</p>
          <p className="mt-1">
            {stage.data.written.toolkits} toolkits, {stage.data.written.cases} cases, {stage.data.written.trajectories} trajectories and {stage.data.written.evaluations} evaluations written
.
          </p>
          <p className="mt-2"><Link href="/trajectories" className="font-medium underline">Browse trajectories</Link></p>
        </div>
      )}
    </div>
  );
}
