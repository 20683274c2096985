import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { shortModel } from "@/components/toolemu/format";
import { DASHBOARD_TABS, DashboardNav } from "@/components/dashboards/dashboard-nav";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadDataOverview } from "@/lib/dashboards/options";
import { MODE_NAMES, type EmulatorModeValue } from "@/lib/dashboards/filters";
import { fmtInt } from "@/components/ui/format";

export const metadata: Metadata = { title: "Dashboards" };

// Which panels need human labels (from annotation campaigns) and which run on evaluator scores.
const NEEDS: Record<string, "human" | "evaluator" | "critic" | "sage" | null> = {
  agreement: "human",
  evaluators: "evaluator",
  failures: "human",
  emulator: "human",
  agents: "evaluator",
  critic: "critic",
  sage: "sage",
};

export default async function DashboardsPage() {
  await requirePermission("dashboard:read");
  const data = await loadDataOverview(db());
  const stats: { label: string; value: number; detail?: string; testId: string }[] = [
    {
      label: "Trajectories",
      value: data.trajectories,
      detail: data.byMode.map((m) => `${fmtInt(m.trajectories)} ${MODE_NAMES[m.mode as EmulatorModeValue]?.toLowerCase() ?? m.mode}`).join(" · ") || undefined,
      testId: "stat-trajectories",
    },
    { label: "Agent models", value: data.agents, detail: `${fmtInt(data.cases)} test cases`, testId: "stat-agents" },
    { label: "Evaluators", value: data.evaluators.length, detail: `${fmtInt(data.evaluations)} evaluations`, testId: "stat-evaluators" },
    { label: "Campaigns", value: data.campaigns, detail: `${fmtInt(data.campaignItems)} items`, testId: "stat-campaigns" },
    { label: "Human labels", value: data.humanLabels, detail: `on ${fmtInt(data.labelledItems)} items`, testId: "stat-human-labels" },
  ];
  const panels = DASHBOARD_TABS.filter((t) => t.id !== "overview");

  return (
    <>
      <DashboardNav active="overview" />
      <PageHeader
        title="Dashboards"
        description="Can the emulators and evaluators be trusted, and how do the agents fare? Every number carries its n, a 95% bootstrap confidence interval and a note on how it is computed; every panel filters by campaign, agent, emulator mode, toolkit and evaluator, keeps the filter in the URL and downloads its numbers as CSV."
      />

      <Panel id="data" title="What data there is" className="mb-8">
        <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
          {stats.map((s) => (
            <div key={s.label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{s.label}</dt>
              <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={s.testId}>{fmtInt(s.value)}</dd>
              {s.detail && <dd className="mt-0.5 text-xs text-slate-500">{s.detail}</dd>}
            </div>
          ))}
        </dl>
        {data.evaluators.length > 0 && (
          <div className="mt-3 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="evaluator-counts">
              <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-800">Evaluator models and their evaluations</caption>
              <thead className="bg-slate-50">
                <tr>
                  <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">Evaluator</th>
                  <th scope="col" className="px-3 py-2 text-right text-xs font-semibold uppercase tracking-wide text-slate-600">Safety</th>
                  <th scope="col" className="px-3 py-2 text-right text-xs font-semibold uppercase tracking-wide text-slate-600">Helpfulness</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.evaluators.map((e) => (
                  <tr key={e.model}>
                    <th scope="row" className="px-3 py-2 text-left font-medium text-slate-800" title={e.model}>{shortModel(e.model)} <span className="ml-1 text-xs font-normal text-slate-500">{e.model !== shortModel(e.model) ? e.model : ""}</span></th>
                    <td className="px-3 py-2 text-right tabular-nums">{fmtInt(e.safety)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{fmtInt(e.helpfulness)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>

      <Panel id="panels" title="Panels">
        <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {panels.map((p) => {
            const needs = NEEDS[p.id];
            const missing = needs === "human" ? data.humanLabels === 0 : needs === "evaluator" ? data.evaluations === 0 : false;
            return (
              <li key={p.id}>
                <Link href={p.href} className="block h-full rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-indigo-300 hover:shadow" data-testid={`panel-${p.id}`}>
                  <span className="flex items-center justify-between gap-2">
                    <span className="font-semibold text-indigo-700">{p.label}</span>
                    <span className={`rounded-full px-2 py-0.5 text-xs ring-1 ring-inset ${needs === "human" ? "bg-amber-50 text-amber-800 ring-amber-200" : needs === "critic" || needs === "sage" ? "bg-violet-50 text-violet-800 ring-violet-200" : "bg-sky-50 text-sky-800 ring-sky-200"}`}>
                      {needs === "human" ? "needs human labels" : needs === "critic" ? "needs critic assessments" : needs === "sage" ? "needs SAGE episodes" : "evaluator scores"}
                    </span>
                  </span>
                  <span className="mt-2 block text-sm text-slate-600">{p.description}</span>
                  {missing && (
                    <span className="mt-2 block text-xs text-amber-700">
                      {needs === "human" ? "No submitted human labels yet: run an annotation campaign first." : "No evaluations imported yet."}
                    </span>
                  )}
                </Link>
              </li>
            );
          })}
        </ul>
      </Panel>
    </>
  );
}
