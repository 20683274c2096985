import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { EmptyState } from "@/components/toolemu/empty-state";
import { shortModel } from "@/components/toolemu/format";
import { DashboardNav } from "@/components/dashboards/dashboard-nav";
import { HumanFilterBar } from "@/components/dashboards/human/human-filter-bar";
import { CsvLink } from "@/components/dashboards/csv-link";
import { HowComputed } from "@/components/dashboards/how-computed";
import { KappaTable, MarginalsTable } from "@/components/dashboards/kappa-table";
import { ConfusionHeatmap } from "@/components/dashboards/confusion-heatmap";
import { Estimate } from "@/components/dashboards/estimate";
import { HumanEmpty, ScopeLine } from "@/components/dashboards/human/human-empty";
import { HumanAgreementTable, type AgreementCell, type AgreementTableRow } from "@/components/dashboards/human/agreement-table";
import { PairwiseHeatmap } from "@/components/dashboards/human/pairwise-heatmap";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { dashboardHref, parseDashboardFilter, type KindValue } from "@/lib/dashboards/filters";
import { fmtInt } from "@/components/ui/format";
import type { EvaluatorHumanKind } from "@/lib/dashboards/human/evaluator-vs-human";
import { HUMAN_KINDS, HUMAN_KIND_NAMES, type HumanKind } from "@/lib/dashboards/human/fields";
import { pairwiseMatrix } from "@/lib/dashboards/human/human-vs-human";
import { loadAgreementPanel } from "@/lib/dashboards/human/panels";
import { KAPPA_VARIANTS, type KappaVariant } from "@/lib/metrics";
import { ScrollRegion } from "@/components/ui/scroll-region";

export const metadata: Metadata = { title: "Agreement · Dashboards" };

const PATH = "/dashboards/agreement";
const KIND_VALUE: Record<HumanKind, KindValue> = { safety: "SAFETY", helpfulness: "HELPFULNESS" };

/** The 0–3 summary with the binarized entry replaced by binarize-then-vote (what the table means). */
function combined(e: EvaluatorHumanKind) {
  const r = e.score.ranges;
  const rb = e.binarized.ranges;
  return {
    summary: { ...e.score.summary, kappa: { ...e.score.summary.kappa, binarized: e.binarized.summary.kappa.binarized } },
    intervals: { ...e.score.intervals, binarized: e.binarized.intervals.binarized },
    // On the 2×2 binarize-then-vote table the categorical κ is the binarized κ.
    ranges: r && rb ? { ...r, binarized: rb.categorical } : undefined,
    tiesExcluded: { score: e.score.tiesExcluded ?? 0, binarized: e.binarized.tiesExcluded ?? 0 },
  };
}

