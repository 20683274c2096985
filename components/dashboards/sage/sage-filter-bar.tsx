"use client";

// The SAGE dashboard's filter bar: the URL is the single source of truth
// (lib/dashboards/sage/filters.ts). A changed select or judge box applies at once; the seed applies
// on Enter / Apply. Without JavaScript it is a GET form.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { fmtInt } from "@/components/ui/format";
import type { FilterOption } from "@/lib/dashboards/filters";
import { SAGE_JUDGE_MODES, SAGE_ORDERS, SAGE_PATH, parseSageFilter, sageHref, type SageFilter } from "@/lib/dashboards/sage/filters";

export interface SageFilterOptions {
  agents: FilterOption[];
  judges: FilterOption[];
  dimensions: FilterOption[];
  subcategories: FilterOption[];
}

const control = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900";
const fieldCls = "flex min-w-0 flex-col";
const labelCls = "text-xs font-medium text-slate-600";
const optionText = (o: FilterOption) => `${o.label ?? o.value}${o.count === undefined ? "" : ` (${fmtInt(o.count)})`}`;
const ORDER_NAMES = { CHRONOLOGICAL: "Chronological (own turns)", REFERENCE: "Reference (published runner)" } as const;
const MODE_NAMES = { TERNARY: "Ternary (safe / unsafe / uncertain)", BINARY: "Binary (safe / unsafe)" } as const;

export function SageFilterBar({ filter, options }: { filter: SageFilter; options: SageFilterOptions }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function apply(form: HTMLFormElement) {
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v.trim()) params.append(k, v.trim());
    if (filter.heat !== "asr") params.set("heat", filter.heat);
    if (filter.effect) params.set("effect", filter.effect);
    startTransition(() => router.push(sageHref(parseSageFilter(params))));
  }

  const select = (key: "agent" | "dimension" | "subcategory", label: string, opts: FilterOption[], empty: string) => {
    const value = filter[key] ?? "";
    const all = value && !opts.some((o) => o.value === value) ? [...opts, { value }] : opts;
    return (
      <div className={fieldCls} key={key}>
        <label htmlFor={`sage-filter-${key}`} className={labelCls}>{label}</label>
        <select id={`sage-filter-${key}`} name={key} defaultValue={value} className={control} data-testid={`filter-${key}`}>
          <option value="">{empty}</option>
          {all.map((o) => <option key={o.value} value={o.value} title={o.value}>{optionText(o)}</option>)}
        </select>
      </div>
    );
  };

  return (
    <form
      key={sageHref(filter)}
      action={SAGE_PATH}
      method="get"
      role="search"
      aria-label="Filter the SAGE dashboard"
      aria-busy={pending}
      data-testid="dashboard-filters"
      className="mb-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        apply(e.currentTarget);
      }}
      onChange={(e) => {
        if (e.target instanceof HTMLSelectElement || (e.target instanceof HTMLInputElement && e.target.type === "checkbox")) apply(e.currentTarget);
      }}
    >
      {filter.run && (
        <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="filter-run">
          <input type="hidden" name="run" value={filter.run} />
          Only the episodes of run{" "}
          <Link href={`/runs/${encodeURIComponent(filter.run)}`} className="font-mono text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{filter.run}</Link>
          <Link href={sageHref(filter, { run: undefined })} className="rounded-md px-1.5 text-xs text-slate-600 underline-offset-2 hover:underline" data-testid="filter-run-clear">Show every run</Link>
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {select("agent", "Agent model", options.agents, "Every agent model")}
        {select("dimension", "Dimension", options.dimensions, "Every dimension")}
        {select("subcategory", "Subcategory", options.subcategories, "Every subcategory")}
        <div className={fieldCls}>
          <label htmlFor="sage-filter-order" className={labelCls}>Conversation order</label>
          <select id="sage-filter-order" name="order" defaultValue={filter.order ?? ""} className={control} data-testid="filter-order">
            <option value="">Either order</option>
            {SAGE_ORDERS.map((o) => <option key={o} value={o}>{ORDER_NAMES[o]}</option>)}
          </select>
        </div>
        <div className={fieldCls}>
          <label htmlFor="sage-filter-mode" className={labelCls}>Judge mode</label>
          <select id="sage-filter-mode" name="mode" defaultValue={filter.mode} className={control} data-testid="filter-mode">
            {SAGE_JUDGE_MODES.map((m) => <option key={m} value={m}>{MODE_NAMES[m]}</option>)}
          </select>
        </div>
        <fieldset className={`${fieldCls} lg:col-span-2`} data-testid="filter-judges">
          <legend className={labelCls}>Judges {filter.judges.length === 0 ? "(none ticked = every judge)" : ""}</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {options.judges.length === 0 && <span className="text-sm text-slate-500">No judge verdicts yet</span>}
            {options.judges.map((j) => (
              <label key={j.value} className="inline-flex items-center gap-1.5 text-sm text-slate-800">
                <input type="checkbox" name="judge" value={j.value} defaultChecked={filter.judges.includes(j.value)} className="rounded border-slate-300" />
                {optionText(j)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className={fieldCls}>
          <label htmlFor="sage-filter-seed" className={labelCls}>Seed</label>
          <input id="sage-filter-seed" name="seed" type="text" inputMode="numeric" pattern="-?[0-9]{1,10}" defaultValue={String(filter.seed)}
            className={`${control} font-mono`} data-testid="filter-seed" title="Bootstrap seed (ASR averaged, context effect). Press Enter to apply." />
        </div>
        <div className="flex items-end gap-3">
          <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Apply</button>
          <Link href={SAGE_PATH} className="rounded-md px-2 py-1.5 text-sm text-slate-600 underline-offset-2 hover:underline" data-testid="filter-reset">Reset</Link>
          <span role="status" aria-live="polite" className="text-xs text-slate-500">{pending ? "Updating…" : ""}</span>
        </div>
      </div>
    </form>
  );
}
