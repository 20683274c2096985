import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { ComparePicker } from "@/components/toolemu/compare-picker";
import { CompareView } from "@/components/toolemu/compare-view";
import { caseHref } from "@/components/toolemu/case-link-list";
import { ModelText } from "@/components/toolemu/code-block";
import { decodeParam } from "@/components/toolemu/format";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadComparePage } from "@/lib/toolemu/queries/compare";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { title: "Compare trajectories" };

const REASONS = {
  missing: "Choose the trajectory to compare with.",
  same: "That is the same trajectory: choose another one.",
  "different-case": "That trajectory plays another case: only two trajectories of the same case can be compared.",
} as const;

export default async function CompareTrajectoriesPage({ params, searchParams }: Props) {
  await requirePermission("trajectory:read");
  const id = decodeParam((await params).id);
  const raw = (await searchParams).with;
  const withId = typeof raw === "string" && raw.trim() ? raw.trim().slice(0, 100) : undefined;
  const data = await loadComparePage(db(), id, withId);
  if (!data || !data.a) notFound();
  const a = data.a;
  return (
    <>
      <Breadcrumbs items={[{ href: "/trajectories", label: "Trajectories" }, { href: `/trajectories/${a.id}`, label: a.id }, { label: "Compare" }]} />
      <PageHeader
        title={<>Compare two trajectories of <Link href={caseHref(a.case.name)} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{a.case.name}</Link></>}
        description="Side by side: who played each, the evaluations, the steps aligned on the tool each called, and the final answers."
      >
        {data.ok && <Link href={`/trajectories/${data.b.id}/compare?with=${encodeURIComponent(a.id)}`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="compare-swap">Swap A and B</Link>}
      </PageHeader>
      <div className="mb-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <ComparePicker trajectoryId={a.id} candidates={data.candidates} selected={data.ok ? data.b.id : undefined} />
        {!data.ok && <p role="alert" className="mt-2 text-sm text-amber-800" data-testid="compare-problem">{REASONS[data.reason]}</p>}
      </div>
      <section aria-labelledby="compare-instruction" className="mb-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="compare-instruction" className="mb-1 text-sm font-semibold text-slate-700">User instruction</h2>
        <ModelText text={a.case.userInstruction} className="text-base text-slate-900" />
      </section>
      {data.ok && <CompareView a={a} b={data.b} pairs={data.pairs} />}
    </>
  );
}
