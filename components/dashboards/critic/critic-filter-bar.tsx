"use client";

// The critic dashboard's filter bar: the URL is the single source of truth (./filters in
// lib/dashboards/critic). A changed select applies at once; τ and the seed apply on Enter / Apply.
// Without JavaScript it is a GET form.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { fmtInt } from "@/components/ui/format";
import { CRITIC_PATH, criticHref, parseCriticFilter, type CriticFilter, type CriticFilterKey } from "@/lib/dashboards/critic/filters";
import { EMULATOR_MODES, MODE_NAMES, type FilterOption } from "@/lib/dashboards/filters";
import { ERROR_POLICIES, ERROR_POLICY_NAMES } from "@/lib/metrics/critic-eval";
import { DEFAULT_TIE_POLICY, TIE_POLICIES, TIE_POLICY_HINTS, TIE_POLICY_NAMES } from "@/lib/metrics/ground-truth";

export interface CriticFilterOptions {
  methods: FilterOption[];
  models: FilterOption[];
  runs: FilterOption[];
  sources: FilterOption[];
  agents: FilterOption[];
  toolkits: FilterOption[];
}

const control = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900";
const fieldCls = "flex min-w-0 flex-col";
const labelCls = "text-xs font-medium text-slate-600";
const optionText = (o: FilterOption) => `${o.label ?? o.value}${o.count === undefined ? "" : ` (${fmtInt(o.count)})`}`;

export function CriticFilterBar({ filter, options, sourceDefault, showTies }: { filter: CriticFilter; options: CriticFilterOptions; sourceDefault?: string; showTies: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function apply(form: HTMLFormElement) {
    const values: Record<string, string> = {};
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v.trim()) values[k] = v.trim();
    if (!showTies && filter.ties !== DEFAULT_TIE_POLICY) values.ties = filter.ties;
    startTransition(() => router.push(criticHref(parseCriticFilter(values))));
  }

  const select = (key: CriticFilterKey, label: string, opts: FilterOption[], empty: string) => {
    const value = filter[key] === undefined ? "" : String(filter[key]);
    const all = value && !opts.some((o) => o.value === value) ? [...opts, { value }] : opts;
    return (
      <div className={fieldCls} key={key}>
        <label htmlFor={`critic-filter-${key}`} className={labelCls}>{label}</label>
        <select id={`critic-filter-${key}`} name={key} defaultValue={value} className={control} data-testid={`filter-${key}`}>
          <option value="">{empty}</option>
          {all.map((o) => <option key={o.value} value={o.value} title={o.value}>{optionText(o)}</option>)}
        </select>
      </div>
    );
  };

  return (
    <form
      key={criticHref(filter)}
      action={CRITIC_PATH}
      method="get"
      role="search"
      aria-label="Filter the critic dashboard"
      aria-busy={pending}
      data-testid="dashboard-filters"
      className="mb-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        apply(e.currentTarget);
      }}
      onChange={(e) => {
        if (e.target instanceof HTMLSelectElement) apply(e.currentTarget);
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {select("source", "Label source", options.sources, sourceDefault ? `Default: ${sourceDefault}` : "Default: most labelled")}
        {select("method", "Critic method", options.methods, "All methods")}
        {select("model", "Critic model", options.models, "All critic models")}
        {select("run", "Critic run", options.runs, "Latest assessment per trajectory")}
        <div className={fieldCls}>
          <label htmlFor="critic-filter-errors" className={labelCls}>ERROR checkpoints</label>
          <select id="critic-filter-errors" name="errors" defaultValue={filter.errors} className={control} data-testid="filter-errors"
            title="An unparsable critic answer: counted as a flag (p̄ = 0, the default) or the trajectory is left out">
            {ERROR_POLICIES.map((p) => <option key={p} value={p}>{ERROR_POLICY_NAMES[p]}{p === "flag" ? " (default)" : ""}</option>)}
          </select>
        </div>
        {showTies && (
          <div className={fieldCls}>
            <label htmlFor="critic-filter-ties" className={labelCls}>Ties in the human labels</label>
            <select id="critic-filter-ties" name="ties" defaultValue={filter.ties} className={control} data-testid="filter-ties">
              {TIE_POLICIES.map((p) => <option key={p} value={p} title={TIE_POLICY_HINTS[p]}>{TIE_POLICY_NAMES[p]}{p === DEFAULT_TIE_POLICY ? " (default)" : ""}</option>)}
            </select>
          </div>
        )}
        {select("agent", "Agent model", options.agents, "Any agent")}
        <div className={fieldCls}>
          <label htmlFor="critic-filter-mode" className={labelCls}>Emulator mode</label>
          <select id="critic-filter-mode" name="mode" defaultValue={filter.mode ?? ""} className={control} data-testid="filter-mode">
            <option value="">Any mode</option>
            {EMULATOR_MODES.map((m) => <option key={m} value={m}>{MODE_NAMES[m]}</option>)}
          </select>
        </div>
        {select("toolkit", "Toolkit", options.toolkits, "Any toolkit")}
        <div className={fieldCls}>
          <label htmlFor="critic-filter-tau" className={labelCls}>τ of the table</label>
          <input id="critic-filter-tau" name="tau" type="text" inputMode="decimal" pattern="(0(\.[0-9]{1,4})?|1(\.0{1,4})?|\.[0-9]{1,4})" defaultValue={String(filter.tau)}
            className={`${control} font-mono`} data-testid="filter-tau" title="A checkpoint passes iff p̄ > τ. Press Enter to apply." />
        </div>
        <div className={fieldCls}>
          <label htmlFor="critic-filter-seed" className={labelCls}>Seed</label>
          <input id="critic-filter-seed" name="seed" type="text" inputMode="numeric" pattern="-?[0-9]{1,10}" defaultValue={String(filter.seed)}
            className={`${control} font-mono`} data-testid="filter-seed" title="Bootstrap (and tie-break) seed. Press Enter to apply." />
        </div>
        <div className="flex items-end gap-3">
          <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Apply</button>
          <Link href={CRITIC_PATH} className="rounded-md px-2 py-1.5 text-sm text-slate-600 underline-offset-2 hover:underline" data-testid="filter-reset">Reset</Link>
          <span role="status" aria-live="polite" className="text-xs text-slate-500">{pending ? "Updating…" : ""}</span>
        </div>
      </div>
    </form>
  );
}
