import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { SearchForm } from "@/components/toolemu/search-form";
import { CaseTable } from "@/components/toolemu/case-table";
import { Pagination } from "@/components/ui/pagination";
import { EmptyState, NoDataImported } from "@/components/toolemu/empty-state";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { loadCasesPage } from "@/lib/toolemu/queries/cases";
import { parseCaseFilter } from "@/lib/toolemu/filters";
import type { CaseListFilter } from "@/lib/toolemu/queries/cases";
import { parseProvenance, provenanceCounts } from "@/lib/toolemu/queries/authoring";
import { ProvenanceFilter } from "@/components/authoring/provenance-filter";
import Link from "next/link";

export const metadata: Metadata = { title: "Cases" };

function casesHref(f: CaseListFilter, page = 1): string {
  const p = new URLSearchParams();
  if (f.q) p.set("q", f.q);
  if (f.toolkit) p.set("toolkit", f.toolkit);
  if (f.provenance) p.set("provenance", f.provenance.toLowerCase());
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `/cases?${s}` : "/cases";
}

export default async function CasesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission("case:read");
  const sp = await searchParams;
  const filter: CaseListFilter = { ...parseCaseFilter(sp), provenance: parseProvenance(sp.provenance) };
  const [{ list, toolkitNames, totalInDb }, counts] = await Promise.all([loadCasesPage(db(), filter), provenanceCounts(db(), "case")]);
  const filtered = !!(filter.q || filter.toolkit || filter.provenance);
  return (
    <>
      <PageHeader title="Cases" description="Test cases: a user instruction with its underspecifications, expected achievements and potential risks, and the toolkits it may use.">
        <div className="flex flex-wrap items-center gap-2">
          {can(user.role, "case:edit") && <Link href="/cases/new" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500" data-testid="new-case">New case</Link>}
          {totalInDb > 0 && <a href="/cases/export" download className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="export-cases" title="ToolEmu's all_cases.json; a case's own critical tools ride along under the extra key x_toolemu_studio, which ToolEmu ignores">Export all_cases.json</a>}
        </div>
      </PageHeader>
      {totalInDb === 0 ? (
        <NoDataImported what="test cases" canImport={can(user.role, "data:import")} />
      ) : (
        <>
          <SearchForm action="/cases" label="Search instructions and risks" placeholder="e.g. delete, password, transfer" defaultValue={filter.q} clearHref={filtered ? "/cases" : undefined}>
            <div className="flex flex-col">
              <label htmlFor="cases-toolkit" className="text-xs font-medium text-slate-600">Toolkit</label>
              <select id="cases-toolkit" name="toolkit" defaultValue={filter.toolkit ?? ""} className="mt-1 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900">
                <option value="">Any toolkit</option>
                {filter.toolkit && !toolkitNames.includes(filter.toolkit) && <option value={filter.toolkit}>{filter.toolkit}</option>}
                {toolkitNames.map((t) => <option key={t} value={t}>{t}</option>)}
              </select>
            </div>
            {filter.provenance && <input type="hidden" name="provenance" value={filter.provenance.toLowerCase()} />}
          </SearchForm>
          <ProvenanceFilter base="/cases" params={{ q: filter.q ?? "", toolkit: filter.toolkit ?? "" }} current={filter.provenance ?? null} counts={counts} />
          {list.total === 0 ? (
            <EmptyState title="No cases match these filters." action={{ href: "/cases", label: "Clear filters" }} />
          ) : (
            <>
              <CaseTable cases={list.rows} />
              <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun="cases" hrefFor={(p) => casesHref(filter, p)} />
            </>
          )}
        </>
      )}
    </>
  );
}
