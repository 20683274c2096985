import { AppHeader } from "@/components/shell/app-header";
import { requireUser } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { countWaitingInterventions } from "@/lib/runs/interventions/queries";
import { signOutEverywhereAction } from "./_actions/sign-out-everywhere";

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  // Flagged critical calls waiting for a human, beside the queue's link (for those who answer them).
  const waiting = can(user.role, "intervention:answer") ? await countWaitingInterventions(db()) : 0;
  const counts = { "/interventions": { n: waiting, label: `${waiting} action${waiting === 1 ? "" : "s"} waiting for a human` } };
  return (
    <>
      <AppHeader user={user} signOutEverywhere={signOutEverywhereAction} counts={counts} />
      <main className="mx-auto max-w-7xl px-4 py-8">{children}</main>
    </>
  );
}
