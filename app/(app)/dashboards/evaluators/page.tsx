import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { EmptyState, NoDataImported } from "@/components/toolemu/empty-state";
import { shortModel } from "@/components/toolemu/format";
import { DashboardNav } from "@/components/dashboards/dashboard-nav";
import { FilterBar } from "@/components/dashboards/filter-bar";
import { CsvLink } from "@/components/dashboards/csv-link";
import { HowComputed } from "@/components/dashboards/how-computed";
import { KappaTable, MarginalsTable } from "@/components/dashboards/kappa-table";
import { ConfusionHeatmap } from "@/components/dashboards/confusion-heatmap";
import { Estimate } from "@/components/dashboards/estimate";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { loadEvaluatorsPanel } from "@/lib/dashboards/evaluators";
import { KIND_NAMES, dashboardHref, hasActiveFilter, parseDashboardFilter } from "@/lib/dashboards/filters";
import { fmtInt } from "@/components/ui/format";
import { filterQuery } from "@/lib/toolemu/filters";

export const metadata: Metadata = { title: "Evaluator vs evaluator · Dashboards" };

const PATH = "/dashboards/evaluators";

export default async function EvaluatorsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("dashboard:read");
  const filter = parseDashboardFilter(await searchParams);
  const panel = await loadEvaluatorsPanel(db(), filter);
  const { comparison: c, pair, kind } = panel;
  const kindName = KIND_NAMES[kind];
  const nameA = pair ? shortModel(pair.a) : "";
  const nameB = pair ? shortModel(pair.b) : "";
  const noData = panel.options.evaluators.length === 0;

  return (
    <>
      <DashboardNav active="evaluators" filter={filter} />
      <PageHeader
        title="Evaluator vs evaluator"
        description="How well two automatic evaluators agree on the same trajectories (multi-judge agreement): Cohen's κ on the 0–3 scale and binarized, raw agreement, marginals and mean bias, each with n and a 95% CI (bootstrap for κ and the mean bias, Wilson for raw agreement)."
      >
        {c && <CsvLink panel="evaluators" filter={{ ...filter, kind, evaluator: c.a, evaluatorB: c.b }} disabled={c.summary.n === 0} />}
      </PageHeader>

      {noData ? (
        <NoDataImported what="evaluations" canImport={can(user.role, "data:import")} />
      ) : (
        <>
          <FilterBar
            path={PATH}
            filter={filter}
            fields={["kind", "evaluator", "evaluatorB", "agent", "mode", "toolkit", "campaign", "seed"]}
            options={{ agents: panel.options.agents, toolkits: panel.options.toolkits, campaigns: panel.options.campaigns, evaluators: panel.evaluators, evaluatorsB: panel.evaluators }}
            labels={{ evaluator: "First evaluator (rows)", evaluatorB: "Second evaluator (columns)" }}
            placeholders={{
              evaluator: pair && pair.source !== "url" && !filter.evaluator ? `Default: ${nameA}` : "Default",
              evaluatorB: pair && pair.source !== "url" && !filter.evaluatorB ? `Default: ${nameB}` : "Default",
            }}
            defaults={{ kind: "SAFETY" }}
          />

          {!pair || !c ? (
            <EmptyState
              title={panel.trajectories === 0 ? "No trajectories match these filters." : "Nothing to compare."}
              action={{ href: dashboardHref(PATH, { seed: filter.seed, kind: filter.kind }), label: "Reset the filters" }}
              testId={panel.trajectories === 0 ? "no-matches" : "no-pair"}
            >
              <p>
                {panel.trajectories === 0
                  ? "Remove a filter (agent, emulator mode, toolkit or campaign) to see evaluator agreement."
                  : `${fmtInt(panel.trajectories)} trajectories match, but ${panel.reason ?? "two evaluators are needed"}.`}
              </p>
            </EmptyState>
          ) : c.summary.n === 0 ? (
            <EmptyState title={`${nameA} and ${nameB} have no ${kindName.toLowerCase()} scores on the same trajectories under this filter.`} action={{ href: dashboardHref(PATH, { seed: filter.seed, kind: filter.kind, evaluator: filter.evaluator, evaluatorB: filter.evaluatorB }), label: "Clear the trajectory filters" }} testId="no-matches">
              <p>
                {fmtInt(panel.trajectories)} trajectories match the filter{hasActiveFilter(filter) ? "" : " (no filter set)"}; κ is undefined on zero paired items.
              </p>
            </EmptyState>
          ) : (
            <Panel id="comparison" testId="comparison" title={<>{kindName}: <span title={c.a}>{nameA}</span> vs <span title={c.b}>{nameB}</span></>}>
              <p className="mb-4 text-sm text-slate-600">
                <span data-testid="paired-n">{fmtInt(c.summary.n)}</span> trajectories scored by both
                {pair.source === "default" && " — the pair of evaluators with the most trajectories in common (choose others above)"}
                {pair.source === "partly" && " — the evaluator sharing the most trajectories was chosen for the empty side"}
                .{" "}
                {c.unparsed > 0 && <>{fmtInt(c.unparsed)} more were scored by both but at least one score could not be parsed; they are left out. </>}
                Bootstrap seed <code className="font-mono text-xs">{c.seed}</code>.
              </p>

              <div className="mb-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="kappa-cards">
                {(["categorical", "linear", "quadratic", "binarized"] as const).map((v) => (
                  <div key={v} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
                    <p className="text-xs font-medium tracking-wide text-slate-500">κ {v}{v === "binarized" ? " (≥ 2)" : " (0–3)"}</p>
                    <div className="mt-1 text-2xl">
                      <Estimate value={c.summary.kappa[v]} ci={c.intervals[v]} n={c.summary.kappa[v].n} chanceCorrected layout="stacked" testId={`card-kappa-${v}`} />
                    </div>
                  </div>
                ))}
              </div>

              <div className="grid gap-6 xl:grid-cols-2">
                <KappaTable columns={[{ heading: `${nameA} vs ${nameB}`, summary: c.summary, intervals: c.intervals }]} caption={`${kindName} scores (0–3), ${nameA} first, ${nameB} second`} />
                <ConfusionHeatmap
                  counts={c.matrix.counts}
                  labels={c.matrix.labels}
                  rowTitle={`${nameA} (first)`}
                  colTitle={`${nameB} (second)`}
                  kind={kind}
                  caption={`Confusion matrix: trajectories per pair of ${kindName.toLowerCase()} scores`}
                />
                <MarginalsTable summary={c.summary} rater1={nameA} rater2={nameB} kind={kind} />
                <div className="rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm">
                  <p className="font-medium text-slate-800">Mean bias ({nameB} − {nameA})</p>
                  <p className="mt-1 text-xl">
                    <Estimate value={c.summary.meanBias} ci={c.intervals.meanBias} n={c.summary.n} testId="mean-bias-headline" />
                  </p>
                  <p className="mt-2 text-slate-600">
                    Average difference of the two scores on the same trajectory. Above 0: {nameB} scores higher
                    {kind === "SAFETY" ? " (judges the tool calls safer)" : " (judges the agent more helpful)"}; below 0: {nameA} does.
                  </p>
                  <p className="mt-3 text-slate-600">
                    Open these trajectories:{" "}
                    <Link className="font-medium text-indigo-700 underline" href={`/trajectories${filterQuery({ evaluator: c.a, agent: filter.agent, mode: filter.mode, toolkit: filter.toolkit, sort: kind === "SAFETY" ? "safety" : "helpfulness", page: 1 })}`}>
                      scored by {nameA}
                    </Link>
                  </p>
                </div>
              </div>
            </Panel>
          )}

          <HowComputed
            seed={filter.seed}
            resamples={1000}
            intervals="both"
            formula={
              <>
                Cohen&apos;s κ = 1 − Σ w<sub>ij</sub>·O<sub>ij</sub> / Σ w<sub>ij</sub>·E<sub>ij</sub>, where O is the 4×4 matrix of
                trajectories per pair of scores (first evaluator&apos;s score i, second&apos;s j) and E = outer(row sums, column sums) / n.
                Weights: categorical w = [i ≠ j]; linear w = |i − j|; quadratic w = (i − j)², always over the full scale 0–3 (a score nobody gave
                still counts). Binarized κ collapses scores to ≥ 2 (safe / helpful) vs &lt; 2 and uses categorical weights. κ is shown as
                “undefined” when the chance disagreement Σ w·E is 0 (e.g. both gave every trajectory the same score). Raw agreement = share of
                trajectories with the same score; mean bias = mean of (second − first).
              </>
            }
            counts={
              <>
                A trajectory counts when both evaluators gave it a parsed {kindName.toLowerCase()} score and it matches the filters (agent, emulator
                mode, toolkit of its case, campaign membership). The score pairs are counted in the database (GROUP BY first score, second score);
                every statistic is computed from those 16 counts. Scores that could not be parsed are left out and reported above.
              </>
            }
          >
            <p>
              Intervals resample trajectories: a resample of n trajectories from the observed pairs is a multinomial draw over the 16 cells,
              so κ, raw agreement and mean bias are recomputed on the same 1,000 resamples; resamples on which κ is undefined are left out and
              counted.
            </p>
          </HowComputed>
        </>
      )}
    </>
  );
}
