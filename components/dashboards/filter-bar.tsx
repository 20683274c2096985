"use client";

// The dashboard filter bar. The URL is the single source of truth: a changed select applies at
// once (soft navigation), the seed applies on Enter / Apply; without JavaScript it is a GET form.
//
//   <FilterBar
//     path="/dashboards/evaluators"
//     filter={filter}                                   // parseDashboardFilter(searchParams)
//     fields={["kind", "evaluator", "evaluatorB", "agent", "mode", "toolkit", "campaign", "seed"]}
//     options={{ agents, toolkits, campaigns, evaluators, evaluatorsB: evaluators }}
//     labels={{ evaluator: "Evaluator A", evaluatorB: "Evaluator B" }}
//     placeholders={{ evaluator: "Default (most shared)" }}
//   />
//
// `fields` lists the controls to show, in order. Select options come from the page's query
// (`FilterOption`: value, optional label and count). Keys of the filter that the bar does not
// show are kept as they are. "kind" and "mode" have fixed options; "kind" has no "any" entry
// (the page's default is shown as selected via `filter.kind ?? defaults.kind`).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { fmtInt } from "@/components/ui/format";
import { useTransition } from "react";
import {
  DEFAULT_SEED,
  EMULATOR_MODES,
  KINDS,
  KIND_NAMES,
  MODE_NAMES,
  dashboardHref,
  dashboardQuery,
  parseDashboardFilter,
  tiePolicyOf,
  type DashboardFilter,
  type DashboardFilterKey,
  type FilterOption,
} from "@/lib/dashboards/filters";
import { DEFAULT_TIE_POLICY, TIE_POLICIES, TIE_POLICY_HINTS, TIE_POLICY_NAMES } from "@/lib/metrics/ground-truth";

export type { FilterOption };

type SelectKey = "campaign" | "agent" | "toolkit" | "evaluator" | "evaluatorB" | "validation";

export interface FilterBarProps {
  path: string;
  filter: DashboardFilter;
  fields: DashboardFilterKey[];
  options?: Partial<Record<"campaigns" | "agents" | "toolkits" | "evaluators" | "evaluatorsB" | "validations", FilterOption[]>>;
  labels?: Partial<Record<DashboardFilterKey, string>>;
  /** Text of the empty choice of a select (e.g. "Any agent", "Default: most evaluations"). */
  placeholders?: Partial<Record<SelectKey | "mode", string>>;
  /** Values the page uses when the URL has none (shown as selected). */
  defaults?: Partial<Pick<DashboardFilter, "kind" | "evaluator" | "evaluatorB">>;
}

const DEFAULT_LABELS: Record<DashboardFilterKey, string> = {
  campaign: "Campaign",
  agent: "Agent model",
  mode: "Emulator mode",
  toolkit: "Toolkit",
  evaluator: "Evaluator",
  evaluatorB: "Second evaluator",
  kind: "Score",
  seed: "Seed",
  validation: "Validation campaign",
  ties: "Ties (no majority)",
};

const DEFAULT_PLACEHOLDERS: Record<SelectKey | "mode", string> = {
  campaign: "Any campaign",
  agent: "Any agent",
  toolkit: "Any toolkit",
  evaluator: "Default",
  evaluatorB: "Default",
  mode: "Any mode",
  validation: "None",
};

const OPTION_KEY: Record<SelectKey, "campaigns" | "agents" | "toolkits" | "evaluators" | "evaluatorsB" | "validations"> = {
  campaign: "campaigns",
  agent: "agents",
  toolkit: "toolkits",
  evaluator: "evaluators",
  evaluatorB: "evaluatorsB",
  validation: "validations",
};

const control = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 disabled:opacity-60";
const fieldCls = "flex min-w-0 flex-col";
const labelCls = "text-xs font-medium text-slate-600";

function optionText(o: FilterOption): string {
  const name = o.label ?? o.value;
  return o.count === undefined ? name : `${name} (${fmtInt(o.count)})`;
}

/** Options, plus the selected value even when the data no longer has it. */
function withSelected(options: FilterOption[], selected: string | undefined): FilterOption[] {
  return selected && !options.some((o) => o.value === selected) ? [...options, { value: selected }] : options;
}

