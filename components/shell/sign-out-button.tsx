"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";

export function SignOutButton({ signOutEverywhere }: { signOutEverywhere?: (i: Record<string, never>) => Promise<ActionResult<unknown>> }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <div className="flex items-center gap-1">
      <button type="button" onClick={() => signOut({ callbackUrl: "/signin" })}
        className="rounded-md border border-slate-300 px-2.5 py-1 text-sm text-slate-700 hover:bg-slate-100">
        Sign out
      </button>
      {signOutEverywhere && (
        <details className="relative">
          <summary aria-label="Account menu" title="Account menu"
            className="cursor-pointer list-none rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-700 hover:bg-slate-100">⋯</summary>
          <div className="absolute right-0 z-20 mt-1 w-72 rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg">
            <button type="button" disabled={pending}
              onClick={async () => {
                setPending(true);
                setError(null);
                const res = await signOutEverywhere({});
                if (!res.ok) {
                  setPending(false);
                  setError(res.error);
                  return;
                }
                await signOut({ callbackUrl: "/signin" });
              }}
              className="w-full rounded-md border border-slate-300 px-2.5 py-1.5 text-left font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-60">
              {pending ? "Signing out everywhere…" : "Sign out everywhere"}
            </button>
            <p className="mt-2 text-xs text-slate-500">
              Ends your sessions in every browser and device, this one included. Use it when you signed in on a machine you no longer have.
            </p>
            {error && <p role="alert" className="mt-2 rounded bg-rose-50 px-2 py-1 text-xs text-rose-700">{error}</p>}
          </div>
        </details>
      )}
    </div>
  );
}
