import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { Section, TextList } from "@/components/toolemu/text-list";
import { CaseTrajectoryTable } from "@/components/toolemu/case-trajectory-table";
import { decodeParam } from "@/components/toolemu/format";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { getCaseWithCriticalTools } from "@/lib/critic/queries";
import { can } from "@/lib/auth/permissions";
import { CaseCriticalToolsEditor } from "@/components/critic/case-critical-tools";
import { setCaseCriticalToolsAction } from "./_actions/set-case-critical-tools";
import { ProvenanceBadge } from "@/components/authoring/provenance-badge";
import { VersionHistory } from "@/components/authoring/version-history";
import { Panel } from "@/components/ui/panel";
import { caseHistoryView } from "@/lib/toolemu/queries/authoring";
import { TOOLEMU_SOURCE } from "@/lib/toolemu/normalize";

type Props = { params: Promise<{ name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: decodeParam((await params).name) };
}

export default async function CasePage({ params, searchParams }: Props) {
  const user = await requirePermission("case:read");
  const name = decodeParam((await params).name);
  const sp = await searchParams;
  const source = sp.source;
  const c = await getCaseWithCriticalTools(db(), name, typeof source === "string" && source ? source : undefined);
  if (!c) notFound();
  const canCurate = can(user.role, "toolkit:curate");
  const history = await caseHistoryView(db(), c.id, sp);
  const href = `/cases/${encodeURIComponent(c.name)}`;
  // Only ToolEmu-format cases are edited here (other sources are test fixtures).
  const canEdit = can(user.role, "case:edit") && c.source === TOOLEMU_SOURCE;
  return (
    <>
      <Breadcrumbs items={[{ href: "/cases", label: "Cases" }, { label: c.name }]} />
      <PageHeader
        title={c.name}
        badge={history && <ProvenanceBadge provenance={history.provenance} version={history.currentVersion} />}
        description={<>Source {c.source}<span className="mx-2 text-slate-300">·</span>{c.trajectoryCount} {c.trajectoryCount === 1 ? "trajectory" : "trajectories"}</>}
      >
        {canEdit && (
          <Link href={`${href}/edit`} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500" data-testid="edit-case">Edit case</Link>
        )}
      </PageHeader>
      <div className="space-y-4">
        <Section id="instruction" title="User instruction">
          <p className="whitespace-pre-wrap break-words text-base text-slate-900" data-testid="user-instruction">{c.userInstruction}</p>
        </Section>
        <Section id="toolkits" title="Toolkits">
          <ul className="flex flex-wrap gap-2">
            {c.toolkits.map((t) => (
              <li key={t.name}>
                <Link href={`/toolkits/${encodeURIComponent(t.name)}`} className="inline-block rounded-md border border-slate-200 bg-slate-50 px-2 py-1 text-sm text-indigo-700 hover:bg-indigo-50">
                  {t.name}{t.nameForHuman && t.nameForHuman !== t.name && <span className="ml-1 text-xs text-slate-500">{t.nameForHuman}</span>}
                </Link>
              </li>
            ))}
          </ul>
        </Section>
        <Section id="critical-tools" title="Critical tools (InferAct critic)">
          <CaseCriticalToolsEditor data={c.critical} toolkitNames={c.toolkits.map((t) => t.name)} canCurate={canCurate} save={canCurate ? setCaseCriticalToolsAction : undefined} />
        </Section>
        <div className="grid gap-4 md:grid-cols-2">
          <Section id="underspec-task" title="Underspecified task information">
            <TextList items={c.underspecTaskInfo} />
          </Section>
          <Section id="underspec-safety" title="Underspecified safety & security constraints">
            <TextList items={c.underspecSafety} />
          </Section>
        </div>
        <Section id="expected" title="Expected achievements">
          <TextList items={c.expectedAchievements} />
        </Section>
        <div className="grid gap-4 md:grid-cols-2">
          <Section id="risky-outcomes" title="Potential risky outcomes">
            <TextList items={c.potentialRiskyOutcomes} />
          </Section>
          <Section id="risky-actions" title="Potential risky actions">
            <TextList items={c.potentialRiskyActions} />
          </Section>
        </div>
        <Section id="trajectories" title={`Trajectories (${c.trajectoryCount})`}>
          {c.trajectoryCount === 0 ? (
            <p className="text-sm text-slate-500">No trajectories of this case have been imported or run yet.</p>
          ) : (
            <>
              <CaseTrajectoryTable caseName={c.name} trajectories={c.trajectories} />
              <Link href={`/trajectories?case=${encodeURIComponent(c.name)}`} className="mt-3 inline-block text-sm font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">
                {c.trajectoryCount > c.trajectories.length ? `All ${c.trajectoryCount} trajectories, with filters →` : "Open in the trajectory browser →"}
              </Link>
            </>
          )}
        </Section>
        {history && (
          <Panel
            id="history-panel"
            anchor="history"
            title={`History (${history.versions.length} ${history.versions.length === 1 ? "version" : "versions"})`}
            description="Every saved edit is a new version; each trajectory keeps the version it ran against (the Trajectories column counts them)."
            howTitle="What is a version"
            how={<p className="px-4 pb-3">Version 1 is the case as first imported or created. An edit in the editor, a changed re-import (refused when it would overwrite an edit) or an accepted generated case adds one. Episodes played now use the current version.</p>}
          >
            <VersionHistory basePath={href} versions={history.versions} currentVersion={history.currentVersion} diff={history.diff} saved={Number(sp.saved) || null} />
          </Panel>
        )}
      </div>
    </>
  );
}
