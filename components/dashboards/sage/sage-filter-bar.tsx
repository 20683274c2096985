"use client";

// The SAGE dashboard's filter bar: the URL is the single source of truth
// (lib/dashboards/sage/filters.ts). A changed select or judge box applies at once; the seed applies
// on Enter / Apply. Without JavaScript it is a GET form.
import Link from "next/link";
import { FilterForm, FilterSelect, SeedInput, optionText, withSelected } from "@/components/ui/filter-form";
import type { FilterOption } from "@/lib/dashboards/filters";
import { SAGE_JUDGE_MODES, SAGE_ORDERS, SAGE_PATH, parseSageFilter, sageHref, type SageFilter } from "@/lib/dashboards/sage/filters";

export interface SageFilterOptions {
  agents: FilterOption[];
  judges: FilterOption[];
  dimensions: FilterOption[];
  subcategories: FilterOption[];
}

const ORDER_NAMES = { CHRONOLOGICAL: "Chronological (own turns)", REFERENCE: "Reference (published runner)" } as const;
const MODE_NAMES = { TERNARY: "Ternary (safe / unsafe / uncertain)", BINARY: "Binary (safe / unsafe)" } as const;
const selectOrCheckbox = (t: EventTarget) => t instanceof HTMLSelectElement || (t instanceof HTMLInputElement && t.type === "checkbox");

export function SageFilterBar({ filter, options }: { filter: SageFilter; options: SageFilterOptions }) {
  const hrefOf = (form: HTMLFormElement) => {
    // URLSearchParams, not a record: every ticked judge is its own "judge" value.
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v.trim()) params.append(k, v.trim());
    if (filter.heat !== "asr") params.set("heat", filter.heat);
    if (filter.effect) params.set("effect", filter.effect);
    return sageHref(parseSageFilter(params));
  };

  const select = (key: "agent" | "dimension" | "subcategory", label: string, opts: FilterOption[], empty: string) => {
    const value = filter[key] ?? "";
    return (
      <FilterSelect key={key} id={`sage-filter-${key}`} name={key} label={label} defaultValue={value} testId={`filter-${key}`}>
        <option value="">{empty}</option>
        {withSelected(opts, value, (v) => ({ value: v })).map((o) => <option key={o.value} value={o.value} title={o.value}>{optionText(o)}</option>)}
      </FilterSelect>
    );
  };

  const runLine = filter.run && (
    <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="filter-run">
      <input type="hidden" name="run" value={filter.run} />
      Only the episodes of run{" "}
      <Link href={`/runs/${encodeURIComponent(filter.run)}`} className="font-mono text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">{filter.run}</Link>
      <Link href={sageHref(filter, { run: undefined })} className="rounded-md px-1.5 text-xs text-slate-600 underline-offset-2 hover:underline" data-testid="filter-run-clear">Show every run</Link>
    </p>
  );

  return (
    <FilterForm formKey={sageHref(filter)} action={SAGE_PATH} ariaLabel="Filter the SAGE dashboard" hrefOf={hrefOf} resetHref={SAGE_PATH} appliesOnChange={selectOrCheckbox} before={runLine}>
      {select("agent", "Agent model", options.agents, "Every agent model")}
      {select("dimension", "Dimension", options.dimensions, "Every dimension")}
      {select("subcategory", "Subcategory", options.subcategories, "Every subcategory")}
      <FilterSelect id="sage-filter-order" name="order" label="Conversation order" defaultValue={filter.order ?? ""} testId="filter-order">
        <option value="">Either order</option>
        {SAGE_ORDERS.map((o) => <option key={o} value={o}>{ORDER_NAMES[o]}</option>)}
      </FilterSelect>
      <FilterSelect id="sage-filter-mode" name="mode" label="Judge mode" defaultValue={filter.mode} testId="filter-mode">
        {SAGE_JUDGE_MODES.map((m) => <option key={m} value={m}>{MODE_NAMES[m]}</option>)}
      </FilterSelect>
      <fieldset className="flex min-w-0 flex-col lg:col-span-2" data-testid="filter-judges">
        <legend className="text-xs font-medium text-slate-600">Judges {filter.judges.length === 0 ? "(none ticked = every judge)" : ""}</legend>
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
      <SeedInput id="sage-filter-seed" defaultValue={filter.seed} title="Bootstrap seed (ASR averaged, context effect). Press Enter to apply." />
    </FilterForm>
  );
}
