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

type Props = { params: Promise<{ name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: decodeParam((await params).name) };
}

export default async function CasePage({ params, searchParams }: Props) {
  const user = await requirePermission("case:read");
  const name = decodeParam((await params).name);
  const source = (await searchParams).source;
  const c = await getCaseWithCriticalTools(db(), name, typeof source === "string" && source ? source : undefined);
  if (!c) notFound();
  const canCurate = can(user.role, "toolkit:curate");
  return (
    <>
      <Breadcrumbs items={[{ href: "/cases", label: "Cases" }, { label: c.name }]} />
      <PageHeader
        title={c.name}
        description={<>Source {c.source}<span className="mx-2 text-slate-300">·</span>{c.trajectoryCount} {c.trajectoryCount === 1 ? "trajectory" : "trajectories"}</>}
      />
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
              <Link href={`/trajectories?case=${encodeURIComponent(c.name)}`} className="mt-3 inline-block text-sm font-medium text-indigo-700 hover:underline">
                {c.trajectoryCount > c.trajectories.length ? `All ${c.trajectoryCount} trajectories, with filters →` : "Open in the trajectory browser →"}
              </Link>
            </>
          )}
        </Section>
      </div>
    </>
  );
}
