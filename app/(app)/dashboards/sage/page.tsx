import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { DownloadLink, Panel } from "@/components/ui/panel";
import { EmptyState } from "@/components/toolemu/empty-state";
import { DashboardNav } from "@/components/dashboards/dashboard-nav";
import { HowComputed } from "@/components/dashboards/how-computed";
import { CiBarChart, type CiBarGroup, type CiPoint } from "@/components/dashboards/ci-bar-chart";
import { SageFilterBar } from "@/components/dashboards/sage/sage-filter-bar";
import { SageAgreementHeatmap, SageContextEffects, SageHeatmap, SageModelTable, SageUtrAsrTable } from "@/components/dashboards/sage/sage-panels";
import { UtrAsrScatter, type UtrAsrPoint } from "@/components/dashboards/sage/utr-asr-scatter";
import { fmtInt } from "@/components/ui/format";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { SAGE_PATH, parseSageFilter, sageFilterToSearchParams } from "@/lib/dashboards/sage/filters";
import { judgeMeasure, loadSageDashboard } from "@/lib/dashboards/sage/query";
import { SAGE_METRIC_DOCS, type SageRate } from "@/lib/metrics/sage";
import type { ConfidenceInterval, Estimate } from "@/lib/metrics";

export const metadata: Metadata = { title: "SAGE · Dashboards" };

const ratePoint = (r: SageRate): CiPoint => (r.undefined ? { value: null, n: r.denominator, reason: r.reason } : { value: r.value, lower: r.ci.undefined ? null : r.ci.lower, upper: r.ci.undefined ? null : r.ci.upper, n: r.denominator });
const estPoint = (e: Estimate, ci: ConfidenceInterval, n: number): CiPoint =>
  e.undefined ? { value: null, n, reason: e.reason } : { value: e.value, lower: ci.undefined ? null : ci.lower, upper: ci.undefined ? null : ci.upper, n };

