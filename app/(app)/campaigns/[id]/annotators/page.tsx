import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { decodeParam, formatDate } from "@/components/toolemu/format";
import { AnnotatorStatsTable } from "@/components/campaigns/quality/annotator-stats-table";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { annotatorsPageData } from "@/lib/annotation/quality/stats-query";
import { excludeAnnotatorAction, restoreAnnotatorAction } from "./_actions/exclusion";

export const metadata: Metadata = { title: "Annotators" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AnnotatorsPage({ params, searchParams }: Props) {
  const user = await requirePermission("campaign:manage");
  const id = decodeParam((await params).id);
  const field = (await searchParams).field;
  let data;
  try {
    data = await annotatorsPageData(db(), id, typeof field === "string" ? field : undefined);
  } catch (e) {
    if (e instanceof AppError && e.status === 404) notFound();
    if (e instanceof AppError) return <p role="alert" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">{e.message}</p>;
    throw e;
  }
  const { campaign, fields, rows, history, goldItems } = data;
  return (
    <>
      <Breadcrumbs items={[{ href: "/campaigns", label: "Campaigns" }, { href: `/campaigns/${campaign.id}`, label: campaign.name }, { label: "Annotators" }]} />
      <PageHeader
        title="Annotators"
        description={<>How each annotator agrees with the gold answers, with the others&apos; majority and with each other, how long they take and whether that drifts. {goldItems} gold item{goldItems === 1 ? "" : "s"} (<Link href={`/campaigns/${campaign.id}/quality`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">gold &amp; qualification</Link>).</>}
      />
      <nav aria-label="Field" className="mb-4 flex flex-wrap gap-2" data-testid="stats-fields">
        {fields.map((f) => (
          <Link key={f.key} href={`/campaigns/${campaign.id}/annotators?field=${encodeURIComponent(f.key)}`} aria-current={f.key === data.field.key ? "page" : undefined}
            className={`rounded-full border px-3 py-1 text-sm ${f.key === data.field.key ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}>{f.label}</Link>
        ))}
      </nav>
      <Panel
        id="annotator-stats"
        title={<>Per annotator · {data.field.label}</>}
        description="Excluded annotators are shown (their figures are computed as usual) but left out as “others” of everyone else's majority and κ."
        how={
          <div className="space-y-2 px-4 pb-4">
            <p><strong>Answers</strong> are compared by score for scored choices (the two safety labels of score 1 are one answer), by option otherwise, yes/no as is.</p>
            <p><strong>Gold</strong>: share of the annotator&apos;s gold items (qualification round and mixed-in) answered as the known answer on this field; n = gold items answered.</p>
            <p><strong>Majority</strong>: share of their real items where they gave the most frequent answer of the other (not excluded) annotators; items where the others tie, or nobody else answered, are left out of n.</p>
            <p><strong>κ vs others</strong>: Cohen&apos;s κ (unweighted, on the field&apos;s full label set) with each other annotator over the items both labelled, averaged over the others whose κ is defined; n = item pairs.</p>
            <p><strong>Time / item</strong>: median of the time on the form the browser counted, over all their submitted items.</p>
            <p><strong>Drift</strong>: their real items in submission order cut into ten equal parts; each bar is the majority agreement in that tenth (hover for agree / n). A falling row of bars is a warning sign.</p>
          </div>
        }
      >
        {rows.length === 0 ? <p className="text-sm text-slate-500">Nobody is invited to this campaign.</p> : (
          <AnnotatorStatsTable campaignId={campaign.id} rows={rows} mayExclude={can(user.role, "campaign:adjudicate")} exclude={excludeAnnotatorAction} restore={restoreAnnotatorAction} />
        )}
      </Panel>
      <section aria-labelledby="exclusion-history" className="mt-8 space-y-2">
        <h2 id="exclusion-history" className="text-lg font-semibold">Exclusion history</h2>
        {history.length === 0 ? <p className="text-sm text-slate-500" data-testid="exclusion-history-empty">No annotator has been excluded from this campaign.</p> : (
          <ul className="space-y-2 text-sm" data-testid="exclusion-history">
            {history.map((h) => (
              <li key={h.id} className="rounded-lg border border-slate-200 bg-white px-4 py-2">
                <p><strong>{h.annotator}</strong> excluded by {h.excludedBy ?? "a former user"} on {formatDate(h.excludedAt)}: <span className="whitespace-pre-wrap">{h.reason}</span></p>
                {h.restoredAt && <p className="text-slate-600">Restored by {h.restoredBy ?? "a former user"} on {formatDate(h.restoredAt)}: <span className="whitespace-pre-wrap">{h.restoreReason}</span></p>}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
