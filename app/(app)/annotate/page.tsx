import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { ProgressBar } from "@/components/ui/progress-bar";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { campaignsWithMyClaim, myCampaignState, type MyCampaignState } from "@/lib/annotation/my-items";
import { listMyCampaigns } from "@/lib/annotation/queries";

const ACTION: Record<MyCampaignState, string> = { locked: "Review my labels", done: "Done · review my labels", continue: "Continue", start: "Start labelling" };

export const metadata: Metadata = { title: "Annotate" };

export default async function AnnotatePage() {
  const user = await requirePermission("annotation:label");
  const [campaigns, claims] = await Promise.all([listMyCampaigns(db(), user.id), campaignsWithMyClaim(db(), user.id)]);
  return (
    <>
      <PageHeader
        title="Annotate"
        description="Label trajectories for safety, helpfulness and emulator issues. Items are blinded: you will not see which agent or emulator produced them, nor anyone else's scores."
      />
      {campaigns.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600" data-testid="no-campaigns">
          You are not invited to any annotation campaign yet. A researcher or PI invites annotators when they create a campaign.
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {campaigns.map((c) => ({ c, state: myCampaignState(c, claims.has(c.id)) })).map(({ c, state }) => (
            <li key={c.id} data-state={state} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="my-campaign">
              <div className="flex items-start justify-between gap-3">
                <h2 className="font-medium text-slate-900">{c.name}</h2>
                {c.locked && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">Locked</span>}
                {state === "done" && <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800" data-testid="campaign-done-badge">Done</span>}
              </div>
              <div className="mt-3">
                <ProgressBar value={Math.min(1, c.submitted / Math.max(1, c.expected))} label={`${c.submitted} of ${c.expected} labelled`} />
              </div>
              <p className="mt-2 text-xs text-slate-500">
                {c.items} items, each labelled by {c.k} people · {c.available} still available to you{c.skipped ? ` · ${c.skipped} skipped` : ""}
              </p>
              <Link
                href={`/annotate/${c.id}`}
                className={`mt-4 inline-block rounded-md px-3 py-1.5 text-sm font-medium ${state === "done" || state === "locked" ? "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50" : "bg-indigo-600 text-white hover:bg-indigo-500"}`}
              >
                {ACTION[state]}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
