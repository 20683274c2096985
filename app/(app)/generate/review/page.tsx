import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { ReviewQueue } from "@/components/authoring/review-queue";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadReviewQueue, REVIEW_FILTERS, type ReviewFilter } from "@/lib/authoring/review-queries";
import { acceptItemAction } from "./_actions/accept-item";
import { rejectItemAction } from "./_actions/reject-item";
import { saveItemEditAction } from "./_actions/save-item-edit";

export const metadata: Metadata = { title: "Review generated items" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ReviewPage({ searchParams }: Props) {
  await requirePermission("authoring:review");
  const sp = await searchParams;
  const status: ReviewFilter = REVIEW_FILTERS.includes(sp.status as ReviewFilter) ? (sp.status as ReviewFilter) : "PENDING";
  const jobId = typeof sp.job === "string" && sp.job ? sp.job : null;
  const queue = await loadReviewQueue(db(), { status, jobId });
  return (
    <>
      <Breadcrumbs items={[{ href: "/generate", label: "Generate" }, { label: "Review queue" }]} />
      <PageHeader
        title="Review queue"
        description="Generated toolkits and test cases wait here until someone decides. Accept makes the item a toolkit or case with provenance GENERATED (as generated, or as you edited it); Reject keeps it out, with your reason. Each decision records who and when. Items the validator refused are flagged with the field — fix them in the editor before accepting. Keys: j / k next / previous, a accept, e edit, r reject, Ctrl+Enter saves the edit, Esc leaves the editor."
      >
        <Link href="/generate" className="text-sm text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Generate more →</Link>
      </PageHeader>
      <ReviewQueue queue={queue} status={status} jobId={jobId} accept={acceptItemAction} reject={rejectItemAction} saveEdit={saveItemEditAction} />
    </>
  );
}
