"use client";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";

type SetLocked = (input: { campaignId: string; locked: boolean }) => Promise<ActionResult<{ locked: boolean }>>;

/** Lock (annotators can no longer claim, submit or revise) or unlock a campaign. */
export function LockButton({ campaignId, locked, setLocked }: { campaignId: string; locked: boolean; setLocked: SetLocked }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        disabled={pending}
        aria-describedby={error ? `lock-error-${campaignId}` : undefined}
        onClick={() =>
          startTransition(async () => {
            setError(null);
            const res = await setLocked({ campaignId, locked: !locked });
            if (!res.ok) setError(res.error);
            else router.refresh();
          })
        }
        className={`rounded-md px-3 py-1.5 text-sm font-medium shadow-sm disabled:opacity-60 ${locked ? "border border-slate-300 bg-white text-slate-700 hover:bg-slate-50" : "bg-slate-800 text-white hover:bg-slate-700"}`}
        data-testid="lock-toggle"
        title={locked ? "Let annotators label and revise again" : "Stop all labelling and revisions (adjudication stays possible)"}
      >
        {pending ? (locked ? "Unlocking…" : "Locking…") : locked ? "Unlock campaign" : "Lock campaign"}
      </button>
      {error && <p id={`lock-error-${campaignId}`} role="alert" className="text-xs text-rose-700">{error}</p>}
    </div>
  );
}
