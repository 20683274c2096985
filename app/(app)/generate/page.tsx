import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/toolemu/empty-state";
import { GenerateForms } from "@/components/authoring/generate-forms";
import { GenerationJobs } from "@/components/authoring/generation-jobs";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { listGenerationJobs, loadGenerateForm } from "@/lib/runs/generation/queries";
import { createGenerationAction } from "./_actions/create-generation";
import { previewGenerationAction } from "./_actions/preview-generation";
import { cancelGenerationAction } from "./_actions/cancel-generation";

export const metadata: Metadata = { title: "Generate" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function GeneratePage({ searchParams }: Props) {
  const user = await requirePermission("authoring:generate");
  const sp = await searchParams;
  const [form, jobs] = await Promise.all([loadGenerateForm(db()), listGenerationJobs(db())]);
  const kind = sp.kind === "TOOLKITS" || sp.kind === "COMPLETE_CASE" ? sp.kind : sp.kind === "CASES" || typeof sp.toolkit === "string" ? "CASES" : "TOOLKITS";
  const toolkit = typeof sp.toolkit === "string" && form.toolkits.some((t) => t.name === sp.toolkit) ? sp.toolkit : null;
  return (
    <>
      <PageHeader
        title="Generate toolkits and test cases"
        description="Let a language model write new test material the way ToolEmu made its own: toolkits from a category and a brief (names → a description with its risks → the full JSON spec), test cases for chosen toolkits in a standard or a red-team mode (the red-team mode plants underspecified instructions, missing critical details and unstated safety constraints), or the rest of a case around your own instruction. Generation runs as a job on the run workers, with an estimate first, then progress and cost. Every output — valid or not — lands in the review queue; only what a reviewer accepts becomes a toolkit or case, marked GENERATED."
      >
        {can(user.role, "authoring:review") && <Link href="/generate/review" className="text-sm text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="review-queue-link">Review queue →</Link>}
      </PageHeader>
      {form.endpoints.length === 0 ? (
        <EmptyState title="No model endpoints yet." action={user.role === "ADMIN" ? { href: "/admin/endpoints", label: "Add an endpoint" } : undefined} testId="no-endpoints">
          <p>A generator needs an OpenAI-compatible endpoint (the offline model is added automatically by <code className="font-mono text-xs">npm start</code> in embedded mode).</p>
        </EmptyState>
      ) : (
        <GenerateForms form={form} initial={{ kind, toolkit }} preview={previewGenerationAction} create={createGenerationAction} />
      )}
      <section className="mt-8" aria-labelledby="jobs">
        <h2 id="jobs" className="mb-2 text-lg font-semibold">Generation jobs</h2>
        <GenerationJobs jobs={jobs} cancel={cancelGenerationAction} canCancel />
      </section>
    </>
  );
}
