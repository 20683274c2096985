import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/toolemu/empty-state";
import { RunTable } from "@/components/runs/run-table";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { listRuns } from "@/lib/runs/queries";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

export default async function RunsPage() {
  const user = await requirePermission("run:read");
  const runs = await listRuns(db());
  const mayCreate = can(user.role, "run:create");
  return (
    <>
      <PageHeader title="Runs" description="Batches of emulated episodes — cases × agents × emulator modes × repeats — evaluation runs that score stored trajectories again, critic replays that judge them at their checkpoints, and SAGE runs (risk scenarios under the Trust and Warning authority texts, with an attacker and judges), played by background workers. Open a run for live progress, errors, results and its trajectories.">
        {can(user.role, "evaluation:create") && <Link href="/trajectories" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="new-evaluation-run" title="Filter the trajectory list, then “Evaluate these…”">Evaluate trajectories…</Link>}
        {can(user.role, "evaluation:create") && <Link href="/runs/critic" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="new-critic-run" title="Replay stored trajectories through a preemptive critic (InferAct and baselines); filter the trajectory list first to replay a subset">Critic replay…</Link>}
        {mayCreate && <Link href="/runs/sage" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="new-sage-run" title="ForesightSafety-SAGE scenarios under the Trust and Warning authority texts, with an attacker and judges">New SAGE run…</Link>}
        {mayCreate && <Link href="/runs/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500" data-testid="new-run">New run</Link>}
      </PageHeader>
      {runs.length === 0 ? (
        <EmptyState title="No runs yet." action={mayCreate ? { href: "/runs/new", label: "Create the first run" } : undefined} testId="no-runs">
          <p>A run plays chosen cases against one or more agent endpoints and variants, with a standard and/or adversarial emulator, and scores every trajectory. Workers (<code className="font-mono text-xs">npm run worker</code>; <code className="font-mono text-xs">npm start</code> runs one) share the work.</p>
        </EmptyState>
      ) : (
        <RunTable rows={runs} />
      )}
    </>
  );
}
