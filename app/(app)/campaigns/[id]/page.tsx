import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { EmptyState } from "@/components/toolemu/empty-state";
import { formatDate } from "@/components/toolemu/format";
import { ProgressBar } from "@/components/ui/progress-bar";
import { CampaignStatusBadge } from "@/components/campaigns/status-badge";
import { LockButton } from "@/components/campaigns/lock-button";
import { CampaignExportLinks } from "@/components/campaigns/export-links";
import { PageHeader } from "@/components/ui/page-header";
import { Guidelines } from "@/components/ui/guidelines";
import { AnnotatorProgressTable } from "@/components/campaigns/annotator-progress";
import { CampaignItemTable } from "@/components/campaigns/item-table";
import { fmtInt } from "@/components/ui/format";
import { Pagination } from "@/components/ui/pagination";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { campaignFormAgreementCached, campaignPageOverview, campaignTiesCached } from "@/lib/dashboards/campaign-page";
import type { CampaignTies } from "@/lib/dashboards/human/fields";
import { TieList } from "@/components/campaigns/tie-list";
import { FieldAgreementPanel, FieldAgreementPending, FieldAgreementLink } from "@/components/campaigns/field-agreement";
import { setLockedAction } from "./_actions/set-locked";
import { reviseFormAction } from "./_actions/revise-form";
import { ReviseForm } from "@/components/campaigns/revise-form";

export const metadata: Metadata = { title: "Campaign" };

/**
 * Up to this many submitted labels, agreement by form field is computed on this page; beyond, on
 * its own page (/campaigns/<id>/fields): its bootstrap intervals take seconds per thousand items.
 */
const FIELD_AGREEMENT_INLINE_LABELS = 3000;

/** The ties, kept per campaign version (streamed: the rest of the page does not wait for them). */
async function Ties({ campaignId, k, ties }: { campaignId: string; k: number; ties: Promise<CampaignTies> }) {
  return <TieList campaignId={campaignId} ties={await ties} k={k} />;
}

