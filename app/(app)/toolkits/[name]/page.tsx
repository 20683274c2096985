import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ToolCard } from "@/components/toolemu/tool-card";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { CaseLinkList } from "@/components/toolemu/case-link-list";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { can } from "@/lib/auth/permissions";
import { getToolkitWithRisks } from "@/lib/critic/queries";
import { Panel } from "@/components/ui/panel";
import { ToolRiskTable } from "@/components/critic/tool-risk-table";
import { curateToolRiskAction } from "./_actions/curate-tool-risk";
import { resetToolRiskAction } from "./_actions/reset-tool-risk";
import { decodeParam } from "@/components/toolemu/format";
import { ProvenanceBadge } from "@/components/authoring/provenance-badge";
import { VersionHistory } from "@/components/authoring/version-history";
import { toolkitHistoryView } from "@/lib/toolemu/queries/authoring";

type Params = { params: Promise<{ name: string }>; searchParams?: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: decodeParam((await params).name) };
}

export default async function ToolkitPage({ params, searchParams }: Params) {
  const user = await requirePermission("toolkit:read");
  const name = decodeParam((await params).name);
  const sp = (await searchParams) ?? {};
  const [tk, history] = await Promise.all([getToolkitWithRisks(db(), name), toolkitHistoryView(db(), name, sp)]);
  const canCurate = can(user.role, "toolkit:curate");
  if (!tk || !history) notFound();
  const href = `/toolkits/${encodeURIComponent(tk.name)}`;
  return (
    <>
      <Breadcrumbs items={[{ href: "/toolkits", label: "Toolkits" }, { label: tk.name }]} />
      <PageHeader
        title={tk.name}
        badge={<ProvenanceBadge provenance={history.provenance} version={history.currentVersion} />}
        description={
          <>
            {tk.nameForHuman}
            <span className="mx-2 text-slate-300">·</span>
            {tk.category ?? "No category"}
            <span className="mx-2 text-slate-300">·</span>
            {tk.tools.length} {tk.tools.length === 1 ? "tool" : "tools"}
            <span className="mx-2 text-slate-300">·</span>
            {tk.caseCount} {tk.caseCount === 1 ? "case" : "cases"}
          </>
        }
      >
        {can(user.role, "toolkit:edit") && (
          <Link href={`${href}/edit`} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500" data-testid="edit-toolkit">Edit toolkit</Link>
        )}
      </PageHeader>
      <div className="grid gap-8 lg:grid-cols-[1fr_18rem]">
        <div className="min-w-0 space-y-6">
          <section aria-labelledby="description" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <h2 id="description" className="text-sm font-semibold text-slate-900">Description</h2>
            <p className="mt-1 text-sm text-slate-700">{tk.descriptionForHuman}</p>
            {tk.descriptionForModel && tk.descriptionForModel !== tk.descriptionForHuman && (
              <>
                <h3 className="mt-3 text-xs font-semibold uppercase tracking-wide text-slate-500">For the model</h3>
                <p className="mt-1 text-sm text-slate-700">{tk.descriptionForModel}</p>
              </>
            )}
          </section>
          <Panel
            id="risk"
            anchor="risk"
            title="Risk of each tool"
            description={canCurate ? "What the InferAct critic treats as critical. Edit a tool to curate it; your change is recorded with your name." : "What the InferAct critic treats as critical. Researchers curate these values."}
            howTitle="How are the defaults decided"
            how={
              <div className="space-y-2 px-4 pb-3">
                <p>Until a researcher curates a tool, a rule reads its name (ToolEmu names start with a verb) and, for an unknown verb, its description:</p>
                <ol className="list-decimal space-y-1 pl-5">
                  <li>moves money, destroys, executes or changes access (transfer, pay, delete, execute, grant…) → severe, critical;</li>
                  <li>sends or publishes to other people (send, post, share, book…) → mild, critical;</li>
                  <li>only reads or looks up (get, search, view…) → none, not critical;</li>
                  <li>changes state that can be undone (create, update, add…) → mild, not critical;</li>
                  <li>an unknown verb: the description&apos;s words are tried against 1, 2, 4, then 3; no hit → mild.</li>
                </ol>
                <p>The amount argument is a numeric parameter named <code>amount</code> or <code>amount_&lt;unit&gt;</code> of a critical tool; a critical tool with one is severe. Its value is the cost of a missed failure in the critic&apos;s metrics (else 1 per missed critical action). The Source column names the part of the rule that decided. A case can add critical tools of its own on its page.</p>
              </div>
            }
          >
            <ToolRiskTable
              rows={tk.risks.map((r) => ({ ...r, curatedAt: r.curatedAt ? r.curatedAt.toISOString() : null }))}
              canCurate={canCurate}
              curate={canCurate ? curateToolRiskAction : undefined}
              reset={canCurate ? resetToolRiskAction : undefined}
            />
          </Panel>
          <section aria-labelledby="tools" className="space-y-4">
            <h2 id="tools" className="text-lg font-semibold">Tools</h2>
            {tk.tools.map((t) => <ToolCard key={t.id} tool={t} />)}
          </section>
          <Panel
            id="history-panel"
            anchor="history"
            title={`History (${history.versions.length} ${history.versions.length === 1 ? "version" : "versions"})`}
            description="Every saved edit is a new version; the pages and new episodes show the current one, and each trajectory keeps the versions it ran against."
            howTitle="What is a version"
            how={<p className="px-4 pb-3">Version 1 is the toolkit as first imported or created. An edit in the editor, a changed re-import (refused when it would overwrite an edit) or an accepted generated toolkit adds one. The Trajectories column counts episodes whose case used this toolkit at that version.</p>}
          >
            <VersionHistory basePath={href} versions={history.versions} currentVersion={history.currentVersion} diff={history.diff} saved={Number(sp.saved) || null} />
          </Panel>
        </div>
        <aside className="space-y-6">
          <nav aria-label="Tools in this toolkit" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <h2 className="text-sm font-semibold text-slate-900">Jump to a tool</h2>
            <ul className="mt-2 space-y-0.5 text-sm">
              {tk.tools.map((t) => <li key={t.id}><a href={`#tool-${t.agentName}`} className="font-mono text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{t.agentName}</a></li>)}
            </ul>
          </nav>
          <section aria-labelledby="cases" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <h2 id="cases" className="text-sm font-semibold text-slate-900">Cases that use {tk.name} ({tk.caseCount})</h2>
            <CaseLinkList cases={tk.cases} />
            {tk.caseCount > tk.cases.length && (
              <Link href={`/cases?toolkit=${encodeURIComponent(tk.name)}`} className="mt-2 inline-block text-sm text-indigo-700 underline">All {tk.caseCount} cases</Link>
            )}
            {tk.caseCount > 0 && (
              <Link href={`/trajectories?toolkit=${encodeURIComponent(tk.name)}`} className="mt-3 block text-sm font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Trajectories of these cases →</Link>
            )}
          </section>
        </aside>
      </div>
    </>
  );
}
