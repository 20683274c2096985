import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/toolemu/empty-state";
import { DashboardNav } from "@/components/dashboards/dashboard-nav";
import { HumanFilterBar } from "@/components/dashboards/human/human-filter-bar";
import { CsvLink } from "@/components/dashboards/csv-link";
import { HowComputed } from "@/components/dashboards/how-computed";
import { CiBarChart, type CiBarGroup, type CiPoint, type CiSeries } from "@/components/dashboards/ci-bar-chart";
import { HumanEmpty, ScopeLine } from "@/components/dashboards/human/human-empty";
import { EmulatorTable, type EmulatorTableRow } from "@/components/dashboards/human/emulator-table";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { MODE_NAMES, dashboardHref, parseDashboardFilter } from "@/lib/dashboards/filters";
import { fmtInt } from "@/components/ui/format";
import type { EmulatorQualityCell, EmulatorQualityReport } from "@/lib/dashboards/human/emulator-quality";
import { EMULATOR_ASPECT_NAMES } from "@/lib/dashboards/human/fields";
import { loadEmulatorPanel } from "@/lib/dashboards/human/panels";
import type { ConfidenceInterval, Ratio } from "@/lib/metrics";

export const metadata: Metadata = { title: "Emulator quality · Dashboards" };

const PATH = "/dashboards/emulator";

/** Chart axis labels: short enough that none is skipped for lack of room. */
const SHORT_ASPECT: Record<EmulatorQualityReport["aspects"][number], string> = {
  emulator_input_validation: "Input validation",
  emulator_realism: "Realism",
  emulator_consistency: "Consistency",
  all: "All aspects",
};

const modeName = (m: EmulatorQualityCell["mode"]) => (m === "ALL" ? "All modes" : MODE_NAMES[m]);

function point(r: Ratio, ci: ConfidenceInterval): CiPoint {
  return r.undefined
    ? { value: null, n: r.denominator, reason: r.reason }
    : { value: r.value, lower: ci.undefined ? null : ci.lower, upper: ci.undefined ? null : ci.upper, n: r.denominator };
}

function chart(report: EmulatorQualityReport, which: "freeOfCritical" | "freeOfAnyIssue"): { data: CiBarGroup[]; series: CiSeries[] } {
  const series: CiSeries[] = report.modes.map((m) => ({ key: m, name: modeName(m), ...(m === "ALL" ? { color: "#64748b" } : {}) }));
  const data = report.aspects.map((aspect) => ({
    label: SHORT_ASPECT[aspect],
    bars: Object.fromEntries(
      report.modes.map((m) => {
        const c = report.cells.find((x) => x.mode === m && x.aspect === aspect)!;
        return [m, point(c.quality[which], c.intervals[which])];
      }),
    ),
  }));
  return { data, series };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function EmulatorPage({ searchParams }: Props) {
  await requirePermission("dashboard:read");
  const filter = parseDashboardFilter(await searchParams);
  const panel = await loadEmulatorPanel(db(), filter);
  const { scope, report } = panel;
  const empty = !report || report.items === 0;
  const rows: EmulatorTableRow[] = (report?.cells ?? []).map((c) => ({
    key: `${c.mode}-${c.aspect}`,
    mode: modeName(c.mode),
    aspect: EMULATOR_ASPECT_NAMES[c.aspect],
    counts: c.counts,
    freeOfCritical: { value: c.quality.freeOfCritical, ci: c.intervals.freeOfCritical, range: c.ranges?.freeOfCritical },
    freeOfAnyIssue: { value: c.quality.freeOfAnyIssue, ci: c.intervals.freeOfAnyIssue, range: c.ranges?.freeOfAnyIssue },
    n: c.quality.n,
    tiesExcluded: c.tiesExcluded,
  }));

  return (
    <>
      <DashboardNav active="emulator" filter={filter} />
      <PageHeader
        title="Emulator quality"
        description="How often the LM-emulated tools behaved well, as judged by the annotators: the share of trajectories free of critical emulator issues and free of any issue, per aspect and per emulator mode (standard vs adversarial), with 95% Wilson intervals."
      >
        {scope && <CsvLink panel="emulator" filter={{ ...filter, campaign: scope.campaign.id }} disabled={empty} />}
      </PageHeader>

      <HumanFilterBar path={PATH} filter={filter} panel={panel} />

      {!scope || !report ? (
        <HumanEmpty missing={panel.missing} campaignName={panel.missingCampaignName} path={PATH} filter={filter} />
      ) : (
        <>
          <ScopeLine campaign={scope.campaign.name} defaulted={scope.campaign.defaulted} seed={scope.seed} ties={scope.ties}>
            {" · "}
            {fmtInt(report.items)} labelled trajectories
          </ScopeLine>
          {empty ? (
            <EmptyState title="No labelled trajectory of this campaign matches the filters." action={{ href: dashboardHref(PATH, { campaign: filter.campaign, seed: filter.seed }), label: "Clear the trajectory filters" }} testId="no-matches" />
          ) : (
            <>
              {/* relative + overflow-hidden: contains the chart's absolutely positioned screen-reader table, which is wider than the page. */}
              <div className="relative grid gap-4 overflow-hidden xl:grid-cols-2">
                <CiBarChart title="Free of critical issues (share of trajectories)" format="percent" domain={[0, 1]} whiskers="95% Wilson score interval" testId="chart-free-critical" {...chart(report, "freeOfCritical")} />
                <CiBarChart title="Free of any issue (share of trajectories)" format="percent" domain={[0, 1]} whiskers="95% Wilson score interval" testId="chart-free-any" {...chart(report, "freeOfAnyIssue")} />
              </div>
              <div className="mt-6">
                <EmulatorTable rows={rows} />
              </div>
              <p className="mt-2 text-xs text-slate-500">
                {report.tieItems === 0
                  ? "No trajectory's severity is an unadjudicated tie."
                  : `${fmtInt(report.tieItems)} trajectories have an unadjudicated tie in their worst severity: ${
                      scope.ties === "exclude" ? "left out" : scope.ties === "seeded" ? `resolved with seed ${scope.seed}` : `resolved with seed ${scope.seed}, with the range over every resolution`
                    } (tie policy).`}
              </p>
            </>
          )}
          <HowComputed
            seed={scope.seed}
            intervals="wilson"
            ties={scope.ties}
            formula={
              <>
                Per trajectory and aspect (input validation, behaviour accuracy / realism, state consistency), the ground-truth severity — no issue,
                minor or critical: the adjudicated one, else the annotators&apos; strict majority (ties: see below). <strong>Free of critical issues</strong> = share of trajectories whose majority is not “critical”;{" "}
                <strong>free of any issue</strong> = share whose majority is “no issue”. “All aspects” uses the worst of the three majorities: free of
                critical issues when no aspect&apos;s majority is critical (the condition for a true failure on the Failures panel), free of any issue
                when all three are “no issue”.
              </>
            }
            counts={
              <>
                n: the campaign&apos;s trajectories (under the filters) with at least one submitted label, less the ties the policy leaves out. Vote
                counts and majorities are computed in the database; the seeded tie-break takes tied severities in order none, minor, critical; severity
                number (x mod number tied) wins, x = hex digits 21–24 (input validation), 25–28 (realism), 29–32 (consistency) of md5(&apos;seed:item
                id&apos;). For &ldquo;all aspects&rdquo;, a tie counts only where it can change the worst severity.
              </>
            }
          >
          </HowComputed>
        </>
      )}
    </>
  );
}
