"use client";

// The confirmation after a submit (issue 18 item 2): visible at the bottom of the screen and
// announced by screen readers. It lives outside the item's workspace, so its live region stays
// in the page while the next item replaces the last one, and the new text is read out.
import { useState } from "react";

export interface Notice {
  /** The assignment submitted: a new submit makes a new notice. */
  id: string;
  result: "submitted" | "revised" | "unchanged";
  position: number;
  hint: string;
  /** What the screen shows now: the next item, the item being worked on again, or nothing left. */
  then: "next" | "back" | "done";
}

function text(n: Notice): string {
  const what = n.result === "submitted" ? "Label submitted" : n.result === "revised" ? "Revision saved" : "No change: your label was already saved";
  const then = n.then === "next" ? " Next item loaded." : n.then === "back" ? " Back to the item you are working on." : "";
  return `${what} for item ${n.position}: “${n.hint}”.${then}`;
}

export function SubmitNotice({ notice }: { notice: Notice | null }) {
  const [dismissed, setDismissed] = useState<string | null>(null);
  const key = notice ? `${notice.id}:${notice.result}` : null;
  const shown = notice && dismissed !== key ? notice : null;
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="pointer-events-none fixed bottom-4 left-4 z-30 flex max-w-[calc(100vw-2rem)]" data-testid="submit-notice">
      {shown && (
        <div className="pointer-events-auto flex max-w-xl items-start gap-3 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-2 text-sm text-emerald-900 shadow-lg">
          <span aria-hidden="true">✓</span>
          <span>{text(shown)}</span>
          <button type="button" onClick={() => setDismissed(key)} className="ml-2 text-emerald-800 hover:underline" aria-label="Dismiss the confirmation">×</button>
        </div>
      )}
    </div>
  );
}
