import type { Metadata } from "next";
import Link from "next/link";
import { AnnotationWorkspace } from "@/components/annotate/annotation-workspace";
import { FinishedItems, type FinishedLink } from "@/components/annotate/finished-items";
import { SubmitNotice } from "@/components/annotate/submit-notice";
import { QualificationBanner, QualificationFailed } from "@/components/annotate/qualification-notice";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { neighbours, type FinishedItem } from "@/lib/annotation/my-items";
import { loadAnnotationScreen, loadSubmitNotice } from "@/lib/annotation/screen";
import { qualificationState } from "@/lib/annotation/quality/claim";
import { saveDraftAction } from "./_actions/save-draft";
import { skipItemAction } from "./_actions/skip-item";
import { submitLabelAction } from "./_actions/submit-label";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

type Search = { revise?: string; after?: string; result?: string };

export default async function AnnotateCampaignPage({ params, searchParams }: { params: Promise<{ campaignId: string }>; searchParams: Promise<Search> }) {
  const user = await requirePermission("annotation:label");
  const { campaignId } = await params;
  const { revise, after, result } = await searchParams;
  let screen;
  try {
    screen = await loadAnnotationScreen(db(), user.id, campaignId, revise);
  } catch (e) {
    if (e instanceof AppError) {
      return (
        <div role="alert" className="mx-auto max-w-lg rounded-xl border border-amber-200 bg-amber-50 p-6 text-sm text-amber-900">
          <p>{e.message}</p>
          <Link href="/annotate" className="mt-3 inline-block font-medium underline">Back to your campaigns</Link>
        </div>
      );
    }
    throw e;
  }
  const submitted = await loadSubmitNotice(db(), user.id, campaignId, after, result);
  // After the claim, which may have decided the qualification round (annotator quality).
  const qualification = await qualificationState(db(), campaignId, user.id);
  const link = (f: FinishedItem): FinishedLink => ({ href: `/annotate/${campaignId}?revise=${f.assignmentId}`, hint: f.hint, position: f.position, submittedAt: f.submittedAt });
  const finished = screen.finished.map(link);
  // The notice stays the first child in every case, so its live region persists across items.
  const notice = submitted && after ? { id: after, ...submitted, then: screen.kind === "done" ? ("done" as const) : submitted.result === "submitted" ? ("next" as const) : ("back" as const) } : null;

  if (screen.kind === "done") {
    const { locked, submitted: n } = screen.progress;
    if (qualification.result && !qualification.result.passed) return <><SubmitNotice notice={notice} /><QualificationFailed q={qualification} /></>;
    return (
      <>
        <SubmitNotice notice={notice} />
        <div className="mx-auto max-w-2xl space-y-4" data-testid="campaign-done">
          <PageHeader
            title={locked ? "This campaign is locked" : "Done — nothing left for you here"}
            description={<>You labelled {n} item{n === 1 ? "" : "s"}. {locked ? "Labels can no longer change." : "Every other item has its labels or is being labelled by others. Thank you!"}</>}
          />
          {finished.length > 0 && (
            <section className="rounded-lg border border-slate-200 bg-white p-4">
              <h2 className="text-sm font-medium">{locked ? "Your labelled items" : "Your labelled items — open one to revise its label"}</h2>
              <div className="mt-2">
                {locked ? (
                  <ol className="space-y-1 text-sm" data-testid="finished-items">
                    {finished.map((f) => <li key={f.href}>{f.position}. {f.hint}</li>)}
                  </ol>
                ) : (
                  <FinishedItems items={finished} current={null} />
                )}
              </div>
            </section>
          )}
          <Link href="/annotate" className="inline-block text-sm font-medium text-indigo-700 underline">Back to your campaigns</Link>
        </div>
      </>
    );
  }
  const here = neighbours(screen.finished, screen.item.assignment.id);
  const revising = screen.finished.find((f) => f.assignmentId === screen.item.assignment.id);
  const nav = {
    previous: here.previous && link(here.previous),
    next: here.next ? link(here.next) : revising ? { href: `/annotate/${campaignId}`, hint: "the item you are working on", position: null } : null,
  };
  return (
    <>
      <SubmitNotice notice={notice} />
      <QualificationBanner q={qualification} />
      <AnnotationWorkspace
        key={screen.item.assignment.id}
        item={screen.item}
        progress={{ submitted: screen.progress.submitted, expected: screen.progress.expected }}
        firstVisit={screen.firstVisit}
        saveDraft={saveDraftAction}
        submit={submitLabelAction}
        skip={skipItemAction}
        finished={finished}
        nav={nav}
        revising={revising ? link(revising) : null}
      />
    </>
  );
}
