// The empty states of the human-label panels (agreement, failures, emulator): no campaign with
// labels at all, a campaign id that does not exist, or a campaign without labels yet. Server or
// client (no hooks).
import { EmptyState } from "@/components/toolemu/empty-state";
import { dashboardHref, type DashboardFilter } from "@/lib/dashboards/filters";
import { TIE_POLICY_HINTS, TIE_POLICY_NAMES, type TiePolicy } from "@/lib/metrics/ground-truth";

export function HumanEmpty({ missing, campaignName, path, filter }: { missing: "none" | "not-found" | "no-labels" | undefined; campaignName?: string; path: string; filter: DashboardFilter }) {
  if (missing === "not-found") {
    return (
      <EmptyState title="This campaign does not exist (any more)." action={{ href: dashboardHref(path, { ...filter, campaign: undefined }), label: "Show the most recent campaign with labels" }} testId="no-campaign">
        <p>The link names a campaign id that is not in the database.</p>
      </EmptyState>
    );
  }
  if (missing === "no-labels") {
    return (
      <EmptyState title={`“${campaignName ?? "This campaign"}” has no submitted labels yet.`} action={{ href: dashboardHref(path, { ...filter, campaign: undefined }), label: "Show the most recent campaign with labels" }} testId="no-labels">
        <p>The numbers appear as soon as annotators submit labels (Annotate). Drafts and skipped items do not count.</p>
      </EmptyState>
    );
  }
  return (
    <EmptyState title="No campaign with labels yet — create one under Campaigns." action={{ href: "/campaigns", label: "Go to Campaigns" }} testId="no-campaign">
      <p>
        These panels compare human labels with the automatic evaluators and with each other. Create an annotation campaign, invite annotators,
        and the figures appear here once labels are submitted.
      </p>
    </EmptyState>
  );
}

/** One line under the page header: which campaign, evaluator and seed the numbers are for. */
export function ScopeLine({ campaign, defaulted, evaluator, evaluatorDefaulted, seed, ties, children }: { campaign: string; defaulted: boolean; evaluator?: string | null; evaluatorDefaulted?: boolean; seed: number; ties?: TiePolicy; children?: React.ReactNode }) {
  return (
    <p className="mb-4 text-sm text-slate-600" data-testid="scope-line">
      Campaign <span className="font-medium text-slate-800" data-testid="scope-campaign">{campaign}</span>
      {defaulted && <span className="text-slate-500"> (the most recent campaign with labels)</span>}
      {evaluator !== undefined && (
        <>
          {" · "}evaluator <span className="font-medium text-slate-800" data-testid="scope-evaluator">{evaluator ?? "none scored these trajectories"}</span>
          {evaluatorDefaulted && <span className="text-slate-500"> (scored the most of its trajectories)</span>}
        </>
      )}
      {ties && (
        <>
          {" · "}ties: <span className="font-medium text-slate-800" data-testid="scope-ties" title={TIE_POLICY_HINTS[ties]}>{TIE_POLICY_NAMES[ties].toLowerCase()}</span>
        </>
      )}
      {" · "}seed <code className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-800" data-testid="scope-seed">{seed}</code>
      {children}
    </p>
  );
}
