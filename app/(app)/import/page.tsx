import type { Metadata } from "next";
import Link from "next/link";
import { ImportWizard } from "@/components/import/import-wizard";
import { SageImportWizard } from "@/components/import/sage-import-wizard";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/server";
import { formatSize, uploadLimits } from "@/lib/toolemu/upload-limits";
import { applyImportAction } from "./_actions/apply-import";
import { previewImportAction } from "./_actions/preview-import";
import { applySageImportAction } from "./_actions/apply-sage-import";
import { previewSageImportAction } from "./_actions/preview-sage-import";

export const metadata: Metadata = { title: "Import" };

function KindTabs({ sage }: { sage: boolean }) {
  const tab = (active: boolean) => `rounded-md px-3 py-1.5 text-sm font-medium ${active ? "bg-indigo-600 text-white" : "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`;
  return (
    <nav aria-label="What to import" className="mb-5 flex gap-2" data-testid="import-kind">
      <Link href="/import" className={tab(!sage)} aria-current={!sage ? "page" : undefined}>ToolEmu data</Link>
      <Link href="/import?kind=sage" className={tab(sage)} aria-current={sage ? "page" : undefined}>SAGE scenarios</Link>
    </nav>
  );
}

export default async function ImportPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("data:import");
  const limits = uploadLimits();
  if ((await searchParams).kind === "sage") {
    return (
      <>
        <PageHeader
          title="Import SAGE scenarios"
          description="Upload ForesightSafety-SAGE family definitions (data/families/<dimension>/<subcategory>.json) and scenario files (seeds.json, or whole benchmark.json / generation_selected_60*.json files) — as files, a folder (the release's data/ folder works) or a .zip. Everything is checked first; nothing is written unless all of it is valid."
        />
        <KindTabs sage />
        <SageImportWizard preview={previewSageImportAction} apply={applySageImportAction} maxUploadBytes={limits.maxBytes} maxUploadLabel={formatSize(limits.maxBytes)} />
        <section className="mt-10 max-w-3xl text-sm text-slate-600">
          <h2 className="font-medium text-slate-800">How SAGE files are read</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>A file with <code className="font-mono text-xs">instances</code> is a scenario file; one with a family id, definition and attacker profile is a family definition.</li>
            <li>Ids are mapped to the taxonomy of 5 dimensions and 16 subcategories: <code className="font-mono text-xs">interaction_understanding_distortion</code> is Interaction Understanding Failure; <code className="font-mono text-xs">negative_side_effects</code> and the release&apos;s misspelled folder <code className="font-mono text-xs">side_sffect_negligence_seeds</code> are Negative Side Effects (<code className="font-mono text-xs">side_effect_negligence</code>). The preview lists every mapping it made.</li>
            <li>A folder named <code className="font-mono text-xs">&lt;subcategory&gt;_seeds</code> must agree with the ids in its files.</li>
            <li>A scenario is identified by its <code className="font-mono text-xs">instance_id</code>: importing it again changes nothing; the same scenario in seeds.json and benchmark.json counts once; a changed one is replaced only when you confirm.</li>
            <li>The command line does the same: <code className="font-mono text-xs">npm run cli -- import sage &lt;files or folders…&gt;</code>.</li>
          </ul>
        </section>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Import ToolEmu data"
        description="Upload toolkit specifications (JSON array), test cases (JSON array) and trajectory files (JSONL) with their _eval_agent_safe / _eval_agent_help_ignore_safety companions — as files, a folder or a .zip. Everything is checked first; nothing is written unless all of it is valid, and you confirm what will change."
      />
      <KindTabs sage={false} />
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
