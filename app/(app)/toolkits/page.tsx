import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { SearchForm } from "@/components/toolemu/search-form";
import { ToolkitTable } from "@/components/toolemu/toolkit-table";
import { EmptyState, NoDataImported } from "@/components/toolemu/empty-state";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { loadToolkitsPage } from "@/lib/toolemu/queries/toolkits";
import { parseSearchQuery } from "@/lib/toolemu/filters";

export const metadata: Metadata = { title: "Toolkits" };

export default async function ToolkitsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("toolkit:read");
  const q = parseSearchQuery(await searchParams);
  const { toolkits, totalInDb } = await loadToolkitsPage(db(), { q });
  return (
    <>
      <PageHeader title="Toolkits" description="The tool specifications the emulators play: each tool's parameters, returns and exceptions, and the test cases that use the toolkit.">
        {totalInDb > 0 && <a href="/toolkits/export" download className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="export-toolkits" title="ToolEmu's all_toolkits.json; curated tool risk rides along under the extra key x_toolemu_studio, which ToolEmu ignores">Export all_toolkits.json</a>}
      </PageHeader>
      {totalInDb === 0 ? (
        <NoDataImported what="toolkits" canImport={can(user.role, "data:import")} />
      ) : (
        <>
          <SearchForm action="/toolkits" label="Search toolkits" placeholder="Name, description, category or tool (e.g. TerminalExecute)" defaultValue={q} clearHref={q ? "/toolkits" : undefined} />
          <p className="mb-2 text-sm text-slate-600" data-testid="result-count" aria-live="polite">
            {q ? `${toolkits.length} of ${totalInDb} toolkits match “${q}”.` : `${totalInDb} toolkits.`}
          </p>
          {toolkits.length === 0 ? (
            <EmptyState title={`No toolkit matches “${q}”.`} action={{ href: "/toolkits", label: "Show all toolkits" }} />
          ) : (
            <ToolkitTable toolkits={toolkits} />
          )}
        </>
      )}
    </>
  );
}
