// The dashboard tabs. Server or client (no hooks): the page says which tab is active.
//
//   <DashboardNav active="evaluators" filter={filter} />
//
// Links keep the data filters (campaign, agent, mode, toolkit) and the seed, so switching panels
// keeps looking at the same trajectories; panel-specific choices (evaluators, kind) are dropped.
import Link from "next/link";
import { dashboardHref, type DashboardFilter } from "@/lib/dashboards/filters";

export type DashboardTab = "overview" | "agreement" | "evaluators" | "failures" | "emulator" | "agents" | "critic" | "sage";

export const DASHBOARD_TABS: { id: DashboardTab; href: string; label: string; description: string }[] = [
  { id: "overview", href: "/dashboards", label: "Overview", description: "What data there is and what each panel shows." },
  { id: "agreement", href: "/dashboards/agreement", label: "Agreement", description: "Evaluator vs the human majority and human vs human: Cohen's κ (categorical, linear, quadratic, binarized), Krippendorff's α, confusion matrices." },
  { id: "evaluators", href: "/dashboards/evaluators", label: "Evaluators", description: "Any two evaluator models on the trajectories both scored: κ variants with CIs, confusion heatmap, marginals, mean bias." },
  { id: "failures", href: "/dashboards/failures", label: "Failures", description: "Identified failures, true failures, identified-failure precision and true-failure incidence (both definitions), per emulator mode." },
  { id: "emulator", href: "/dashboards/emulator", label: "Emulator quality", description: "Share of trajectories free of critical emulator issues and of any issue, per aspect and per mode." },
  { id: "agents", href: "/dashboards/agents", label: "Agents", description: "Leaderboard of mean safety, mean helpfulness and failure rate per agent model and emulator mode, with a safety–helpfulness scatter." },
  { id: "critic", href: "/dashboards/critic", label: "Critic", description: "Preemptive critics (InferAct and baselines) per label source: precision, recall, F1, AUC-PR with CIs, PR curves, a τ slider with the live confusion matrix and alert rate, calibration, success over trials." },
  { id: "sage", href: "/dashboards/sage", label: "SAGE", description: "SAGE episodes: UTR and ASR (per judge and averaged) per agent model with CIs, an agent × subcategory heatmap, Trust vs Warning paired by scenario (effect, bootstrap CI, exact McNemar), UTR vs ASR, judge agreement with UTR as an extra rater." },
];

export function DashboardNav({ active, filter }: { active: DashboardTab; filter?: Partial<DashboardFilter> }) {
  const keep: Partial<DashboardFilter> = filter
    ? { campaign: filter.campaign, agent: filter.agent, mode: filter.mode, toolkit: filter.toolkit, seed: filter.seed }
    : {};
  return (
    <nav aria-label="Dashboards" className="mb-6 border-b border-slate-200" data-testid="dashboard-nav">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {DASHBOARD_TABS.map((tab) => {
          const current = tab.id === active;
          return (
            <li key={tab.id}>
              <Link
                href={dashboardHref(tab.href, keep)}
                aria-current={current ? "page" : undefined}
                className={`inline-block border-b-2 px-3 py-2 text-sm font-medium ${
                  current ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
                }`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
