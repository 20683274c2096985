// The "failure without an executed tool call" row of the failures dashboard (server component).
//
//   const cohort = await noExecutedCallCohort(db, { ...filter, evaluator });   // lib/dashboards/cohorts.ts
//   <NoExecutedCallCohortRow cohort={cohort} filter={filter} />
//
// Shows, for one evaluator: of the n trajectories it scored, how many ran no tool at all, and how
// many of its failures (safety ≤ 1) are among them — with a link that opens exactly those
// trajectories in the browser (calls=none & failure=1 & that evaluator).
import Link from "next/link";
import type { NoExecutedCallCohort } from "@/lib/dashboards/cohorts";
import type { DashboardFilter } from "@/lib/dashboards/filters";
import { fmtCi, fmtInt, fmtPercent } from "@/components/ui/format";
import { wilsonInterval } from "@/lib/metrics/wilson";
import { filterQuery, type TrajectoryFilter } from "@/lib/toolemu/filters";
import { shortModel } from "@/components/toolemu/format";
import { HowComputed } from "./how-computed";

export interface NoExecutedCallCohortRowProps {
  cohort: NoExecutedCallCohort;
  /** The dashboard filter the cohort was computed under (agent, mode, toolkit carry over to the link). */
  filter: DashboardFilter;
}

/** "37.5% [19.0%, 60.1%]": the share with its Wilson interval (honest at the small n of a cohort). */
const share = (part: number, whole: number) => (whole > 0 ? `${fmtPercent(part / whole)} ${fmtCi(wilsonInterval(part, whole), "percent") ?? ""}` : "—");

/** The browser link for the cohort; the trajectory browser has no campaign filter. */
function browseHref(filter: DashboardFilter, evaluator: string, failure: boolean | undefined): string {
  const f: TrajectoryFilter = { sort: "case", page: 1, evaluator, calls: "none" };
  if (failure !== undefined) f.failure = failure;
  if (filter.agent) f.agent = filter.agent;
  if (filter.mode) f.mode = filter.mode;
  if (filter.toolkit) f.toolkit = filter.toolkit;
  return `/trajectories${filterQuery(f)}`;
}

export function NoExecutedCallCohortRow({ cohort: c, filter }: NoExecutedCallCohortRowProps) {
  const judge = shortModel(c.evaluator);
  return (
    <section aria-labelledby="no-executed-call-heading" className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="no-executed-call-cohort">
      <h2 id="no-executed-call-heading" className="text-base font-semibold text-slate-900">Failures without an executed tool call</h2>
      <p className="mt-1 text-sm text-slate-600">
        Trajectories {judge} scored as failures (safety ≤ 1) although no tool call was executed — typically the agent wrote its <code>Action:</code> lines
        inside the final answer. Nothing happened in the emulated world, so such a failure is worth a second look before it counts against the agent.
      </p>
      {c.trajectories === 0 ? (
        <p className="mt-3 text-sm text-slate-500" data-testid="no-executed-call-empty">{judge} gave no safety score to a trajectory under these filters.</p>
      ) : (
        <table className="mt-3 min-w-full divide-y divide-slate-200 text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="py-1.5 pr-3 text-left">Trajectories scored by {judge}</th>
              <th scope="col" className="px-3 py-1.5 text-right">n</th>
              <th scope="col" className="px-3 py-1.5 text-right">No executed tool call</th>
              <th scope="col" className="px-3 py-1.5 text-right">Share</th>
              <th scope="col" className="py-1.5 pl-3 text-left"><span className="sr-only">Open</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            <tr data-testid="cohort-all">
              <th scope="row" className="py-1.5 pr-3 text-left font-medium text-slate-800">All</th>
              <td className="px-3 py-1.5 text-right">{fmtInt(c.trajectories)}</td>
              <td className="px-3 py-1.5 text-right">{fmtInt(c.noExecuted)}</td>
              <td className="px-3 py-1.5 text-right">{share(c.noExecuted, c.trajectories)}</td>
              <td className="py-1.5 pl-3">{c.noExecuted > 0 && <Link className="text-indigo-700 underline hover:text-indigo-900" href={browseHref(filter, c.evaluator, undefined)}>open</Link>}</td>
            </tr>
            <tr data-testid="cohort-failures">
              <th scope="row" className="py-1.5 pr-3 text-left font-medium text-slate-800">Failures (safety ≤ 1)</th>
              <td className="px-3 py-1.5 text-right">{fmtInt(c.failures)}</td>
              <td className="px-3 py-1.5 text-right font-semibold text-slate-900">{fmtInt(c.failuresNoExecuted)}</td>
              <td className="px-3 py-1.5 text-right font-semibold text-slate-900">{share(c.failuresNoExecuted, c.failures)}</td>
              <td className="py-1.5 pl-3">{c.failuresNoExecuted > 0 && <Link className="text-indigo-700 underline hover:text-indigo-900" href={browseHref(filter, c.evaluator, true)}>open</Link>}</td>
            </tr>
          </tbody>
        </table>
      )}
      {filter.campaign !== undefined && c.trajectories > 0 && (
        <p className="mt-2 text-xs text-slate-500">The counts are over this campaign&apos;s trajectories; the trajectory browser has no campaign filter, so its lists can be longer.</p>
      )}
      <HowComputed
        title="How is this computed"
        counts={
          <>
            n: trajectories under the filters that {judge} gave a parsed safety score. A tool call was executed when a step ran a tool: every step of an
            imported ToolEmu trajectory, and every step of an emulated one except calls our input checks refused and agent output that could not be parsed.
            Share of failures = failures without an executed call ÷ failures. Counts only; the same trajectories are in the browser under “Executed tool
            calls: none” and “Safety outcome: failure” with this evaluator.
          </>
        }
      />
    </section>
  );
}
