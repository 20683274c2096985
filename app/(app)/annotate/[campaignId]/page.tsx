import type { Metadata } from "next";
import Link from "next/link";
import { AnnotationWorkspace } from "@/components/annotate/annotation-workspace";
import { PageHeader } from "@/components/ui/page-header";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { loadAnnotationScreen } from "@/lib/annotation/screen";
import { saveDraftAction } from "./_actions/save-draft";
import { skipItemAction } from "./_actions/skip-item";
import { submitLabelAction } from "./_actions/submit-label";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

export default async function AnnotateCampaignPage({ params, searchParams }: { params: Promise<{ campaignId: string }>; searchParams: Promise<{ revise?: string }> }) {
  const user = await requirePermission("annotation:label");
  const { campaignId } = await params;
  const { revise } = await searchParams;
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
  if (screen.kind === "done") {
    return (
      <div className="mx-auto max-w-2xl space-y-4" data-testid="campaign-done">
        <PageHeader
          title={screen.progress.locked ? "This campaign is locked" : "Nothing left for you here"}
          description={<>You labelled {screen.progress.submitted} item{screen.progress.submitted === 1 ? "" : "s"}. {screen.progress.locked ? "Labels can no longer change." : "Every other item has its labels or is being labelled by others. Thank you!"}</>}
        />
        {screen.submitted.length > 0 && !screen.progress.locked && (
          <details className="rounded-lg border border-slate-200 bg-white p-4">
            <summary className="cursor-pointer text-sm font-medium">Revise one of your labels</summary>
            <ul className="mt-2 space-y-1 text-sm">
              {screen.submitted.map((s, i) => (
                <li key={s.assignmentId}>
                  <Link className="text-indigo-700 underline" href={`/annotate/${campaignId}?revise=${s.assignmentId}`}>Item {screen.submitted.length - i}</Link>
                  <span className="ml-2 text-xs text-slate-500">{s.submittedAt?.slice(0, 16).replace("T", " ")}</span>
                </li>
              ))}
            </ul>
          </details>
        )}
        <Link href="/annotate" className="inline-block text-sm font-medium text-indigo-700 underline">Back to your campaigns</Link>
      </div>
    );
  }
  return (
    <AnnotationWorkspace
      key={screen.item.assignment.id}
      item={screen.item}
      progress={{ submitted: screen.progress.submitted, expected: screen.progress.expected }}
      firstVisit={screen.firstVisit}
      saveDraft={saveDraftAction}
      submit={submitLabelAction}
      skip={skipItemAction}
    />
  );
}
