import type { Metadata } from "next";
import { InterventionQueue } from "@/components/interventions/intervention-queue";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadInterventionScreen } from "@/lib/runs/interventions/queries";
import { answerInterventionAction } from "./_actions/answer-intervention";
import { renewInterventionLeaseAction } from "./_actions/renew-lease";

export const metadata: Metadata = { title: "Interventions" };
export const dynamic = "force-dynamic";

/** ?from=<id>&dir=next|prev moves on from that intervention (j / k); without, one's own or the oldest. */
export default async function InterventionsPage({ searchParams }: { searchParams: Promise<{ from?: string; dir?: string }> }) {
  const user = await requirePermission("intervention:answer");
  const { from, dir } = await searchParams;
  const screen = await loadInterventionScreen(db(), user.id, {
    from: typeof from === "string" && from.length > 0 && from.length <= 64 ? from : null,
    direction: dir === "prev" ? "prev" : "next",
  });
  return <InterventionQueue screen={screen} answer={answerInterventionAction} renew={renewInterventionLeaseAction} />;
}
