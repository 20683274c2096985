import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { RunLive } from "@/components/runs/run-live";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { listRunEpisodes, loadRunProgress } from "@/lib/runs/queries";
import { countWaitingForRun } from "@/lib/runs/interventions/queries";
import { runControlAction } from "./_actions/control";
import { evaluationRunControlAction } from "./_actions/control-evaluation";
import { criticRunControlAction } from "./_actions/control-critic";
import { sageRunControlAction } from "./_actions/control-sage";

export const metadata: Metadata = { title: "Run" };
export const dynamic = "force-dynamic";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePermission("run:read");
  const { id } = await params;
  const progress = await loadRunProgress(db(), id);
  if (!progress) notFound();
  const episodes = await listRunEpisodes(db(), id, "all", 1);
  const waitingInterventions = await countWaitingForRun(db(), id);
  return (
    <>
      <Breadcrumbs items={[{ href: "/runs", label: "Runs" }, { label: progress.name }]} />
      {progress.kind === "SAGE" ? (
        <RunLive initial={{ progress, episodes }} canControl={can(user.role, "run:create")} canEvaluate={false} control={sageRunControlAction} />
      ) : progress.kind === "CRITIC" ? (
        <RunLive initial={{ progress, episodes }} canControl={can(user.role, "evaluation:create")} canEvaluate={can(user.role, "evaluation:create")} control={criticRunControlAction} />
      ) : progress.kind === "EVALUATION" ? (
        <RunLive initial={{ progress, episodes, waitingInterventions }} canControl={can(user.role, "evaluation:create")} canEvaluate={can(user.role, "evaluation:create")} control={evaluationRunControlAction} />
      ) : (
        <RunLive initial={{ progress, episodes, waitingInterventions }} canControl={can(user.role, "run:create")} canEvaluate={can(user.role, "evaluation:create")} control={runControlAction} />
      )}
    </>
  );
}
