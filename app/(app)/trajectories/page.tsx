import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { TrajectoryFilterBar } from "@/components/toolemu/trajectory-filter-bar";
import { ActiveFilters } from "@/components/toolemu/active-filters";
import { TrajectoryTable } from "@/components/toolemu/trajectory-table";
import { ExportButtons } from "@/components/toolemu/export-buttons";
import { Pagination } from "@/components/ui/pagination";
import { EmptyState, NoDataImported } from "@/components/toolemu/empty-state";
import Link from "next/link";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { loadTrajectoriesPage } from "@/lib/toolemu/queries/trajectories";
import { cachedByData } from "@/lib/dashboards/data-version";
import { filterQuery, parseTrajectoryFilter } from "@/lib/toolemu/filters";

export const metadata: Metadata = { title: "Trajectories" };

export default async function TrajectoriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("trajectory:read");
  const filter = parseTrajectoryFilter(await searchParams);
  // The counts are kept per data version (lib/dashboards/data-version.ts); the rows are read every time.
  const { totalInDb, searchable, list, facets } = await loadTrajectoriesPage(db(), filter, (key, compute) => cachedByData(db(), key, compute));
  const shown = { ...filter, page: list.page };
  return (
    <>
      <PageHeader title="Trajectories" description="Agent runs step by step with their safety and helpfulness evaluations. Filter, sort, open one, or export what you see.">
        {totalInDb > 0 && <ExportButtons filter={shown} total={list.total} />}
        {totalInDb > 0 && list.total > 0 && can(user.role, "evaluation:create") && (
          // Score the filtered trajectories again (an evaluation run): the form opens with this filter.
          <Link href={`/runs/evaluate${filterQuery(shown, { page: false, sort: false })}`} className="rounded-md border border-indigo-600 bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500" data-testid="evaluate-these" title="Score these trajectories again with any evaluator, replicates included">
            Evaluate these {list.total}…
          </Link>
        )}
        {totalInDb > 0 && list.total > 0 && can(user.role, "evaluation:create") && (
          // Replay the filtered trajectories through a preemptive critic (a critic replay run).
          <Link href={`/runs/critic${filterQuery(shown, { page: false, sort: false })}`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="critic-these" title="Replay these trajectories through InferAct or a baseline critic: which checkpoints would it flag?">
            Critic replay…
          </Link>
        )}
      </PageHeader>
      {totalInDb === 0 || !facets ? (
        <NoDataImported what="trajectories" canImport={can(user.role, "data:import")} />
      ) : (
        <>
          <TrajectoryFilterBar key={filterQuery(shown, { page: false })} filter={shown} facets={facets} />
          <ActiveFilters filter={shown} names={{ run: facets.runs.find((o) => o.value === filter.run)?.label, campaign: facets.campaigns.find((o) => o.value === filter.campaign)?.label }} />
          {!searchable ? (
            <EmptyState title="Nothing to search for." action={{ href: `/trajectories${filterQuery({ ...filter, q: undefined, sort: "newest", page: 1 })}`, label: "Clear the search" }} testId="no-search-words">
              <p>&ldquo;{filter.q}&rdquo; holds only words too common to index (like &ldquo;the&rdquo; or &ldquo;and&rdquo;) or punctuation. Search for a more specific word.</p>
            </EmptyState>
          ) : list.total === 0 ? (
            <EmptyState title="No trajectories match these filters." action={{ href: `/trajectories${filterQuery({ sort: filter.sort, page: 1 })}`, label: "Clear filters" }} testId="no-matches">
              <p>Remove a filter above, or clear them all.</p>
            </EmptyState>
          ) : (
            <>
              <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun="trajectories" hrefFor={(p) => `/trajectories${filterQuery({ ...filter, page: p })}`} />
              <TrajectoryTable rows={list.rows} filter={shown} />
              <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun="trajectories" hrefFor={(p) => `/trajectories${filterQuery({ ...filter, page: p })}`} />
            </>
          )}
        </>
      )}
    </>
  );
}