async function FieldAgreement({ campaignId }: { campaignId: string }) {
  return <FieldAgreementPanel data={await campaignFormAgreementCached(db(), campaignId)} />;
}

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function CampaignPage({ params, searchParams }: Props) {
  const user = await requirePermission("campaign:manage");
  const { id } = await params;
  const pageParam = Number((await searchParams).page);
  // The ties are looked for while the overview is read (they stream in below it); an unknown
  // campaign has none, and a failure shows where they are awaited.
  const ties = campaignTiesCached(db(), id);
  ties.catch(() => {});
  let overview;
  try {
    // One page of the items; the ties and the agreement by form field stream in below.
    // The totals, the page of items and the submitted counts are kept per campaign version.
    overview = await campaignPageOverview(db(), id, { page: Number.isInteger(pageParam) && pageParam > 0 ? pageParam : 1 });
  } catch (e) {
    if (e instanceof AppError && e.status === 404) notFound();
    throw e;
  }
  const { campaign, progress, items, totals, page } = overview;
  const expectedEach = Math.ceil((totals.items * campaign.k) / Math.max(1, progress.length));
  const { disagreements, adjudicated } = totals;
  const pageHref = (p: number) => `/campaigns/${encodeURIComponent(campaign.id)}${p > 1 ? `?page=${p}` : ""}#items-heading`;
  const inProgress = progress.reduce((sum, p) => sum + p.claimed, 0);
  const skipped = progress.reduce((sum, p) => sum + p.skipped, 0);

  return (
    <>
      <Breadcrumbs items={[{ href: "/campaigns", label: "Campaigns" }, { label: campaign.name }]} />
      <PageHeader
        title={campaign.name}
        titleTestId="campaign-name"
        badge={<CampaignStatusBadge locked={campaign.locked} />}
        meta={
          <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm text-slate-600">
            <div><dt className="inline text-slate-500">Items </dt><dd className="inline font-medium text-slate-800 tabular-nums">{fmtInt(totals.items)}</dd></div>
            <div><dt className="inline text-slate-500">k </dt><dd className="inline font-medium text-slate-800">{campaign.k} per item</dd></div>
            <div><dt className="inline text-slate-500">Annotators </dt><dd className="inline font-medium text-slate-800">{progress.length}</dd></div>
            <div><dt className="inline text-slate-500">Seed </dt><dd className="inline font-mono text-xs text-slate-800">{campaign.seed}</dd></div>
            <div><dt className="inline text-slate-500">Exports </dt><dd className="inline text-slate-800">{campaign.pseudonymize ? "pseudonymized (A1, A2, …)" : "with user ids"}</dd></div>
            <div><dt className="inline text-slate-500">Blinding </dt><dd className="inline text-slate-800" data-testid="campaign-blinding">{campaign.redactModelNames ? "model names redacted" : "text as written"} · offline-model trajectories {campaign.includeOffline ? "included" : "left out"}</dd></div>
            <div><dt className="inline text-slate-500">Created </dt><dd className="inline tabular-nums text-slate-800">{formatDate(campaign.createdAt)}</dd></div>
            <div><dt className="inline text-slate-500">Form </dt><dd className="inline text-slate-800">v{campaign.schema.version} · {campaign.schema.fields.length} fields</dd></div>
          </dl>
        }
      >
        <div className="flex flex-wrap items-start gap-3">
          <CampaignExportLinks campaignId={campaign.id} labels={totals.labelsSubmitted} />
          {can(user.role, "evaluation:create") && (
            <Link href={`/runs/evaluate?campaign=${encodeURIComponent(campaign.id)}`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="evaluate-campaign-items" title="Score this campaign's trajectories again with any evaluator">
              Evaluate these items…
            </Link>
          )}
          <Link href={`/campaigns/${encodeURIComponent(campaign.id)}/annotators`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="campaign-annotators-link" title="Agreement with gold and with the majority, κ, time per item and drift per annotator; exclude an annotator's labels">
            Annotators
          </Link>
          <Link href={`/campaigns/${encodeURIComponent(campaign.id)}/quality`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="campaign-quality-link" title="Gold items, the qualification round and blind adjudication">
            Gold &amp; qualification
          </Link>
          <LockButton campaignId={campaign.id} locked={campaign.locked} setLocked={setLockedAction} />
        </div>
      </PageHeader>

      <div className="space-y-8">
        <details className="group rounded-xl border border-slate-200 bg-white shadow-sm" data-testid="guidelines-panel">
          <summary className="flex cursor-pointer items-center justify-between gap-2 rounded-xl px-5 py-3 text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-500">
            <span>Guidelines{campaign.guidelines.trim() ? "" : " (none)"}</span>
            <span aria-hidden="true" className="text-slate-400 transition-transform group-open:rotate-90">›</span>
          </summary>
          <div className="border-t border-slate-100 px-5 py-4"><Guidelines text={campaign.guidelines} /></div>
        </details>

        <section aria-labelledby="progress-heading" className="space-y-4">
          <h2 id="progress-heading" className="text-lg font-semibold">Progress</h2>
          <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]">
            <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="overall-progress">
              <ProgressBar value={totals.labelsNeeded ? totals.labelsSubmitted / totals.labelsNeeded : 0} label={`Labels submitted: ${fmtInt(totals.labelsSubmitted)} of ${fmtInt(totals.labelsNeeded)} needed`} />
              <p className="mt-3 text-xs text-slate-500">
                {totals.labelsSubmitted >= totals.labelsNeeded ? "Every item has all its labels." : `${fmtInt(totals.labelsNeeded - totals.labelsSubmitted)} labels still needed`}
                {inProgress > 0 ? ` · ${fmtInt(inProgress)} in progress` : ""}
                {skipped > 0 ? ` · ${fmtInt(skipped)} skipped` : ""}
              </p>
            </div>
            <Stat label="Items complete" value={`${fmtInt(totals.complete)} / ${fmtInt(totals.items)}`} hint={`with all ${campaign.k} labels`} testId="items-complete" />
            <Stat label="With disagreement" value={fmtInt(disagreements)} hint="safety scores differ" />
            <Stat label="Adjudicated" value={fmtInt(adjudicated)} hint="items with a PI's label" />
          </div>
          <AnnotatorProgressTable rows={progress} expected={expectedEach} />
        </section>

        {totals.labelsSubmitted > 0 && (
          <Suspense fallback={<p className="text-sm text-slate-500" data-testid="ties-pending">Looking for ties…</p>}>
            <Ties campaignId={campaign.id} k={campaign.k} ties={ties} />
          </Suspense>
        )}

        {totals.labelsSubmitted <= FIELD_AGREEMENT_INLINE_LABELS ? (
          <Suspense fallback={<FieldAgreementPending />}>
            <FieldAgreement campaignId={campaign.id} />
          </Suspense>
        ) : (
          <FieldAgreementLink campaignId={campaign.id} labels={totals.labelsSubmitted} />
        )}
        {!campaign.locked && <ReviseForm campaignId={campaign.id} schema={campaign.schema} reviseForm={reviseFormAction} />}

        <section aria-labelledby="items-heading" className="space-y-3">
          <div className="flex flex-wrap items-end justify-between gap-2">
            <div>
              <h2 id="items-heading" className="text-lg font-semibold">Items by disagreement</h2>
              <p className="text-sm text-slate-600">Largest spread of safety scores first; open an item to compare its labels side by side and adjudicate.</p>
            </div>
          </div>
          {totals.items === 0 ? (
            <EmptyState title="This campaign has no items." />
          ) : (
            <>
              {page.pageCount > 1 && <Pagination page={page.page} pageCount={page.pageCount} total={totals.items} pageSize={page.pageSize} noun="items" hrefFor={pageHref} />}
              <CampaignItemTable campaignId={campaign.id} rows={items} schema={campaign.schema} k={campaign.k} offset={(page.page - 1) * page.pageSize} />
              {page.pageCount > 1 && <Pagination page={page.page} pageCount={page.pageCount} total={totals.items} pageSize={page.pageSize} noun="items" hrefFor={pageHref} />}
            </>
          )}
          {totals.labelsSubmitted === 0 && totals.items > 0 && (
            <p className="text-sm text-slate-500" data-testid="no-labels-yet">No labels submitted yet. Invited annotators find this campaign under Annotate.</p>
          )}
        </section>
      </div>
    </>
  );
}

function Stat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <div className="text-xs font-medium text-slate-500">{label}</div>
      <div className="mt-1 text-xl font-semibold tabular-nums text-slate-900">{value}</div>
      {hint && <div className="text-xs text-slate-500">{hint}</div>}
    </div>
  );
}