export function FilterBar({ path, filter, fields, options = {}, labels = {}, placeholders = {}, defaults = {} }: FilterBarProps) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function apply(form: HTMLFormElement) {
    const values: Record<string, string> = {};
    // Keep what the bar does not show; the form's own fields then overwrite.
    for (const key of Object.keys(filter) as DashboardFilterKey[]) {
      if (!fields.includes(key)) values[key] = String(filter[key]);
    }
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v.trim()) values[k] = v.trim();
    const next = parseDashboardFilter(values);
    startTransition(() => router.push(dashboardHref(path, next)));
  }

  const label = (key: DashboardFilterKey) => labels[key] ?? DEFAULT_LABELS[key];
  const id = (key: DashboardFilterKey) => `dash-filter-${key}`;

  const select = (key: SelectKey) => {
    const opts = withSelected(options[OPTION_KEY[key]] ?? [], filter[key]);
    const def = key === "evaluator" || key === "evaluatorB" ? defaults[key] : undefined;
    return (
      <div className={fieldCls} key={key}>
        <label htmlFor={id(key)} className={labelCls}>{label(key)}</label>
        <select id={id(key)} name={key} defaultValue={filter[key] ?? ""} className={control} data-testid={`filter-${key}`}>
          <option value="">{placeholders[key] ?? (def ? `Default: ${def}` : DEFAULT_PLACEHOLDERS[key])}</option>
          {opts.map((o) => (
            <option key={o.value} value={o.value} title={o.value}>{optionText(o)}</option>
          ))}
        </select>
      </div>
    );
  };

  const control_ = (key: DashboardFilterKey) => {
    switch (key) {
      case "campaign":
      case "agent":
      case "toolkit":
      case "evaluator":
      case "evaluatorB":
      case "validation":
        return select(key);
      case "mode":
        return (
          <div className={fieldCls} key={key}>
            <label htmlFor={id(key)} className={labelCls}>{label(key)}</label>
            <select id={id(key)} name="mode" defaultValue={filter.mode ?? ""} className={control} data-testid="filter-mode">
              <option value="">{placeholders.mode ?? DEFAULT_PLACEHOLDERS.mode}</option>
              {EMULATOR_MODES.map((m) => <option key={m} value={m}>{MODE_NAMES[m]}</option>)}
            </select>
          </div>
        );
      case "kind":
        return (
          <div className={fieldCls} key={key}>
            <label htmlFor={id(key)} className={labelCls}>{label(key)}</label>
            <select id={id(key)} name="kind" defaultValue={filter.kind ?? defaults.kind ?? "SAFETY"} className={control} data-testid="filter-kind">
              {KINDS.map((k) => <option key={k} value={k}>{KIND_NAMES[k]}</option>)}
            </select>
          </div>
        );
      case "ties":
        return (
          <div className={fieldCls} key={key}>
            <label htmlFor={id(key)} className={labelCls}>{label(key)}</label>
            <select id={id(key)} name="ties" defaultValue={tiePolicyOf(filter)} className={control} data-testid="filter-ties"
              title="What an item whose labels tie (and that no one adjudicated) becomes in the ground truth">
              {TIE_POLICIES.map((p) => <option key={p} value={p} title={TIE_POLICY_HINTS[p]}>{TIE_POLICY_NAMES[p]}{p === DEFAULT_TIE_POLICY ? " (default)" : ""}</option>)}
            </select>
          </div>
        );
      case "seed":
        return (
          <div className={fieldCls} key={key}>
            <label htmlFor={id(key)} className={labelCls}>{label(key)}</label>
            <input id={id(key)} name="seed" type="text" inputMode="numeric" pattern="-?[0-9]{1,10}" defaultValue={String(filter.seed)}
              className={`${control} font-mono`} data-testid="filter-seed" title={`Bootstrap (and tie-break) seed; default ${DEFAULT_SEED}. Press Enter to apply.`} />
          </div>
        );
    }
  };

  return (
    <form
      // Remount on a new URL so the uncontrolled fields show the filter actually applied.
      key={dashboardQuery(filter)}
      action={path}
      method="get"
      role="search"
      aria-label="Filter this dashboard"
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
        {fields.map(control_)}
        <div className="flex items-end gap-3">
          <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Apply</button>
          <Link href={path} className="rounded-md px-2 py-1.5 text-sm text-slate-600 underline-offset-2 hover:underline" data-testid="filter-reset">Reset</Link>
          <span role="status" aria-live="polite" className="text-xs text-slate-500">{pending ? "Updating…" : ""}</span>
        </div>
      </div>
    </form>
  );
}
