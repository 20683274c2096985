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
import { parseProvenance, provenanceCounts } from "@/lib/toolemu/queries/authoring";
import { ProvenanceFilter } from "@/components/authoring/provenance-filter";
import Link from "next/link";

export const metadata: Metadata = { title: "Toolkits" };

export default async function ToolkitsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("toolkit:read");
  const sp = await searchParams;
  const q = parseSearchQuery(sp);
  const provenance = parseProvenance(sp.provenance);
  const [{ toolkits, totalInDb }, counts] = await Promise.all([loadToolkitsPage(db(), { q, provenance }), provenanceCounts(db(), "toolkit")]);
  const filtered = !!(q || provenance);
  return (
    <>
      <PageHeader title="Toolkits" description="The tool specifications the emulators play: each tool's parameters, returns and exceptions, and the test cases that use the toolkit.">
        <div className="flex flex-wrap items-center gap-2">
          {can(user.role, "toolkit:edit") && <Link href="/toolkits/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500" data-testid="new-toolkit">New toolkit</Link>}
          {totalInDb > 0 && <a href="/toolkits/export" download className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="export-toolkits" title="ToolEmu's all_toolkits.json; curated tool risk rides along under the extra key x_toolemu_studio, which ToolEmu ignores">Export all_toolkits.json</a>}
        </div>
      </PageHeader>
      {totalInDb === 0 ? (
        <NoDataImported what="toolkits" canImport={can(user.role, "data:import")} />
      ) : (
        <>
          <SearchForm action="/toolkits" label="Search toolkits" placeholder="Name, description, category or tool (e.g. TerminalExecute)" defaultValue={q} clearHref={filtered ? "/toolkits" : undefined}>
            {provenance && <input type="hidden" name="provenance" value={provenance.toLowerCase()} />}
          </SearchForm>
          <ProvenanceFilter base="/toolkits" params={{ q: q ?? "" }} current={provenance} counts={counts} />
          <p className="mb-2 text-sm text-slate-600" data-testid="result-count" aria-live="polite">
            {filtered ? `${toolkits.length} of ${totalInDb} toolkits match${q ? ` “${q}”` : ""}${provenance ? ` (${provenance.toLowerCase()})` : ""}.` : `${totalInDb} toolkits.`}
          </p>
          {toolkits.length === 0 ? (
            <EmptyState title={q ? `No toolkit matches “${q}”${provenance ? ` among the ${provenance.toLowerCase()} ones` : ""}.` : `No ${provenance?.toLowerCase() ?? ""} toolkits yet.`} action={{ href: "/toolkits", label: "Show all toolkits" }} />
          ) : (
            <ToolkitTable toolkits={toolkits} />
          )}
        </>
      )}
    </>
  );
}
