import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { EmptyState } from "@/components/toolemu/empty-state";
import { CriticRunForm } from "@/components/runs/critic-run-form";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { selectionFromSearchParams } from "@/lib/runs/evaluation/queries";
import { loadCriticRunForm } from "@/lib/runs/critic/queries";
import { createCriticRunAction } from "./_actions/create-critic-run";
import { previewCriticRunAction } from "./_actions/preview-critic-run";

export const metadata: Metadata = { title: "Critic replay" };
export const dynamic = "force-dynamic";

export default async function CriticReplayPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("evaluation:create");
  const form = await loadCriticRunForm(db(), selectionFromSearchParams(await searchParams));
  return (
    <>
      <Breadcrumbs items={[{ href: "/runs", label: "Runs" }, { label: "Critic replay" }]} />
      <PageHeader
        title="Critic replay"
        description="Replay stored trajectories — imported or emulated — through a preemptive critic (InferAct, Fang et al. 2024, and its baselines). At every checkpoint (each call of a critical tool, and the final answer) the critic sees only the actions and observations so far, never the agent's thoughts, and says how likely the agent is still doing what the user asked. A checkpoint at or below τ is flagged. The run is played by the run workers: estimate first, then progress, cost, pause and resume; results on each trajectory's page and on the critic dashboard."
      />
      {form.error ? (
        <EmptyState title="This selection cannot be replayed." action={{ href: "/trajectories", label: "Choose trajectories" }} testId="critic-selection-error">
          <p>{form.error}</p>
        </EmptyState>
      ) : form.endpoints.length === 0 ? (
        <EmptyState title="No model endpoints yet." action={user.role === "ADMIN" ? { href: "/admin/endpoints", label: "Add an endpoint" } : undefined} testId="no-endpoints">
          <p>A critic needs an OpenAI-compatible endpoint (the offline model is added automatically by <code className="font-mono text-xs">npm start</code> in embedded mode).</p>
        </EmptyState>
      ) : form.trajectories === 0 ? (
        <EmptyState title="No trajectories to replay." action={{ href: form.backHref, label: "Back" }} testId="critic-empty">
          <p>The selection ({form.description}) matches no stored trajectory{form.running ? ` that has finished (${form.running} are still being played)` : ""}.</p>
        </EmptyState>
      ) : (
        <CriticRunForm form={form} createRun={createCriticRunAction} previewRun={previewCriticRunAction} />
      )}
    </>
  );
}
