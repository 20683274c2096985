"use client";
// The case page's critical tools (issue 13 item 1): the ones its toolkits make critical (curated or
// by the default rule) and the ones this case adds; users who may curate edit the additions.
import Link from "next/link";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { CaseCriticalTools } from "@/lib/critic/queries";
import { FormError, primaryButtonCls, secondaryButtonCls } from "@/components/ui/form";
import { RiskBadge } from "./tool-risk-table";

interface Props {
  data: CaseCriticalTools;
  toolkitNames: string[];
  canCurate: boolean;
  save?: (i: { caseId: string; names: string[] }) => Promise<ActionResult<{ criticalTools: string[] }>>;
}

export function CaseCriticalToolsEditor({ data, toolkitNames, canCurate, save }: Props) {
  const [editing, setEditing] = useState(false);
  const [selected, setSelected] = useState(new Set(data.own));
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const addable = data.tools.filter((t) => !t.toolkitCritical);

  return (
    <div className="space-y-3 text-sm" data-testid="case-critical-tools">
      <div>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">From the toolkits</h3>
        {data.fromToolkits.length === 0 ? (
          <p className="mt-1 text-slate-500">None of these toolkits&apos; tools is critical.</p>
        ) : (
          <ul className="mt-1 flex flex-wrap gap-2" data-testid="critical-from-toolkits">
            {data.fromToolkits.map((t) => (
              <li key={t.agentName} className="inline-flex items-center gap-1 rounded-md border border-slate-200 bg-slate-50 px-2 py-1">
                <span className="font-mono text-xs">{t.agentName}</span>
                <RiskBadge level={t.level} />
                <span className="text-xs text-slate-500">{t.source === "curated" ? "curated" : "default rule"}</span>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-1 text-xs text-slate-500">
          Change these on the toolkit page{toolkitNames.length > 1 ? "s" : ""}:{" "}
          {toolkitNames.map((n, i) => (
            <span key={n}>{i > 0 && ", "}<Link className="text-indigo-700 underline" href={`/toolkits/${encodeURIComponent(n)}#risk`}>{n}</Link></span>
          ))}
          .
        </p>
      </div>
      <div>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Added by this case</h3>
        {!editing && (
          <>
            {data.own.length === 0 ? (
              <p className="mt-1 text-slate-500" data-testid="critical-own-empty">None.</p>
            ) : (
              <ul className="mt-1 flex flex-wrap gap-2" data-testid="critical-own">
                {data.own.map((n) => <li key={n} className="rounded-md border border-indigo-200 bg-indigo-50 px-2 py-1 font-mono text-xs">{n}</li>)}
              </ul>
            )}
            {notice && <p role="status" className="mt-2 rounded-md bg-emerald-50 p-2 text-emerald-800">{notice}</p>}
            {canCurate && addable.length > 0 && (
              <button type="button" className={`${secondaryButtonCls} mt-2`} onClick={() => { setSelected(new Set(data.own)); setEditing(true); setError(null); setNotice(null); }} data-testid="critical-edit">
                Edit this case&apos;s critical tools
              </button>
            )}
          </>
        )}
        {editing && (
          <form
            className="mt-2 rounded-lg border border-indigo-200 bg-indigo-50/40 p-3"
            onKeyDown={(e) => { if (e.key === "Escape") setEditing(false); }}
            onSubmit={(e) => {
              e.preventDefault();
              startTransition(async () => {
                const res = await save!({ caseId: data.caseId, names: [...selected] });
                if (res.ok) {
                  setEditing(false);
                  setNotice(`Saved: ${res.data.criticalTools.length} tool(s) added by this case.`);
                } else setError(res.error);
              });
            }}
          >
            <fieldset>
              <legend className="text-xs text-slate-600">Tools the critic should also check before they run, for this case only:</legend>
              <div className="mt-2 grid gap-1 sm:grid-cols-2">
                {addable.map((t) => (
                  <label key={t.agentName} className="flex items-center gap-2">
                    <input type="checkbox" checked={selected.has(t.agentName)} data-testid={`critical-option-${t.agentName}`}
                      onChange={(e) => {
                        const next = new Set(selected);
                        if (e.target.checked) next.add(t.agentName);
                        else next.delete(t.agentName);
                        setSelected(next);
                      }} />
                    <span className="font-mono text-xs">{t.agentName}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <FormError message={error} testId="critical-error" />
            <div className="mt-3 flex gap-2">
              <button type="submit" className={primaryButtonCls} disabled={pending} data-testid="critical-save">{pending ? "Saving…" : "Save"}</button>
              <button type="button" className={secondaryButtonCls} onClick={() => setEditing(false)}>Cancel</button>
            </div>
          </form>
        )}
      </div>
    </div>
  );
}
