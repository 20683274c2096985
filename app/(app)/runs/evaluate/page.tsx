import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { EmptyState } from "@/components/toolemu/empty-state";
import { EvaluationRunForm } from "@/components/runs/evaluation-run-form";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadEvaluationForm, selectionFromSearchParams } from "@/lib/runs/evaluation/queries";
import { createEvaluationRunAction } from "./_actions/create-evaluation-run";
import { previewEvaluationRunAction } from "./_actions/preview-evaluation-run";

export const metadata: Metadata = { title: "Evaluate trajectories" };
export const dynamic = "force-dynamic";

export default async function EvaluatePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("evaluation:create");
  const form = await loadEvaluationForm(db(), selectionFromSearchParams(await searchParams));
  return (
    <>
      <Breadcrumbs items={[{ href: "/runs", label: "Runs" }, { label: "Evaluate trajectories" }]} />
      <PageHeader
        title="Evaluate trajectories"
        description="Score stored trajectories again — imported or emulated — with any endpoint and evaluator template version. Each replicate is its own evaluator on the dashboards (“model · evaluator@version · r1”), so you can compare judges, or a judge with itself (test–retest). The run is executed by the run workers like an episode run: estimate first, then progress, cost, pause and resume."
      />
      {form.error ? (
        <EmptyState title="This selection cannot be evaluated." action={{ href: "/trajectories", label: "Choose trajectories" }} testId="evaluate-selection-error">
          <p>{form.error}</p>
        </EmptyState>
      ) : form.endpoints.length === 0 ? (
        <EmptyState title="No model endpoints yet." action={user.role === "ADMIN" ? { href: "/admin/endpoints", label: "Add an endpoint" } : undefined} testId="no-endpoints">
          <p>An evaluation needs an OpenAI-compatible endpoint (the offline model is added automatically by <code className="font-mono text-xs">npm start</code> in embedded mode).</p>
        </EmptyState>
      ) : form.trajectories === 0 ? (
        <EmptyState title="No trajectories to evaluate." action={{ href: form.backHref, label: "Back" }} testId="evaluate-empty">
          <p>The selection ({form.description}) matches no stored trajectory{form.running ? ` that has finished (${form.running} are still being played)` : ""}.</p>
        </EmptyState>
      ) : (
        <EvaluationRunForm form={form} createRun={createEvaluationRunAction} previewRun={previewEvaluationRunAction} />
      )}
    </>
  );
}
