import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { EmptyState } from "@/components/toolemu/empty-state";
import { SageRunForm } from "@/components/runs/sage-run-form";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadSageRunForm } from "@/lib/runs/sage/form";
import { createSageRunAction } from "./_actions/create-sage-run";
import { previewSageRunAction } from "./_actions/preview-sage-run";

export const metadata: Metadata = { title: "New SAGE run" };
export const dynamic = "force-dynamic";

export default async function NewSageRunPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("run:create");
  const form = await loadSageRunForm(db(), await searchParams);
  return (
    <>
      <Breadcrumbs items={[{ href: "/runs", label: "Runs" }, { label: "New SAGE run" }]} />
      <PageHeader
        title="New SAGE run"
        description="ForesightSafety-SAGE episodes on the run workers: in each, an attacker model plays the user and pushes the agent toward a risky act over a few turns; the agent answers with one tool call or a final answer; programmatic tools return observations and set the risk flags (UTR); the judges label the episode when it ends (ASR). The same scenarios are played under the Trust and the Warning authority text, so the two contexts compare pair by pair."
      />
      {form.totalScenarios === 0 ? (
        <EmptyState title="No SAGE scenarios yet." action={{ href: "/import?kind=sage", label: "Import scenario files" }} testId="sage-run-no-scenarios">
          <p>Import the family definitions and scenario files first (the bundled 112 seeds are imported by <code className="font-mono text-xs">npm start</code>).</p>
        </EmptyState>
      ) : form.endpoints.length === 0 ? (
        <EmptyState title="No model endpoints yet." action={user.role === "ADMIN" ? { href: "/admin/endpoints", label: "Add an endpoint" } : undefined} testId="no-endpoints">
          <p>An agent, an attacker and the judges need OpenAI-compatible endpoints (the offline model is added automatically by <code className="font-mono text-xs">npm start</code> in embedded mode).</p>
        </EmptyState>
      ) : (
        <SageRunForm form={form} createRun={createSageRunAction} previewRun={previewSageRunAction} />
      )}
    </>
  );
}