function byVariant(cell: (v: KappaVariant) => AgreementCell): Record<KappaVariant, AgreementCell> {
  return { categorical: cell("categorical"), linear: cell("linear"), quadratic: cell("quadratic"), binarized: cell("binarized") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AgreementPage({ searchParams }: Props) {
  await requirePermission("dashboard:read");
  const params = await searchParams;
  const filter = parseDashboardFilter(params);
  const variantParam = Array.isArray(params.kappa) ? params.kappa[0] : params.kappa;
  const variant: KappaVariant = (KAPPA_VARIANTS as readonly string[]).includes(variantParam ?? "") ? (variantParam as KappaVariant) : "binarized";
  const panel = await loadAgreementPanel(db(), filter);
  const { scope, evaluatorVsHuman: evh, human } = panel;
  const evaluatorName = scope?.evaluator ? shortModel(scope.evaluator) : "no evaluator";
  const variantHref = (v: KappaVariant) => {
    const q = dashboardHref(PATH, filter);
    return `${q}${q.includes("?") ? "&" : "?"}kappa=${v}#human-human`;
  };
  const nothing = !!evh && !!human && human.items.safety.labelled === 0 && human.items.helpfulness.labelled === 0;

  return (
    <>
      <DashboardNav active="agreement" filter={filter} />
      <PageHeader
        title="Agreement with human labels"
        description="Cohen's κ between the automatic evaluator and the majority of the human annotations, and between the humans themselves — categorical, linear, quadratic (0–3) and binarized, each with n and a 95% bootstrap CI — plus raw agreement (Wilson interval), marginals, confusion matrices and Krippendorff's α."
      >
        {scope && <CsvLink panel="agreement" filter={{ ...filter, campaign: scope.campaign.id, evaluator: scope.evaluator ?? undefined }} disabled={nothing} />}
      </PageHeader>

      <HumanFilterBar path={PATH} filter={filter} panel={panel} evaluatorLabel="Evaluator (vs humans)" />

      {!scope || !evh || !human ? (
        <HumanEmpty missing={panel.missing} campaignName={panel.missingCampaignName} path={PATH} filter={filter} />
      ) : (
        <>
          <ScopeLine campaign={scope.campaign.name} defaulted={scope.campaign.defaulted} evaluator={scope.evaluator} evaluatorDefaulted={scope.evaluatorDefaulted} seed={scope.seed} ties={scope.ties}>
            {" · "}
            <Link className="text-indigo-700 underline" href={`/campaigns/${scope.campaign.id}`}>open the campaign</Link>
          </ScopeLine>

          {nothing ? (
            <EmptyState title="No labelled trajectory of this campaign matches the filters." action={{ href: dashboardHref(PATH, { campaign: filter.campaign, evaluator: filter.evaluator, seed: filter.seed }), label: "Clear the trajectory filters" }} testId="no-matches">
              <p>Remove the agent, emulator mode or toolkit filter.</p>
            </EmptyState>
          ) : (
            <>
              <Panel id="table" title="Agreement table" className="mb-8" testId="agreement-summary">
                <HumanAgreementTable
                  evaluatorName={evaluatorName}
                  rows={HUMAN_KINDS.map((kind): AgreementTableRow => {
                    const c = combined(evh[kind]);
                    const loo = human.loo[kind];
                    return {
                      id: kind,
                      label: HUMAN_KIND_NAMES[kind],
                      evaluator: byVariant((v) => ({
                        value: c.summary.kappa[v],
                        ci: c.intervals[v],
                        n: c.summary.kappa[v].n,
                        range: c.ranges?.[v],
                        tiesExcluded: v === "binarized" ? c.tiesExcluded.binarized : c.tiesExcluded.score,
                      })),
                      human: byVariant((v) => ({ value: loo[v].result.mean, ci: loo[v].interval, n: loo[v].result.items })),
                    };
                  })}
                />
                <p className="mt-2 text-xs text-slate-500">
                  n: items compared — evaluator: items with a human majority and an evaluator score; human: items with at least two labels. Human vs human averages{" "}
                  {human.loo.safety.categorical.result.mean.annotators} annotators&apos; κ against the majority of the others.
                  {(evh.safety.unscored > 0 || evh.helpfulness.unscored > 0) && (
                    <> {fmtInt(Math.max(evh.safety.unscored, evh.helpfulness.unscored))} labelled items have no score from {evaluatorName} and are left out of the evaluator columns.</>
                  )}
                </p>
              </Panel>

              <Panel id="evh" title="Evaluator vs human majority" className="mb-8">
                <p className="mb-4 text-sm text-slate-600">
                  Rows: {evaluatorName}&apos;s score; columns: the human ground truth (adjudicated, else the strict majority).{" "}
                  <span data-testid="evh-ties-note">
                    {evh.safety.score.ties + evh.helpfulness.score.ties > 0
                      ? `${fmtInt(evh.safety.score.ties)} safety and ${fmtInt(evh.helpfulness.score.ties)} helpfulness ground truths (0–3) are unadjudicated ties: ${
                          scope.ties === "exclude" ? "left out" : scope.ties === "seeded" ? `resolved with seed ${scope.seed}` : `resolved with seed ${scope.seed}, with the range over every resolution beside each value`
                        }.`
                      : "No ground truth is an unadjudicated tie."}
                  </span>
                </p>
                {HUMAN_KINDS.map((kind) => {
                  const e = evh[kind];
                  const c = combined(e);
                  return (
                    <div key={kind} className="mb-6" data-testid={`evh-${kind}`}>
                      <h3 className="mb-2 text-base font-semibold text-slate-800">{HUMAN_KIND_NAMES[kind]}</h3>
                      <div className="grid gap-4 xl:grid-cols-2">
                        <KappaTable columns={[{ heading: `${evaluatorName} vs human ground truth`, summary: c.summary, intervals: c.intervals, ranges: c.ranges, testId: `evh-${kind}` }]} caption={`${HUMAN_KIND_NAMES[kind]}: κ, raw agreement and mean bias (human − evaluator)`} />
                        <ConfusionHeatmap
                          counts={e.score.confusion.counts}
                          labels={e.score.confusion.labels}
                          rowTitle={`${evaluatorName} (evaluator)`}
                          colTitle="human majority"
                          kind={KIND_VALUE[kind]}
                          caption={`${HUMAN_KIND_NAMES[kind]} 0–3: items per (evaluator, majority) score pair`}
                          testId={`confusion-${kind}`}
                        />
                        <MarginalsTable summary={e.score.summary} rater1={`${evaluatorName} (evaluator)`} rater2="human majority" kind={KIND_VALUE[kind]} />
                        <ConfusionHeatmap
                          counts={e.binarized.confusion.counts}
                          labels={e.binarized.confusion.labels}
                          rowTitle="evaluator ≥ 2"
                          colTitle="human majority (≥ 2)"
                          caption={`${HUMAN_KIND_NAMES[kind]} binarized (1 = ${kind === "safety" ? "safe" : "helpful"}, score ≥ 2): every label binarized first, then the vote`}
                          testId={`confusion-${kind}-binarized`}
                        />
                      </div>
                    </div>
                  );
                })}
              </Panel>

              <Panel id="human-human" anchor="human-human" title="Human vs human" className="mb-8">
                <div className="mb-4 flex flex-wrap items-center gap-2 text-sm" role="group" aria-label="κ variant of the heatmaps">
                  <span className="text-slate-600">Heatmaps show κ</span>
                  {KAPPA_VARIANTS.map((v) => (
                    <Link
                      key={v}
                      href={variantHref(v)}
                      aria-current={v === variant ? "true" : undefined}
                      className={`rounded-md border px-2 py-1 ${v === variant ? "border-indigo-600 bg-indigo-50 font-medium text-indigo-800" : "border-slate-300 text-slate-700 hover:bg-slate-50"}`}
                      data-testid={`variant-${v}`}
                    >
                      {v}
                    </Link>
                  ))}
                </div>
                <div className="grid gap-4 xl:grid-cols-2">
                  {HUMAN_KINDS.map((kind) => {
                    const matrix = pairwiseMatrix(human.pairwise[kind], human.annotators.length);
                    const loo = human.loo[kind][variant];
                    return (
                      <div key={kind} className="space-y-4">
                        <PairwiseHeatmap
                          names={human.annotators.map((a) => a.name)}
                          cells={matrix.map((row) => row.map((e) => (e ? { value: e.block.summary.kappa[variant], ci: e.block.intervals[variant], n: e.block.n } : null)))}
                          caption={`${HUMAN_KIND_NAMES[kind]}: κ ${variant} for every pair of annotators (items both labelled)`}
                          testId={`pairwise-${kind}`}
                        />
                        <ScrollRegion>
                          <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid={`loo-${kind}`}>
                            <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-800">
                              {HUMAN_KIND_NAMES[kind]}: each annotator vs the majority of the others (κ {variant})
                            </caption>
                            <thead className="bg-slate-50">
                              <tr>
                                <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">Annotator</th>
                                <th scope="col" className="px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600">κ {variant}</th>
                              </tr>
                            </thead>
                            <tbody className="divide-y divide-slate-100">
                              {loo.result.perAnnotator.map((a) => (
                                <tr key={a.annotator}>
                                  <th scope="row" className="px-3 py-2 text-left font-medium text-slate-800">{human.annotators[a.annotator]!.name}</th>
                                  <td className="px-3 py-2"><Estimate value={a.kappa} n={a.confusion.n} chanceCorrected /></td>
                                </tr>
                              ))}
                              <tr className="bg-slate-50/60">
                                <th scope="row" className="px-3 py-2 text-left font-medium text-slate-800">Mean (the table&apos;s human vs human)</th>
                                <td className="px-3 py-2"><Estimate value={loo.result.mean} ci={loo.interval} n={loo.result.items} chanceCorrected testId={`loo-${kind}-mean`} /></td>
                              </tr>
                            </tbody>
                          </table>
                          <p className="px-3 pb-3 text-xs text-slate-500">
                            {fmtInt(loo.ties)} of the others&apos; votes were ties, {scope.ties === "exclude" ? "left out" : `broken with seed ${scope.seed}`}
                            {scope.ties === "sensitivity" ? " (no range is computed for leave-one-out)" : ""}. n under an annotator: items they labelled that someone else labelled too.
                          </p>
                        </ScrollRegion>
                      </div>
                    );
                  })}
                </div>

                <div className="mt-4 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
                  <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="alpha-table">
                    <caption className="px-3 pt-3 text-left text-sm font-medium text-slate-800">Krippendorff&apos;s α over all annotators (missing labels allowed)</caption>
                    <thead className="bg-slate-50">
                      <tr>
                        <th scope="col" className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">Score</th>
                        {(["nominal", "ordinal", "interval"] as const).map((l) => (
                          <th key={l} scope="col" className="px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600">α {l}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {HUMAN_KINDS.map((kind) => (
                        <tr key={kind}>
                          <th scope="row" className="px-3 py-2 text-left font-medium text-slate-800">{HUMAN_KIND_NAMES[kind]}</th>
                          {(["nominal", "ordinal", "interval"] as const).map((l) => {
                            const a = human.alpha[kind][l];
                            return (
                              <td key={l} className="px-3 py-2">
                                <Estimate value={a.result} ci={a.interval} n={a.result.pairableUnits} chanceCorrected testId={`alpha-${kind}-${l}`} />
                              </td>
                            );
                          })}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  <p className="px-3 pb-3 text-xs text-slate-500">n: items with at least two labels (units with one label are not pairable and drop out).</p>
                </div>
              </Panel>
            </>
          )}

          <HowComputed
            seed={scope.seed}
            resamples={evh.resamples}
            intervals="both"
            ties={scope.ties}
            formula={
              <>
                Cohen&apos;s κ = 1 − Σ w<sub>ij</sub>·O<sub>ij</sub> / Σ w<sub>ij</sub>·E<sub>ij</sub> with E = outer(row sums, column sums) / n, over the full scale 0–3
                (categorical w = [i ≠ j], linear |i − j|, quadratic (i − j)²); “undefined” when Σ w·E = 0. <strong>Binarized</strong>: every label is
                binarized first (score ≥ 2 → safe / helpful), then the humans vote — ToolEmu&apos;s annotators gave a binary judgement — and κ is taken
                on the 2×2 table against the evaluator&apos;s binarized score. Human vs human: each annotator&apos;s κ against the majority of the other
                annotators of the same items (leave-one-out), averaged over annotators with a defined κ; the heatmap is κ for each pair of annotators on
                the items both labelled. Krippendorff&apos;s α = 1 − D<sub>o</sub>/D<sub>e</sub> from the coincidence matrix of all labels.
              </>
            }
            counts={
              <>
                Labels are the submitted labels of the campaign (drafts and skips are not used); a safety label counts as its score (Likely Mild and
                Possible Severe Risk are both 1). The human ground truth of an item (evaluator columns) is its adjudicated score if a PI adjudicated it,
                else its strict majority; human vs human uses the annotators&apos; own labels only. The seeded tie-break:
                the tied scores in ascending order, and tied score number (x mod number tied) wins, where x is a 4-hex-digit part of
                md5(&apos;seed:item id&apos;) — digits 1–4 for safety, 5–8 helpfulness, 9–12 binarized safety, 13–16 binarized helpfulness; the
                leave-one-out votes use md5(&apos;seed:item id:without:annotator id&apos;). Items the evaluator did not score (or whose score did not parse)
                are left out of the evaluator columns only. Filters (agent, emulator mode, toolkit) narrow the campaign&apos;s items.
              </>
            }
          >
            <p>
              Everything is counted in the database: per-item vote counts (GROUP BY item), the majority from them, then label-pair counts (GROUP BY
              evaluator score, majority score; per annotator pair; per leave-one-out pattern; per value-count pattern for α). κ, α and the intervals are
              computed from those counts. Intervals resample items: a multinomial draw over the counted cells (or patterns of items), 1,000 times;
              resamples on which a statistic is undefined are left out and counted (see a CI&apos;s tooltip).
            </p>
          </HowComputed>
        </>
      )}
    </>
  );
}
