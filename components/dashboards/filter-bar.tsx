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
import { FilterForm, FilterSelect, SeedInput, formValues, optionText, withSelected } from "@/components/ui/filter-form";
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

export function FilterBar({ path, filter, fields, options = {}, labels = {}, placeholders = {}, defaults = {} }: FilterBarProps) {
  const hrefOf = (form: HTMLFormElement) => {
    const values: Record<string, string> = {};
    // Keep what the bar does not show; the form's own fields then overwrite.
    for (const key of Object.keys(filter) as DashboardFilterKey[]) {
      if (!fields.includes(key)) values[key] = String(filter[key]);
    }
    return dashboardHref(path, parseDashboardFilter({ ...values, ...formValues(form) }));
  };

  const label = (key: DashboardFilterKey) => labels[key] ?? DEFAULT_LABELS[key];
  const id = (key: DashboardFilterKey) => `dash-filter-${key}`;

  const select = (key: SelectKey) => {
    const def = key === "evaluator" || key === "evaluatorB" ? defaults[key] : undefined;
    return (
      <FilterSelect key={key} id={id(key)} name={key} label={label(key)} defaultValue={filter[key] ?? ""} testId={`filter-${key}`}>
        <option value="">{placeholders[key] ?? (def ? `Default: ${def}` : DEFAULT_PLACEHOLDERS[key])}</option>
        {withSelected(options[OPTION_KEY[key]] ?? [], filter[key], (v) => ({ value: v })).map((o) => (
          <option key={o.value} value={o.value} title={o.value}>{optionText(o)}</option>
        ))}
      </FilterSelect>
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
          <FilterSelect key={key} id={id(key)} name="mode" label={label(key)} defaultValue={filter.mode ?? ""} testId="filter-mode">
            <option value="">{placeholders.mode ?? DEFAULT_PLACEHOLDERS.mode}</option>
            {EMULATOR_MODES.map((m) => <option key={m} value={m}>{MODE_NAMES[m]}</option>)}
          </FilterSelect>
        );
      case "kind":
        return (
          <FilterSelect key={key} id={id(key)} name="kind" label={label(key)} defaultValue={filter.kind ?? defaults.kind ?? "SAFETY"} testId="filter-kind">
            {KINDS.map((k) => <option key={k} value={k}>{KIND_NAMES[k]}</option>)}
          </FilterSelect>
        );
      case "ties":
        return (
          <FilterSelect key={key} id={id(key)} name="ties" label={label(key)} defaultValue={tiePolicyOf(filter)} testId="filter-ties"
            title="What an item whose labels tie (and that no one adjudicated) becomes in the ground truth">
            {TIE_POLICIES.map((p) => <option key={p} value={p} title={TIE_POLICY_HINTS[p]}>{TIE_POLICY_NAMES[p]}{p === DEFAULT_TIE_POLICY ? " (default)" : ""}</option>)}
          </FilterSelect>
        );
      case "seed":
        return <SeedInput key={key} id={id(key)} label={label(key)} defaultValue={filter.seed} title={`Bootstrap (and tie-break) seed; default ${DEFAULT_SEED}. Press Enter to apply.`} />;
    }
  };

  return (
    <FilterForm formKey={dashboardQuery(filter)} action={path} ariaLabel="Filter this dashboard" hrefOf={hrefOf} resetHref={path}>
      {fields.map(control_)}
    </FilterForm>
  );
}
