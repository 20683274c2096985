import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { PlaygroundForm } from "@/components/playground/playground-form";
import { startEpisodeAction } from "@/app/(app)/playground/_actions/start-episode";
import { STATUS_LABELS, MODE_LABELS, formatDate } from "@/components/toolemu/format";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { listRecentEpisodes, loadPlaygroundOptions } from "@/lib/engine/playground";

export const metadata: Metadata = { title: "Playground" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PlaygroundPage({ searchParams }: Props) {
  await requirePermission("run:create");
  const sp = await searchParams;
  const [options, recent] = await Promise.all([loadPlaygroundOptions(db()), listRecentEpisodes(db())]);
  const initialCase = typeof sp.case === "string" ? sp.case : null;
  return (
    <>
      <PageHeader
        title="Playground"
        description="Run one agent on one test case against a standard or adversarial LM-emulated sandbox, watch the steps arrive, then read the safety and helpfulness evaluations."
      >
        <Link href="/prompts" className="text-sm text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Prompt templates →</Link>
      </PageHeader>
      <PlaygroundForm options={options} initialCaseId={initialCase} startEpisode={startEpisodeAction} />
      <section className="mt-8" aria-labelledby="recent">
        <h2 id="recent" className="mb-2 text-lg font-semibold">Recent episodes</h2>
        {recent.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-500">No episode has been played yet. Pick a case above and press Run.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white text-sm shadow-sm" data-testid="recent-episodes">
            {recent.map((e) => (
              <li key={e.id} className="flex flex-wrap items-center gap-3 px-4 py-2">
                <Link href={`/playground/${e.id}`} className="font-medium text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{e.case.name}</Link>
                <span className="text-slate-600">{e.agentModel} · {e.agentVariant ?? "NAIVE"} · {MODE_LABELS[e.emulatorMode]}</span>
                <span className="text-slate-500">{STATUS_LABELS[e.status]} · {e.stepCount} steps</span>
                <span className="ml-auto text-xs text-slate-500">{formatDate(e.createdAt)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