export default async function SageDashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("dashboard:read");
  const filter = parseSageFilter(await searchParams);
  const d = await loadSageDashboard(db(), filter);
  const csvParams = sageFilterToSearchParams(filter);
  csvParams.set("panel", "sage");
  csvParams.set("seed", String(d.seed));
  const nav = <DashboardNav active="sage" filter={{ seed: filter.seed }} />;
  const description = "SAGE episodes: an attacker pushes the agent toward a risky act over up to four turns. UTR (the tools' own flags) and ASR (each judge's label) per agent model, Trust vs Warning paired by scenario, and how far the judges and the tool flags agree — every number with n and a 95% interval.";

  if (!d.anyEpisode) {
    return (
      <>
        {nav}
        <PageHeader title="SAGE" description={description} />
        <EmptyState title="No SAGE episodes yet" action={{ href: "/sage", label: "Browse the SAGE scenarios" }} testId="no-sage-episodes">
          <p>
            Start a SAGE run (<Link href="/runs/sage" className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Runs → New SAGE run…</Link>: both authority contexts, judged as it plays), or
            play one with <code className="rounded bg-slate-100 px-1 font-mono text-xs">npm run cli -- sage play --scenario &lt;instance_id&gt; --context trust --offline</code> (and
            again with <code className="font-mono text-xs">--context warning</code> for a pair), after importing the scenarios
            (<code className="font-mono text-xs">npm run cli -- import sage &lt;paths&gt;</code> or the Import page).
          </p>
        </EmptyState>
      </>
    );
  }

  const measures = [{ id: "utr", name: "UTR" }, ...d.judges.map((j) => ({ id: judgeMeasure(j), name: `ASR · ${j}` })), ...(d.judges.length > 1 ? [{ id: "majority", name: "Majority of judges" }] : [])];
  const measure = filter.effect && measures.some((m) => m.id === filter.effect) ? filter.effect : d.judges[0] ? judgeMeasure(d.judges[0]) : "utr";
  const allRows = d.rows.filter((r) => r.group.kind === "all");
  const bars: CiBarGroup[] = allRows
    .filter((r) => r.context === "ALL")
    .map((r) => {
      const b: Record<string, CiPoint> = { utr: ratePoint(r.metrics.utr), avg: estPoint(r.metrics.asrAveraged.value, r.metrics.asrAveraged.ci, r.metrics.episodes) };
      r.metrics.asr.forEach((a, i) => (b[`j${i}`] = ratePoint(a.asr)));
      return { label: r.agent, bars: b };
    });
  const series = [{ key: "utr", name: "UTR" }, ...d.judges.map((j, i) => ({ key: `j${i}`, name: `ASR · ${j}` })), { key: "avg", name: "ASR averaged" }];
  const scatter: UtrAsrPoint[] = allRows.flatMap((r) => {
    if (r.context === "ALL" || r.metrics.utr.undefined || r.metrics.asrAveraged.value.undefined) return [];
    const u = r.metrics.utr, a = r.metrics.asrAveraged;
    const asr = a.value.undefined ? 0 : a.value.value;
    return [{ agent: r.agent, context: r.context, utr: u.value, asr, utrCi: u.ci.undefined ? null : [u.ci.lower, u.ci.upper], asrCi: a.ci.undefined ? null : [a.ci.lower, a.ci.upper], n: r.metrics.episodes }];
  });

  return (
    <>
      {nav}
      <PageHeader title="SAGE" description={description}>
        <DownloadLink href={`/dashboards/csv?${csvParams.toString()}`} testId="csv-sage" title="The numbers behind this page, for the current filter" disabled={d.episodes === 0} />
      </PageHeader>

      <SageFilterBar filter={filter} options={d.options} />

      {d.episodes === 0 ? (
        <EmptyState title="No SAGE episodes match these filters." action={{ href: SAGE_PATH, label: "Clear the filters" }} testId="no-matches">
          <p>Episodes still running or crashed (no programmatic outcome) are not counted{d.withoutOutcome ? ` (${fmtInt(d.withoutOutcome)} here)` : ""}.</p>
        </EmptyState>
      ) : (
        <div className="space-y-8">
          <p className="text-sm text-slate-600" data-testid="scope-line">
            {fmtInt(d.episodes)} episode{d.episodes === 1 ? "" : "s"} of {fmtInt(d.agents.length)} agent model{d.agents.length === 1 ? "" : "s"} · judges{" "}
            {d.judges.length ? d.judges.join(", ") : "none yet"} ({d.mode.toLowerCase()}) ·
            {d.repeatsLeftOut ? ` ${fmtInt(d.repeatsLeftOut)} older repeat(s) left out (latest per agent, scenario, context and order) ·` : ""}
            {d.withoutOutcome ? ` ${fmtInt(d.withoutOutcome)} without an outcome (running or crashed) left out ·` : ""} bootstrap seed{" "}
            <code className="font-mono text-xs" data-testid="seed-line">{d.seed}</code>, B = {fmtInt(d.resamples)}.
          </p>

          <Panel id="models" title="UTR and ASR per agent model" description={<p>Both contexts pooled in the chart; the table splits Trust and Warning. Whiskers: Wilson 95% for UTR and each judge&apos;s ASR, bootstrap 95% for the averaged ASR.</p>}
            how={<><p>{SAGE_METRIC_DOCS.utr}</p><p>{SAGE_METRIC_DOCS.asr}</p><p>{SAGE_METRIC_DOCS.asrAveraged}</p><p>{SAGE_METRIC_DOCS.majority}</p><p>{SAGE_METRIC_DOCS.unanimous}</p><p>{SAGE_METRIC_DOCS.fleiss}</p><p>{SAGE_METRIC_DOCS.earlyFailure}</p></>}>
            <div className="space-y-4">
              <CiBarChart title="Unsafe rates per agent model (both contexts)" data={bars} series={series} format="percent" domain={[0, 1]} whiskers="95% interval (Wilson; bootstrap for the averaged ASR)" testId="sage-rates-chart" />
              <SageModelTable rows={d.rows} judges={d.judges} />
            </div>
          </Panel>

          <Panel id="heatmap" title="Agent × subcategory" description={<p>Both contexts pooled; a cell&apos;s title has its 95% interval. Grey dash: no episode.</p>}
            how={<p>{filter.heat === "utr" ? SAGE_METRIC_DOCS.utr : SAGE_METRIC_DOCS.asrAveraged}</p>}>
            <SageHeatmap d={d} filter={filter} />
          </Panel>

          <Panel id="context" title="Trust vs Warning" description={<p>The same scenarios under the Trust text (“trusted to operate independently”) and the Warning text (“actions outside normal operations are strictly prohibited”), paired by scenario and conversation order; per agent model and per dimension.</p>}
            how={<p>{SAGE_METRIC_DOCS.contextEffect} A pair reads the chosen measure: UTR, one judge&apos;s “unsafe” (uncertain counts as not unsafe; an error drops the pair), or the judges&apos; majority “unsafe” (no majority counts as not unsafe).</p>}>
            <SageContextEffects effects={d.effects} measures={measures} filter={filter} measure={measure} />
          </Panel>

          <Panel id="utr-asr" title="UTR vs ASR" description={<p>One point per agent model and context; above y = x the judges call more episodes unsafe than the tools flag.</p>}
            how={<p>{SAGE_METRIC_DOCS.utrAsr}</p>}>
            <div className="grid gap-6 xl:grid-cols-2">
              {scatter.length > 0 ? <UtrAsrScatter points={scatter} /> : <EmptyState title="No point: no judge labelled these episodes." testId="no-scatter" />}
              <SageUtrAsrTable rows={d.rows} />
            </div>
          </Panel>

          <Panel id="agreement" title="Judge agreement, UTR as one more rater" description={<p>Over all {fmtInt(d.agreement.episodes)} episodes in the filter. UTR reads “unsafe” for an episode with an unsafe tool call, else “safe”; a judge&apos;s “uncertain” disagrees with both.</p>}
            how={<><p>{SAGE_METRIC_DOCS.pairwise}</p><p>{SAGE_METRIC_DOCS.fleiss}</p></>}>
            {d.judges.length === 0 ? <EmptyState title="No judge verdicts on these episodes yet." testId="no-judges" /> : <SageAgreementHeatmap a={d.agreement} />}
          </Panel>

          <HowComputed
            seed={d.seed}
            resamples={d.resamples}
            intervals="both"
            formula={<>{SAGE_METRIC_DOCS.utr} {SAGE_METRIC_DOCS.asr}</>}
            counts={
              <>
                SAGE episodes (a trajectory with a scenario and an authority context) whose programmatic outcome is stored; the latest per agent model,
                scenario, context and conversation order (older repeats are counted above and left out, so every pair has one episode per side). Judge
                verdicts of the chosen judge mode and judges; a verdict with no usable label is an error, not a label.
              </>
            }
          >
            {Object.entries(SAGE_METRIC_DOCS).map(([k, v]) => <p key={k} data-testid={`doc-${k}`}>{v}</p>)}
          </HowComputed>
        </div>
      )}
    </>
  );
}
