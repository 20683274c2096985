import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { CodeBlock } from "@/components/toolemu/code-block";
import { requirePermission } from "@/lib/auth/server";
import { listTemplates } from "@/lib/engine/template-registry";

export const metadata: Metadata = { title: "Prompt templates" };

const ROLE_LABELS: Record<string, string> = { agent: "Agent", emulator: "Emulator", critique: "Emulator critique", evaluator: "Evaluator", critic: "Critic (InferAct and baselines)", "simulated-user": "Simulated user" };

// Read-only: templates are code, versioned; a trajectory's settings name the id@version it used.
export default async function PromptsPage() {
  await requirePermission("run:read");
  const templates = listTemplates();
  return (
    <>
      <PageHeader
        title="Prompt templates"
        description="Every prompt the engine sends, as versioned templates. Trajectories record the id@version of each template they used. {placeholders} are filled from the test case, the tool specifications and the history. Templates are changed in code (lib/emulation/prompts, lib/evaluation/prompts, lib/critic/prompts); a changed text gets a new version."
      />
      <nav aria-label="Templates" className="mb-6 flex flex-wrap gap-2 text-sm">
        {templates.map((t) => (
          <a key={t.ref} href={`#${t.ref}`} className="rounded-full border border-slate-300 bg-white px-3 py-1 font-mono text-xs text-slate-700 hover:border-indigo-400 hover:text-indigo-700">{t.ref}</a>
        ))}
      </nav>
      <div className="space-y-6">
        {templates.map((t) => (
          <section key={t.ref} id={t.ref} className="scroll-mt-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="prompt-template">
            <div className="flex flex-wrap items-baseline gap-3">
              <h2 className="text-lg font-semibold">{t.title}</h2>
              <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">{t.ref}</code>
              <span className="text-xs text-slate-500">{ROLE_LABELS[t.role] ?? t.role}</span>
            </div>
            <p className="mt-1 text-sm text-slate-600">{t.description}</p>
            {t.placeholders.length > 0 && (
              <p className="mt-2 text-xs text-slate-500">Placeholders: {t.placeholders.map((p) => <code key={p} className="mr-1.5 rounded bg-slate-50 px-1">{`{${p}}`}</code>)}</p>
            )}
            <div className="mt-3 grid gap-4 xl:grid-cols-2">
              <div className="min-w-0"><h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">System message</h3><CodeBlock text={t.system} label={`${t.ref} system`} /></div>
              <div className="min-w-0"><h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">User message</h3><CodeBlock text={t.user} label={`${t.ref} user`} /></div>
            </div>
          </section>
        ))}
      </div>
    </>
  );
}
