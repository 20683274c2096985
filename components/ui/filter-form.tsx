"use client";

// The shell every filter bar shares (dashboards, critic, SAGE, trajectory list): a GET form whose
// URL is the single source of truth. Without JavaScript it submits to `action`; with it, a changed
// select (or whatever `appliesOnChange` says) applies at once as a soft navigation, text fields on
// Enter / Apply, and "Updating…" shows while the next page loads.
//
//   <FilterForm action="/dashboards/x" ariaLabel="Filter this dashboard" hrefOf={(form) => …} resetHref="/dashboards/x">
//     <FilterSelect id="x-agent" name="agent" label="Agent model" defaultValue={…} testId="filter-agent">
//       <option value="">Any agent</option>
//       {withSelected(options, filter.agent).map(…)}
//     </FilterSelect>
//   </FilterForm>
//
// A field that should apply from its own event (a datalist pick) calls `input.form?.requestSubmit()`.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition, type ReactNode } from "react";
import { fmtInt } from "./format";

export const filterControl = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 disabled:opacity-60";
const fieldCls = "flex min-w-0 flex-col";
const labelCls = "text-xs font-medium text-slate-600";

/** "name (count)" of a select option; the label if it has one. */
export function optionText(o: { value: string; label?: string; count?: number }): string {
  const name = o.label ?? o.value;
  return o.count === undefined ? name : `${name} (${fmtInt(o.count)})`;
}

/** The options, plus the selected value even when the data no longer has it (shown with `blank`'s count). */
export function withSelected<T extends { value: string }>(options: readonly T[], selected: string | undefined, blank: (value: string) => T): T[] {
  return selected && !options.some((o) => o.value === selected) ? [...options, blank(selected)] : [...options];
}

/** A labelled field of the bar's grid. */
export function FilterField({ htmlFor, label, className = "", children }: { htmlFor?: string; label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div className={`${fieldCls} ${className}`.trim()}>
      <label htmlFor={htmlFor} className={labelCls}>{label}</label>
      {children}
    </div>
  );
}

/** A labelled select; `children` are its options. */
export function FilterSelect({ id, name, label, defaultValue, testId, title, children }: { id: string; name: string; label: ReactNode; defaultValue: string; testId: string; title?: string; children: ReactNode }) {
  return (
    <FilterField htmlFor={id} label={label}>
      <select id={id} name={name} defaultValue={defaultValue} className={filterControl} data-testid={testId} title={title}>
        {children}
      </select>
    </FilterField>
  );
}

/** A labelled text input (τ, the seed): applies on Enter. */
export function FilterTextInput({ id, name, label, defaultValue, testId, title, pattern, inputMode }: { id: string; name: string; label: ReactNode; defaultValue: string; testId: string; title: string; pattern: string; inputMode: "numeric" | "decimal" }) {
  return (
    <FilterField htmlFor={id} label={label}>
      <input id={id} name={name} type="text" inputMode={inputMode} pattern={pattern} defaultValue={defaultValue} className={`${filterControl} font-mono`} data-testid={testId} title={title} />
    </FilterField>
  );
}

/** The bootstrap seed field every dashboard has. */
export function SeedInput({ id, defaultValue, title, label = "Seed" }: { id: string; defaultValue: number; title: string; label?: ReactNode }) {
  return <FilterTextInput id={id} name="seed" label={label} defaultValue={String(defaultValue)} testId="filter-seed" title={title} pattern="-?[0-9]{1,10}" inputMode="numeric" />;
}

export interface FilterFormProps {
  action: string;
  ariaLabel: string;
  /** The URL the form's current values lead to. */
  hrefOf: (form: HTMLFormElement) => string;
  /** Remount on a new URL so the uncontrolled fields show the filter actually applied. */
  formKey?: string;
  resetHref?: string;
  /** Which changed elements apply at once (default: selects). */
  appliesOnChange?: (target: EventTarget) => boolean;
  testId?: string;
  className?: string;
  gridClassName?: string;
  /** Shown above the grid (a search box, a "only this run" line). */
  before?: ReactNode;
  children: ReactNode;
}

const isSelect = (t: EventTarget) => t instanceof HTMLSelectElement;

export function FilterForm({ action, ariaLabel, hrefOf, formKey, resetHref, appliesOnChange = isSelect, testId = "dashboard-filters", className = "mb-6", gridClassName = "sm:grid-cols-2 lg:grid-cols-4", before, children }: FilterFormProps) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const apply = (form: HTMLFormElement) => {
    const href = hrefOf(form);
    startTransition(() => router.push(href));
  };
  return (
    <form
      key={formKey}
      action={action}
      method="get"
      role="search"
      aria-label={ariaLabel}
      aria-busy={pending}
      data-testid={testId}
      className={`${className} rounded-xl border border-slate-200 bg-white p-4 shadow-sm`}
      onSubmit={(e) => {
        e.preventDefault();
        apply(e.currentTarget);
      }}
      onChange={(e) => {
        if (appliesOnChange(e.target)) apply(e.currentTarget);
      }}
    >
      {before}
      <div className={`grid gap-3 ${gridClassName}`}>
        {children}
        <div className="flex items-end gap-3">
          <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Apply</button>
          {resetHref && <Link href={resetHref} className="rounded-md px-2 py-1.5 text-sm text-slate-600 underline-offset-2 hover:underline" data-testid="filter-reset">Reset</Link>}
          <span role="status" aria-live="polite" className="text-xs text-slate-500">{pending ? "Updating…" : ""}</span>
        </div>
      </div>
    </form>
  );
}

/** The form's non-empty values, trimmed (a repeated name keeps its last value). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of new FormData(form)) if (typeof v === "string" && v.trim()) values[k] = v.trim();
  return values;
}
