import type { Metadata } from "next";
import { ImportWizard } from "@/components/import/import-wizard";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/server";
import { formatSize, uploadLimits } from "@/lib/toolemu/upload-limits";
import { applyImportAction } from "./_actions/apply-import";
import { previewImportAction } from "./_actions/preview-import";

export const metadata: Metadata = { title: "Import" };

export default async function ImportPage() {
  await requirePermission("data:import");
  const limits = uploadLimits();
  return (
    <>
      <PageHeader
        title="Import ToolEmu data"
        description="Upload toolkit specifications (JSON array), test cases (JSON array) and trajectory files (JSONL) with their _eval_agent_safe / _eval_agent_help_ignore_safety companions — as files, a folder or a .zip. Everything is checked first; nothing is written unless all of it is valid, and you confirm what will change."
      />
      <ImportWizard preview={previewImportAction} apply={applyImportAction} maxUploadBytes={limits.maxBytes} maxUploadLabel={formatSize(limits.maxBytes)} />
      <section className="mt-10 max-w-3xl text-sm text-slate-600">
        <h2 className="font-medium text-slate-800">How files are read</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>Trajectory files are paired with their evaluation companions by file prefix. Model names come from the ToolEmu file-name pattern <code className="font-mono text-xs">&lt;agent&gt;_emu-&lt;emulator&gt;_eval-&lt;evaluator&gt;_…</code>; you can edit them before confirming.</li>
          <li>Runs that carry underspecifications and risky outcomes/actions used ToolEmu&apos;s adversarial emulator and are stored as such.</li>
          <li>Importing the same trajectory twice (even from another folder) stores it once; its evaluations from each evaluator are kept side by side.</li>
          <li>An evaluation whose score could not be parsed is kept with no score, never dropped or guessed.</li>
          <li>One upload may be up to {formatSize(limits.maxBytes)}; a .zip may unpack to at most {limits.zipMaxRatio} times its size and {formatSize(limits.zipMaxBytes)} in all (set by the administrator: UPLOAD_MAX_BYTES, ZIP_MAX_RATIO, ZIP_MAX_UNPACKED_BYTES). Larger data: the command line below.</li>
          <li>The command line does the same: <code className="font-mono text-xs">npm run cli -- import &lt;files or folders…&gt;</code>.</li>
        </ul>
      </section>
    </>
  );
}
