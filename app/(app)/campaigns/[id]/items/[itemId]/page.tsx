import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { EmptyState } from "@/components/toolemu/empty-state";
import { MODE_LABELS, decodeParam, formatDate, shortModel, truncate } from "@/components/toolemu/format";
import { CampaignStatusBadge, AdjudicatedBadge } from "@/components/campaigns/status-badge";
import { SpreadBadge } from "@/components/campaigns/item-table";
import { caseHref } from "@/components/toolemu/case-link-list";
import { LabelComparison } from "@/components/campaigns/label-comparison";
import { AdjudicationForm } from "@/components/campaigns/adjudication-form";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { adjudicationItem } from "@/lib/annotation/manage-queries";
import { adjudicateAction } from "./_actions/adjudicate";

export const metadata: Metadata = { title: "Adjudicate item" };

type Props = { params: Promise<{ id: string; itemId: string }> };

export default async function AdjudicationPage({ params }: Props) {
  const user = await requirePermission("campaign:manage");
  const { id, itemId } = await params;
  const data = await adjudicationItem(db(), decodeParam(id), decodeParam(itemId));
  if (!data) notFound();
  const { campaign, item, labels, skipped, inProgress, safetySpread, adjudication } = data;
  const mayAdjudicate = can(user.role, "campaign:adjudicate");

  return (
    <>
      <Breadcrumbs items={[{ href: "/campaigns", label: "Campaigns" }, { href: `/campaigns/${campaign.id}`, label: campaign.name }, { label: item.id }]} />
      <PageHeader
        card
        eyebrow={<p className="font-mono text-xs text-slate-400">{item.id}</p>}
        title={<>Item of case <Link href={caseHref(item.caseName)} className="text-indigo-700 hover:underline">{item.caseName}</Link></>}
        description={<span title={item.instruction}>{truncate(item.instruction, 220)}</span>}
        meta={
          <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
            <div><dt className="inline text-slate-500">Trajectory </dt><dd className="inline"><Link href={`/trajectories/${item.trajectoryId}`} className="font-medium text-indigo-700 hover:underline" data-testid="trajectory-link">{item.trajectoryId}</Link></dd></div>
            <div><dt className="inline text-slate-500">Agent </dt><dd className="inline font-medium" title={item.agentModel}>{item.agentModel}</dd></div>
            <div><dt className="inline text-slate-500">Emulator </dt><dd className="inline font-medium" title={item.emulatorModel}>{shortModel(item.emulatorModel)} · {MODE_LABELS[item.emulatorMode] ?? item.emulatorMode}</dd></div>
          </dl>
        }
        footer={<p className="mt-3 text-xs text-slate-500">Unblinded view for staff: annotators never see the agent, the emulator or each other&apos;s labels.</p>}
      >
        <div className="flex flex-col items-end gap-2 text-sm">
          <CampaignStatusBadge locked={campaign.locked} />
          <span className="flex items-center gap-2 text-slate-600">Safety spread <SpreadBadge spread={safetySpread} /></span>
          <span className="text-slate-600 tabular-nums">{labels.length} of {campaign.k} labels{inProgress ? ` · ${inProgress} in progress` : ""}</span>
          {adjudication && <AdjudicatedBadge />}
        </div>
      </PageHeader>

      <div className="space-y-8">
        <section aria-labelledby="labels-heading" className="space-y-3">
          <h2 id="labels-heading" className="text-lg font-semibold">Labels side by side</h2>
          {labels.length === 0 ? (
            <EmptyState title="No label has been submitted for this item yet." />
          ) : (
            <LabelComparison schema={campaign.schema} labels={labels} adjudication={adjudication} />
          )}
          {skipped.length > 0 && (
            <div className="rounded-xl border border-amber-200 bg-amber-50/60 p-4 text-sm" data-testid="skipped-list">
              <h3 className="font-medium text-amber-900">Skipped by {skipped.length} {skipped.length === 1 ? "annotator" : "annotators"}</h3>
              <ul className="mt-2 space-y-1 text-amber-900">
                {skipped.map((s) => (
                  <li key={s.assignmentId}><span className="font-medium">{s.annotator}</span> <span className="text-xs text-amber-700 tabular-nums">({formatDate(s.at)})</span>: <span className="whitespace-pre-wrap">{s.reason || "no reason given"}</span></li>
                ))}
              </ul>
            </div>
          )}
        </section>

        {adjudication && (
          <section aria-labelledby="adjudication-heading" className="rounded-xl border border-indigo-200 bg-indigo-50/40 p-5" data-testid="existing-adjudication">
            <h2 id="adjudication-heading" className="text-base font-semibold text-indigo-950">Adjudication</h2>
            <p className="mt-1 text-sm text-indigo-900">
              By {adjudication.adjudicator ?? "a former user"} on {formatDate(adjudication.createdAt)}
              {adjudication.updatedAt.getTime() - adjudication.createdAt.getTime() > 1000 ? `, revised ${formatDate(adjudication.updatedAt)}` : ""}. Its values are the last column above.
            </p>
            <h3 className="mt-3 text-xs font-semibold uppercase tracking-wide text-indigo-800">Reason</h3>
            <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-800" data-testid="adjudication-reason">{adjudication.reason}</p>
          </section>
        )}

        <section aria-label="Adjudicate">
          {mayAdjudicate ? (
            <AdjudicationForm
              itemId={item.id}
              schema={campaign.schema}
              initial={adjudication ? { values: adjudication.values, reason: adjudication.reason } : null}
              sources={labels.map((l) => ({ assignmentId: l.assignmentId, annotator: l.annotator, values: l.values }))}
              adjudicate={adjudicateAction}
            />
          ) : (
            <p className="rounded-xl border border-dashed border-slate-300 bg-white px-5 py-4 text-sm text-slate-600" data-testid="adjudication-readonly">
              Only a PI or an admin can record the adjudicated label (it needs <code className="font-mono text-xs">campaign:adjudicate</code>).
            </p>
          )}
        </section>
      </div>
    </>
  );
}
