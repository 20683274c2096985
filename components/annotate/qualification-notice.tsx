import Link from "next/link";
import type { QualificationState } from "@/lib/annotation/quality/claim";

// What an annotator is told about a campaign's qualification round (annotator quality, issue 18
// #7): during the round, which item of it this is; after failing it, that no real items follow.
// Gold items outside the round are never mentioned.

/** Above the item while the round runs (nothing otherwise). */
export function QualificationBanner({ q }: { q: QualificationState }) {
  if (q.size === 0 || q.result) return null;
  return (
    <p className="mb-3 rounded-lg border border-sky-200 bg-sky-50 px-4 py-2 text-sm text-sky-900" role="note" data-testid="qualification-banner">
      <strong>Qualification round</strong>: item {Math.min(q.done + 1, q.size)} of {q.size}. These items come before the campaign&apos;s own; answer them as carefully as any other.
    </p>
  );
}

/** Instead of the "done" page when the round was failed. */
export function QualificationFailed({ q }: { q: QualificationState }) {
  if (!q.result || q.result.passed) return null;
  return (
    <div role="alert" className="mx-auto max-w-2xl rounded-xl border border-amber-200 bg-amber-50 p-6 text-sm text-amber-900" data-testid="qualification-failed">
      <h1 className="text-lg font-semibold">You did not pass the qualification round</h1>
      <p className="mt-2">
        Your answers matched the expected ones in {Math.round(q.result.score * 100)}% of the {q.result.items} qualification items; this campaign asks for {Math.round(q.result.pass * 100)}%.
        You will not get items from this campaign. If you think this is a mistake, ask the person who runs it.
      </p>
      <Link href="/annotate" className="mt-3 inline-block font-medium underline">Back to your campaigns</Link>
    </div>
  );
}
