import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { Pagination } from "@/components/ui/pagination";
import { Disclosure } from "@/components/ui/panel";
import { fmtInt } from "@/components/ui/format";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { EmptyState } from "@/components/toolemu/empty-state";
import { SearchForm } from "@/components/toolemu/search-form";
import { JsonView } from "@/components/sage/json-view";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { loadSageDimension, parseSageFilter, type SageScenarioFilter } from "@/lib/sage/queries";

type Props = { params: Promise<{ dimension: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `SAGE · ${decodeURIComponent((await params).dimension)}` };
}

function href(dimension: string, f: Partial<SageScenarioFilter>, page = 1): string {
  const p = new URLSearchParams();
  if (f.subcategory) p.set("subcategory", f.subcategory);
  if (f.q) p.set("q", f.q);
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return `/sage/${dimension}${s ? `?${s}` : ""}`;
}

export default async function SageDimensionPage({ params, searchParams }: Props) {
  const user = await requirePermission("sage:read");
  const key = decodeURIComponent((await params).dimension);
  const filter = parseSageFilter(await searchParams);
  const data = await loadSageDimension(db(), key, filter);
  if (!data) notFound();
  const { dimension, subcategories, selected, list } = data;
  const total = subcategories.reduce((n, s) => n + s.scenarios, 0);
  return (
    <>
      <Breadcrumbs items={[{ href: "/sage", label: "SAGE" }, { label: dimension.name }]} />
      <PageHeader title={dimension.name} titleTestId="sage-dimension-title" description={<>{fmtInt(total)} scenarios in {subcategories.length} subcategories{dimension.sourceName ? <span className="ml-2 text-slate-500" lang="zh">{dimension.sourceName}</span> : null}</>}>
        {can(user.role, "run:create") && total > 0 && (
          <Link href={`/runs/sage?${selected ? `subcategory=${encodeURIComponent(selected.key)}` : `dimension=${encodeURIComponent(dimension.key)}`}`} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50" data-testid="sage-run-these">
            {selected ? `Run ${selected.name}…` : "Run this dimension…"}
          </Link>
        )}
      </PageHeader>

      <nav aria-label="Subcategories" className="mb-4 flex flex-wrap gap-2" data-testid="sage-subcategory-tabs">
        <Link href={href(key, { q: filter.q })} aria-current={!selected ? "page" : undefined} className={`rounded-full border px-3 py-1 text-sm ${!selected ? "border-indigo-600 bg-indigo-50 text-indigo-800" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}>
          All <span className="text-slate-600">{fmtInt(total)}</span>
        </Link>
        {subcategories.map((s) => (
          <Link key={s.key} href={href(key, { subcategory: s.slug, q: filter.q })} aria-current={selected?.key === s.key ? "page" : undefined} className={`rounded-full border px-3 py-1 text-sm ${selected?.key === s.key ? "border-indigo-600 bg-indigo-50 text-indigo-800" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}>
            {s.name} <span className="text-slate-600">{fmtInt(s.scenarios)}</span>
          </Link>
        ))}
      </nav>

      {selected && (
        <section className="mb-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby="family-heading" data-testid="sage-family">
          <h2 id="family-heading" className="text-lg font-semibold">{selected.name} <span className="text-sm font-normal text-slate-500">family definition</span></h2>
          {selected.definition ? (
            <>
              <p className="mt-2 text-sm text-slate-800" lang="zh">{selected.definition}</p>
              {selected.coreQuestion && <p className="mt-2 text-sm text-slate-600" lang="zh"><span className="font-medium">Core question: </span>{selected.coreQuestion}</p>}
              {selected.attackerGoal && <p className="mt-2 text-sm text-slate-600" lang="zh"><span className="font-medium">Attacker profile: </span>{selected.attackerGoal}</p>}
              <p className="mt-2 text-sm text-slate-600"><span className="font-medium">Allowed pressure tactics: </span>{selected.allowedTactics.map((t) => <code key={t} className="mr-1.5 rounded bg-slate-100 px-1 py-0.5 text-xs">{t}</code>)}</p>
              {selected.judgeTemplate !== null && (
                <Disclosure title="Judge template (hidden from the agent)" testId="sage-judge-template">
                  <JsonView value={selected.judgeTemplate} label="Judge template" />
                </Disclosure>
              )}
              <p className="mt-2 text-xs text-slate-500">Source: {selected.familySourceFile} · {selected.source} · {selected.licence}</p>
            </>
          ) : (
            <p className="mt-2 text-sm text-amber-800">This subcategory&apos;s family definition has not been imported (its file is under data/families/ in the release).</p>
          )}
          <p className="mt-1 text-xs text-slate-500">Free-text fields of the family files are in Chinese, as released.</p>
        </section>
      )}

      <SearchForm action={`/sage/${key}`} label="Search scenarios" placeholder="id, theme, domain or task text" defaultValue={filter.q} clearHref={filter.q ? href(key, { subcategory: filter.subcategory }) : undefined}>
        {filter.subcategory && <input type="hidden" name="subcategory" value={filter.subcategory} />}
      </SearchForm>

      {list.total === 0 ? (
        <EmptyState title="No scenarios match." action={{ href: href(key, {}), label: "Show all of this dimension" }} />
      ) : (
        <>
          <DataTable
            testId="sage-scenario-table"
            rows={list.rows}
            rowKey={(r) => r.instanceId}
            rowProps={() => ({ "data-testid": "sage-scenario-row" })}
            columns={[
              { key: "id", header: "Scenario", rowHeader: true, cell: (r) => <Link href={`/sage/scenarios/${encodeURIComponent(r.instanceId)}`} className="font-mono text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{r.instanceId}</Link> },
              { key: "theme", header: "Theme", cell: (r) => <span className="text-slate-900">{r.theme}</span> },
              { key: "sub", header: "Subcategory", cell: (r) => r.subcategory },
              { key: "domain", header: "Domain", cell: (r) => <span className="text-slate-600">{r.domain.replace(/_/g, " ")}</span> },
              { key: "strategy", header: "Attacker strategy", cell: (r) => <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">{r.strategy}</code> },
              { key: "tools", header: "Tools", align: "right", cell: (r) => fmtInt(r.tools) },
              { key: "turns", header: "Turns", align: "right", headerTitle: "The attacker's turn limit (max_turns)", cell: (r) => fmtInt(r.turnLimit) },
              { key: "seed", header: "Seed", cell: (r) => (r.seed ? "expert seed" : "expansion") },
              { key: "episodes", header: "Episodes", align: "right", cell: (r) => fmtInt(r.episodes) },
            ]}
          />
          <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun="scenarios" hrefFor={(p) => href(key, filter, p)} />
        </>
      )}
    </>
  );
}
