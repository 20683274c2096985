import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { Disclosure } from "@/components/ui/panel";
import { Breadcrumbs } from "@/components/toolemu/breadcrumbs";
import { Field, JsonView } from "@/components/sage/json-view";
import { requirePermission } from "@/lib/auth/server";
import { db } from "@/lib/db/client";
import { loadSageScenario } from "@/lib/sage/queries";
import { isHiddenStateKey } from "@/lib/sage/visible";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `SAGE · ${decodeURIComponent((await params).id)}` };
}

const card = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm";

export default async function SageScenarioPage({ params }: Props) {
  await requirePermission("sage:read");
  const data = await loadSageScenario(db(), decodeURIComponent((await params).id));
  if (!data) notFound();
  const { scenario: s, tools, state, visible } = data;
  const dim = s.subcategory.dimension;
  const visibleState = Object.fromEntries(Object.entries(state).filter(([k]) => !isHiddenStateKey(k)));
  const hiddenState = Object.fromEntries(Object.entries(state).filter(([k]) => isHiddenStateKey(k)));
  const workflow = Array.isArray(s.visibleWorkflow) ? (s.visibleWorkflow as { step_id?: unknown; step_name?: string; instruction?: string }[]) : [];
  return (
    <>
      <Breadcrumbs items={[{ href: "/sage", label: "SAGE" }, { href: `/sage/${dim.key}`, label: dim.name }, { href: `/sage/${dim.key}?subcategory=${s.subcategory.slug}`, label: s.subcategory.name }, { label: s.instanceId }]} />
      <PageHeader
        card
        eyebrow={<p className="font-mono text-xs text-slate-500" data-testid="sage-instance-id">{s.instanceId}</p>}
        title={s.theme}
        titleTestId="sage-scenario-title"
        description={<>{s.subcategory.name} · {dim.name} · domain {s.domain.replace(/_/g, " ")} · {s.seed ? "expert seed" : "expansion"} · {s._count.trajectories} episode{s._count.trajectories === 1 ? "" : "s"}</>}
      />

      <div className="grid gap-4 xl:grid-cols-2">
        <section className={card} aria-labelledby="agent-heading" data-testid="sage-agent-visible">
          <h2 id="agent-heading" className="text-lg font-semibold">What the agent sees</h2>
          <p className="mb-3 text-sm text-slate-600">The agent-visible view (lib/sage/visible.ts): the attacker&apos;s first message arrives as the user&apos;s turn 0.</p>
          <dl className="space-y-3">
            <Field label="Role">{s.roleContext}</Field>
            <Field label="Task">{s.taskContext}</Field>
            <Field label="Crisis">{s.crisisContext}</Field>
            <Field label="Consequence">{s.consequence}</Field>
          </dl>
          <div className="mt-4 grid gap-3 md:grid-cols-2">
            <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-3" data-testid="sage-authority-trust">
              <p className="text-xs font-semibold uppercase tracking-wide text-emerald-800">Trust context (authority_context_soft)</p>
              <p className="mt-1 text-sm text-slate-900">{s.authorityTrust}</p>
            </div>
            <div className="rounded-lg border border-amber-200 bg-amber-50 p-3" data-testid="sage-authority-warning">
              <p className="text-xs font-semibold uppercase tracking-wide text-amber-800">Warning context (authority_context_hard)</p>
              <p className="mt-1 text-sm text-slate-900">{s.authorityWarning}</p>
            </div>
          </div>
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Tools</h3>
          <ul className="mt-1 space-y-1.5 text-sm" data-testid="sage-visible-tools">
            {visible.trust.tools.map((t) => (
              <li key={t.name}><code className="rounded bg-slate-100 px-1 py-0.5 text-xs font-semibold">{t.name}</code> <span className="text-slate-700">{t.description}</span></li>
            ))}
          </ul>
          {workflow.length > 0 && (
            <>
              <h3 className="mt-4 text-sm font-semibold text-slate-800">Visible workflow</h3>
              <ol className="mt-1 list-decimal space-y-1 pl-5 text-sm text-slate-800">
                {workflow.map((w, i) => <li key={i}><span className="font-medium">{w.step_name}</span>: {w.instruction}</li>)}
              </ol>
            </>
          )}
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Environment state (visible keys)</h3>
          <JsonView value={visibleState} label="Environment state (visible keys)" testId="sage-visible-state" />
          <Disclosure title="The agent-visible view as JSON (Trust context)" testId="sage-visible-json">
            <JsonView value={visible.trust} label="Agent-visible view as JSON" />
          </Disclosure>
        </section>

        <section className={`${card} border-rose-200`} aria-labelledby="hidden-heading" data-testid="sage-hidden">
          <h2 id="hidden-heading" className="text-lg font-semibold">Hidden from the agent <span className="ml-2 rounded bg-rose-50 px-1.5 py-0.5 align-middle text-xs font-medium text-rose-800">staff only</span></h2>
          <p className="mb-3 text-sm text-slate-600">Seen by the judges and the attacker, never by the agent or by annotators.</p>
          <h3 className="text-sm font-semibold text-slate-800">Attacker</h3>
          <dl className="mt-1 grid grid-cols-1 gap-2 sm:grid-cols-3" data-testid="sage-attacker">
            <Field label="Mode">{s.attackerMode}</Field>
            <Field label="Strategy">{s.attackerStrategy}</Field>
            <Field label="Turn limit">{String(s.turnLimit)}</Field>
          </dl>
          <dl className="mt-2 space-y-2">
            <Field label="Objective">{s.attackerObjective}</Field>
            <Field label="First message (turn 0)" testId="sage-first-message">{s.attackerFirstMessage}</Field>
          </dl>
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Tools with their risk metadata</h3>
          <DataTable
            testId="sage-tool-table"
            rows={tools}
            rowKey={(t) => t.name}
            pad="px-2 py-1.5"
            headerPad="px-2 py-1.5"
            columns={[
              { key: "name", header: "Tool", rowHeader: true, cell: (t) => <code className="text-xs">{t.name}</code> },
              { key: "role", header: "Role", cell: (t) => <code className="text-xs">{t.role}</code> },
              { key: "type", header: "Type", cell: (t) => <code className="text-xs">{t.type}</code> },
              { key: "risk", header: "Risk", cell: (t) => <span className={t.safe ? "text-emerald-700" : "font-medium text-rose-700"}>{t.riskLevel}{t.safe ? " · safe" : ""}</span> },
              { key: "event", header: "Risk event", cell: (t) => (t.riskEvent ? <code className="text-xs">{t.riskEvent}</code> : <span className="text-slate-500">—</span>) },
            ]}
          />
          <h3 className="mt-4 text-sm font-semibold text-slate-800">Judge specification</h3>
          <JsonView value={s.judgeSpec} label="Judge specification" testId="sage-judge-spec" />
          {s.judgeExtra !== null && (
            <>
              <h3 className="mt-4 text-sm font-semibold text-slate-800">Other judge-only fields</h3>
              <JsonView value={s.judgeExtra} label="Other judge-only fields" />
            </>
          )}
          {Object.keys(hiddenState).length > 0 && (
            <>
              <h3 className="mt-4 text-sm font-semibold text-slate-800">Hidden environment state</h3>
              <JsonView value={hiddenState} label="Hidden environment state" testId="sage-hidden-state" />
            </>
          )}
          <Disclosure title="Tool manifest constraints">
            <JsonView value={s.toolConstraints} label="Tool manifest constraints" />
          </Disclosure>
        </section>
      </div>
      <p className="mt-4 text-xs text-slate-500" data-testid="sage-provenance">
        Source: {s.sourceFile}{s.sourceLine ? `:${s.sourceLine}` : ""} (JSON pointer {s.sourcePointer}) · {s.subcategory.source} · {s.subcategory.licence}
      </p>
    </>
  );
}
