"use client";
// The toolkit page's risk table (issue 13 item 1): each tool's effective risk level, critical
// flag and amount argument, where they come from (the default rule, named, or a curator and
// when), and — for users who may curate — an editor under the table for one tool at a time.
import { useRef, useState, useTransition } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { EffectiveToolRisk, RiskLevel } from "@/lib/critic/tool-risk";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Checkbox, Field, FormError, primaryButtonCls, secondaryButtonCls, Select } from "@/components/ui/form";
import { formatDate } from "@/components/toolemu/format";

type Row = Omit<EffectiveToolRisk, "curatedAt"> & { curatedAt: string | null };
type Saved = { toolId: string; level: RiskLevel; critical: boolean; amountArg: string | null; source: "default" | "curated" };

interface Props {
  rows: Row[];
  canCurate: boolean;
  curate?: (i: { toolId: string; level: RiskLevel; critical: boolean; amountArg: string }) => Promise<ActionResult<Saved>>;
  reset?: (i: { toolId: string }) => Promise<ActionResult<Saved>>;
}

const LEVELS: RiskLevel[] = ["none", "mild", "severe"];
const LEVEL_CLS: Record<RiskLevel, string> = {
  none: "bg-slate-100 text-slate-700",
  mild: "bg-amber-100 text-amber-800",
  severe: "bg-rose-100 text-rose-800",
};

export function RiskBadge({ level }: { level: RiskLevel }) {
  return <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${LEVEL_CLS[level]}`}>{level}</span>;
}

export function ToolRiskTable({ rows, canCurate, curate, reset }: Props) {
  const [editing, setEditing] = useState<Row | null>(null);
  const [level, setLevel] = useState<RiskLevel>("none");
  const [critical, setCritical] = useState(false);
  const [amountArg, setAmountArg] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const errorRef = useRef<HTMLParagraphElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  function edit(r: Row) {
    setEditing(r);
    setLevel(r.level);
    setCritical(r.critical);
    setAmountArg(r.amountArg ?? "");
    setError(null);
    setFieldErrors({});
    setNotice(null);
    // Focus the first control once the form is shown.
    setTimeout(() => formRef.current?.querySelector<HTMLElement>("select")?.focus(), 0);
  }

  function finish(res: ActionResult<Saved>, what: string) {
    if (res.ok) {
      setNotice(`${editing!.agentName}: ${what}.`);
      setEditing(null);
    } else {
      setError(res.error);
      setFieldErrors(res.fieldErrors ?? {});
      setTimeout(() => errorRef.current?.focus(), 0);
    }
  }

  const columns: Column<Row>[] = [
    { key: "tool", header: "Tool", rowHeader: true, cell: (r) => <a href={`#tool-${r.agentName}`} className="font-mono text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{r.agentName}</a> },
    { key: "level", header: "Risk", cell: (r) => <span data-testid="risk-level"><RiskBadge level={r.level} /></span> },
    { key: "critical", header: "Critical", cell: (r) => <span data-testid="risk-critical">{r.critical ? <span className="font-medium text-rose-700">critical</span> : <span className="text-slate-500">no</span>}</span> },
    { key: "amount", header: "Amount argument", cell: (r) => <span data-testid="risk-amount">{r.amountArg ? <code className="text-xs">{r.amountArg}</code> : <span className="text-slate-500">—</span>}</span> },
    {
      key: "source",
      header: "Source",
      cell: (r) =>
        r.source === "curated" ? (
          <span data-testid="risk-source">
            <span className="font-medium text-indigo-700">Curated</span>{" "}
            <span className="block text-xs text-slate-500">
              by {r.curatedBy?.name ?? "a deleted user"}{r.curatedAt ? `, ${formatDate(r.curatedAt)}` : ""}
            </span>
            {" "}<span className="block text-xs text-slate-500">default: {r.defaults.rule}</span>
          </span>
        ) : (
          <span data-testid="risk-source">
            <span className="text-slate-700">Default rule</span>{" "}
            <span className="block text-xs text-slate-500">{r.defaults.rule}</span>
          </span>
        ),
    },
    ...(canCurate
      ? [{
          key: "edit",
          header: <span className="sr-only">Edit</span>,
          cell: (r: Row) => (
            <button type="button" className={secondaryButtonCls} onClick={() => edit(r)} disabled={pending} aria-label={`Edit the risk of ${r.agentName}`} data-testid="risk-edit">
              Edit
            </button>
          ),
        } satisfies Column<Row>]
      : []),
  ];

  return (
    <div className="space-y-3">
      <DataTable testId="tool-risk-table" caption="Risk of each tool" rows={rows} rowKey={(r) => r.toolId} rowProps={(r) => ({ "data-testid": "risk-row", "data-tool": r.agentName })} columns={columns} busy={pending} />
      {notice && <p role="status" className="rounded-md bg-emerald-50 p-2 text-sm text-emerald-800" data-testid="risk-notice">{notice}</p>}
      {editing && canCurate && (
        <form
          ref={formRef}
          className="rounded-xl border border-indigo-200 bg-indigo-50/40 p-4"
          aria-labelledby="risk-edit-heading"
          data-testid="risk-form"
          onKeyDown={(e) => {
            if (e.key === "Escape") setEditing(null);
          }}
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            startTransition(async () => finish(await curate!({ toolId: editing.toolId, level, critical, amountArg }), "curated"));
          }}
        >
          <h3 id="risk-edit-heading" className="text-sm font-semibold text-slate-900">
            Curate <span className="font-mono">{editing.agentName}</span>
          </h3>
          <p className="mt-1 text-xs text-slate-600">
            The default rule gives: {editing.defaults.level}, {editing.defaults.critical ? "critical" : "not critical"}
            {editing.defaults.amountArg ? `, amount argument ${editing.defaults.amountArg}` : ""} ({editing.defaults.rule}). Your values replace it until you reset.
          </p>
          <div className="mt-3 grid gap-4 sm:grid-cols-3">
            <Field id="risk-level" label="Risk level" small error={fieldErrors.level}>
              {(aria) => <Select id="risk-level" value={level} onChange={(v) => setLevel(v as RiskLevel)} options={LEVELS.map((l) => ({ value: l, label: l }))} {...aria} />}
            </Field>
            <Field id="risk-amount" label="Amount argument" small hint="Its value is the cost of a missed failure; none = 1 per missed critical action." error={fieldErrors.amountArg}>
              {(aria) => (
                <Select id="risk-amount" value={amountArg} onChange={setAmountArg} empty="None" options={editing.parameters.map((p) => ({ value: p.name, label: `${p.name} (${p.type})` }))} {...aria} />
              )}
            </Field>
            <div className="pt-4">
              <Checkbox checked={critical} onChange={setCritical} label="Critical" description="The critic checks before every call of this tool." testId="risk-critical-input" />
            </div>
          </div>
          <FormError message={error} testId="risk-error" errorRef={errorRef} />
          <div className="mt-4 flex flex-wrap gap-2">
            <button type="submit" className={primaryButtonCls} disabled={pending} data-testid="risk-save">{pending ? "Saving…" : "Save"}</button>
            {editing.source === "curated" && (
              <button type="button" className={secondaryButtonCls} disabled={pending} data-testid="risk-reset"
                onClick={() => startTransition(async () => finish(await reset!({ toolId: editing.toolId }), "back to the default rule"))}>
                Reset to default
              </button>
            )}
            <button type="button" className={secondaryButtonCls} onClick={() => setEditing(null)}>Cancel <kbd className="ml-1 text-xs text-slate-500">Esc</kbd></button>
          </div>
        </form>
      )}
    </div>
  );
}
