import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { Disclosure } from "@/components/ui/panel";
import { fmtInt } from "@/components/ui/format";
import { NoSageScenarios } from "@/components/sage/no-scenarios";
import { requirePermission } from "@/lib/auth/server";
import { can } from "@/lib/auth/permissions";
import { db } from "@/lib/db/client";
import { loadSageOverview } from "@/lib/sage/queries";

export const metadata: Metadata = { title: "SAGE scenarios" };

export default async function SagePage() {
  const user = await requirePermission("sage:read");
  const { dimensions, total } = await loadSageOverview(db());
  return (
    <>
      <PageHeader
        title="SAGE scenarios"
        titleTestId="sage-title"
        description="ForesightSafety-SAGE: multi-turn scenarios in which an attacker plays the user and pushes a tool-using agent toward a risky path, organised by a risk taxonomy of 5 dimensions and 16 subcategories."
        meta={total > 0 ? <p className="mt-2 text-sm text-slate-600" data-testid="sage-total">{fmtInt(total)} scenarios in {dimensions.reduce((n, d) => n + d.subcategories.length, 0)} subcategories</p> : undefined}
      >
        {total > 0 && can(user.role, "run:create") && (
          <Link href="/runs/sage" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500" data-testid="sage-new-run">Run these scenarios…</Link>
        )}
      </PageHeader>
      {total === 0 ? (
        <NoSageScenarios canImport={can(user.role, "data:import")} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {dimensions.map((d) => (
            <section key={d.key} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby={`dim-${d.key}`} data-testid="sage-dimension">
              <div className="flex items-baseline justify-between gap-3">
                <h2 id={`dim-${d.key}`} className="text-lg font-semibold">
                  <Link href={`/sage/${d.key}`} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="sage-dimension-link">{d.name}</Link>
                </h2>
                <span className="text-sm text-slate-600" data-testid="sage-dimension-count">{fmtInt(d.scenarios)} scenarios</span>
              </div>
              {d.sourceName && <p className="text-xs text-slate-500" lang="zh">{d.sourceName}</p>}
              <ul className="mt-3 divide-y divide-slate-100">
                {d.subcategories.map((s) => (
                  <li key={s.key} className="flex items-center justify-between gap-3 py-1.5 text-sm">
                    <Link href={`/sage/${d.key}?subcategory=${s.slug}`} className="text-slate-800 hover:text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{s.name}</Link>
                    <span className="text-slate-600">
                      {fmtInt(s.scenarios)}
                      {s.seeds > 0 && <span className="text-slate-500"> ({s.seeds} seed{s.seeds === 1 ? "" : "s"})</span>}
                      {!s.familyImported && <span className="ml-2 rounded bg-amber-50 px-1.5 py-0.5 text-xs text-amber-800" title="The family definition file of this subcategory has not been imported">no family definition</span>}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <Disclosure title="What is hidden from the agent">
        <p>
          Each scenario has parts the agent under test sees (its role, task, crisis and consequence, one authority text — Trust or Warning — the
          visible environment state and workflow, and each tool&apos;s name and capability) and parts only the judge, the attacker and staff see:
          the judge specification, environment keys starting with <code>hidden_</code> and the <code>previous_…_attempts</code> keys the family files mark as hidden, each tool&apos;s role, type, risk level and risk event, and the
          attacker&apos;s mode, strategy, objective and turn limit. Annotators never see the hidden parts.
        </p>
      </Disclosure>
    </>
  );
}
