import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { EmptyState } from "@/components/toolemu/empty-state";
import { MODE_LABELS, decodeParam, formatDate, shortModel } from "@/components/toolemu/format";
import { CampaignStatusBadge, AdjudicatedBadge } from "@/components/campaigns/status-badge";
import { SpreadBadge } from "@/components/campaigns/item-table";
import { caseHref } from "@/components/toolemu/case-link-list";
import { LabelComparison } from "@/components/campaigns/label-comparison";
import { AdjudicationForm } from "@/components/campaigns/adjudication-form";
import { AdjudicationKeys } from "@/components/campaigns/adjudication-keys";
import { EvaluatorScores } from "@/components/campaigns/evaluator-scores";
import { BlindedTrajectory } from "@/components/annotate/blinded-trajectory";
import { ScenarioItem } from "@/components/annotate/scenario-item";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { adjudicationItem } from "@/lib/annotation/manage-queries";
import { blindNames, campaignAdjudicationMode, disagreementNav, itemEvaluations, staffItemView } from "@/lib/annotation/adjudication-view";
import { adjudicateAction } from "./_actions/adjudicate";
import { adjudicateBlindAction } from "./_actions/adjudicate-blind";

export const metadata: Metadata = { title: "Adjudicate item" };

type Props = { params: Promise<{ id: string; itemId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AdjudicationPage({ params, searchParams }: Props) {
  const user = await requirePermission("campaign:manage");
  const { id, itemId } = await params;
  const sp = await searchParams;
  const campaignId = decodeParam(id);
  const current = decodeParam(itemId);
  const flag = (k: string) => sp[k] === "1";
  const [data, view, nav, mode] = await Promise.all([
    adjudicationItem(db(), campaignId, current),
    staffItemView(db(), campaignId, current),
    disagreementNav(db(), campaignId, current),
    campaignAdjudicationMode(db(), campaignId, current),
  ]);
  if (!data || !view) notFound();
  const blind = mode.forcedBlind || flag("blind");
  const showScores = flag("scores");
  const unblinded = flag("unblind");
  const scores = showScores ? await itemEvaluations(db(), current) : [];
  const { campaign, item, skipped, inProgress, safetySpread, adjudication } = data;
  // Blind: names never reach the page, only "Annotator 1, 2, …" in submission order.
  const labels = blind ? blindNames(data.labels) : data.labels;
  const skippedShown = blind ? skipped.map((s, i) => ({ ...s, annotator: `A skipping annotator (${i + 1})` })) : skipped;
  const mayAdjudicate = can(user.role, "campaign:adjudicate");

  const state = { blind: flag("blind"), scores: showScores, unblind: unblinded };
  const href = (target: string, change: Partial<typeof state> = {}) => {
    const s = { ...state, ...change };
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(s)) if (v) q.set(k, "1");
    const qs = q.toString();
    return `/campaigns/${encodeURIComponent(campaign.id)}/items/${encodeURIComponent(target)}${qs ? `?${qs}` : ""}`;
  };

  return (
    <>
      <Breadcrumbs items={[{ href: "/campaigns", label: "Campaigns" }, { href: `/campaigns/${campaign.id}`, label: campaign.name }, { label: item.id }]} />
      <PageHeader
        card
        eyebrow={<p className="font-mono text-xs text-slate-500">{item.id}</p>}
        title={item.caseName ? <>Item of case <Link href={caseHref(item.caseName)} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{item.caseName}</Link></> : "Item"}
        meta={
          unblinded && item.trajectoryId ? (
            <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="unblinded-meta">
              <div><dt className="inline text-slate-500">Trajectory </dt><dd className="inline"><Link href={`/trajectories/${item.trajectoryId}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="trajectory-link">{item.trajectoryId}</Link></dd></div>
              <div><dt className="inline text-slate-500">Agent </dt><dd className="inline font-medium" title={item.agentModel}>{item.agentModel}</dd></div>
              <div><dt className="inline text-slate-500">Emulator </dt><dd className="inline font-medium" title={item.emulatorModel}>{shortModel(item.emulatorModel)} · {MODE_LABELS[item.emulatorMode] ?? item.emulatorMode}</dd></div>
            </dl>
          ) : undefined
        }
        footer={
          <p className="mt-3 text-xs text-slate-500">
            {unblinded ? "Staff view: the agent and emulator are shown (u hides them). " : "The item as annotators see it: no agent, emulator or scores (u shows the agent and emulator). "}
            {blind ? "Blind adjudication: who labelled is hidden; the adjudication records it." : "Annotators' names are shown (b hides them)."}
          </p>
        }
      >
        <div className="flex flex-col items-end gap-2 text-sm">
          <CampaignStatusBadge locked={campaign.locked} />
          <span className="flex items-center gap-2 text-slate-600">Safety spread <SpreadBadge spread={safetySpread} /></span>
          <span className="text-slate-600 tabular-nums">{labels.length} of {campaign.k} labels{inProgress ? ` · ${inProgress} in progress` : ""}</span>
          {adjudication && <AdjudicatedBadge />}
        </div>
      </PageHeader>

      <AdjudicationKeys
        links={{
          previous: nav.previous && href(nav.previous),
          next: nav.next && href(nav.next),
          scores: href(current, { scores: !showScores }),
          blind: mode.forcedBlind ? null : href(current, { blind: !state.blind }),
          unblind: href(current, { unblind: !unblinded }),
        }}
        position={nav.position}
        total={nav.total}
        adjudicated={nav.adjudicated}
        showScores={showScores}
        blind={blind}
        unblinded={unblinded}
      />

      <div className="grid gap-6 xl:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <section aria-labelledby="item-heading" className="min-w-0 space-y-3">
          <h2 id="item-heading" className="text-lg font-semibold">The item</h2>
          <div data-testid="adjudication-item">
            {view.scenario && <div className="mb-4"><ScenarioItem scenario={view.scenario} episode={view.kind === "trajectory"} /></div>}
            {view.kind === "trajectory" && <BlindedTrajectory item={view} keyboard />}
          </div>
        </section>

        <div className="min-w-0 space-y-6">
          <section aria-labelledby="labels-heading" className="space-y-3">
            <h2 id="labels-heading" className="text-lg font-semibold">Labels side by side</h2>
            {labels.length === 0 ? (
              <EmptyState title="No label has been submitted for this item yet." />
            ) : (
              <div className="overflow-x-auto" data-testid="label-columns">
                <LabelComparison schema={campaign.schema} labels={labels} adjudication={adjudication} />
              </div>
            )}
            {skippedShown.length > 0 && (
              <div className="rounded-xl border border-amber-200 bg-amber-50/60 p-4 text-sm" data-testid="skipped-list">
                <h3 className="font-medium text-amber-900">Skipped by {skippedShown.length} {skippedShown.length === 1 ? "annotator" : "annotators"}</h3>
                <ul className="mt-2 space-y-1 text-amber-900">
                  {skippedShown.map((s) => (
                    <li key={s.assignmentId}><span className="font-medium">{s.annotator}</span> <span className="text-xs text-amber-700 tabular-nums">({formatDate(s.at)})</span>: <span className="whitespace-pre-wrap">{s.reason || "no reason given"}</span></li>
                  ))}
                </ul>
              </div>
            )}
          </section>

          {showScores && <EvaluatorScores scores={scores} />}

          {adjudication && (
            <section aria-labelledby="adjudication-heading" className="rounded-xl border border-indigo-200 bg-indigo-50/40 p-5" data-testid="existing-adjudication">
              <h2 id="adjudication-heading" className="text-base font-semibold text-indigo-950">Adjudication</h2>
              <p className="mt-1 text-sm text-indigo-900">
                By {adjudication.adjudicator ?? "a former user"} on {formatDate(adjudication.createdAt)}
                {adjudication.updatedAt.getTime() - adjudication.createdAt.getTime() > 1000 ? `, revised ${formatDate(adjudication.updatedAt)}` : ""}
                {mode.lastBlind ? ", blind (annotators' identities hidden)" : ""}. Its values are the last column above.
              </p>
              <h3 className="mt-3 text-xs font-semibold uppercase tracking-wide text-indigo-800">Reason</h3>
              <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-800" data-testid="adjudication-reason">{adjudication.reason}</p>
            </section>
          )}

          <section aria-label="Adjudicate">
            {mayAdjudicate ? (
              <AdjudicationForm
                key={`${item.id}-${blind}`}
                itemId={item.id}
                schema={campaign.schema}
                initial={adjudication ? { values: adjudication.values, reason: adjudication.reason } : null}
                sources={labels.map((l) => ({ assignmentId: l.assignmentId, annotator: l.annotator, values: l.values }))}
                adjudicate={blind ? adjudicateBlindAction : adjudicateAction}
              />
            ) : (
              <p className="rounded-xl border border-dashed border-slate-300 bg-white px-5 py-4 text-sm text-slate-600" data-testid="adjudication-readonly">
                Only a PI or an admin can record the adjudicated label (it needs <code className="font-mono text-xs">campaign:adjudicate</code>).
              </p>
            )}
          </section>
        </div>
      </div>
    </>
  );
}
