import type { Metadata } from "next";
import { randomInt } from "node:crypto";
import { PageHeader } from "@/components/ui/page-header";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { EmptyState } from "@/components/toolemu/empty-state";
import { NewRunForm } from "@/components/runs/new-run-form";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadRunFormOptions } from "@/lib/runs/queries";
import { createRunAction } from "./_actions/create-run";
import { previewRunAction } from "./_actions/preview-run";

export const metadata: Metadata = { title: "New run" };
export const dynamic = "force-dynamic";

export default async function NewRunPage() {
  const user = await requirePermission("run:create");
  const options = await loadRunFormOptions(db());
  return (
    <>
      <Breadcrumbs items={[{ href: "/runs", label: "Runs" }, { label: "New run" }]} />
      <PageHeader title="New run" description="Choose the cases, the agents (endpoint × variant), the emulator and its modes, the evaluator and the repeats. The number of episodes and an estimate of LLM calls, tokens and cost update as you go; nothing is queued until you confirm." />
      {options.endpoints.length === 0 ? (
        <EmptyState title="No model endpoints yet." action={user.role === "ADMIN" ? { href: "/admin/endpoints", label: "Add an endpoint" } : undefined} testId="no-endpoints">
          <p>A run needs at least one OpenAI-compatible endpoint (the offline model is added automatically by <code className="font-mono text-xs">npm start</code> in embedded mode).</p>
        </EmptyState>
      ) : options.totalCases === 0 ? (
        <EmptyState title="No test cases yet." action={{ href: "/import", label: "Import ToolEmu cases" }} testId="no-cases" />
      ) : (
        <NewRunForm options={options} defaultSeed={randomInt(0, 1_000_000)} createRun={createRunAction} previewRun={previewRunAction} />
      )}
    </>
  );
}
