"use client";

// The critic dashboard's filter bar: the URL is the single source of truth (./filters in
// lib/dashboards/critic). A changed select applies at once; τ and the seed apply on Enter / Apply.
// Without JavaScript it is a GET form.
import { FilterForm, FilterSelect, FilterTextInput, SeedInput, formValues, optionText, withSelected } from "@/components/ui/filter-form";
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

export function CriticFilterBar({ filter, options, sourceDefault, showTies }: { filter: CriticFilter; options: CriticFilterOptions; sourceDefault?: string; showTies: boolean }) {
  const hrefOf = (form: HTMLFormElement) => {
    const values = formValues(form);
    if (!showTies && filter.ties !== DEFAULT_TIE_POLICY) values.ties = filter.ties;
    return criticHref(parseCriticFilter(values));
  };

  const select = (key: CriticFilterKey, label: string, opts: FilterOption[], empty: string) => {
    const value = filter[key] === undefined ? "" : String(filter[key]);
    return (
      <FilterSelect key={key} id={`critic-filter-${key}`} name={key} label={label} defaultValue={value} testId={`filter-${key}`}>
        <option value="">{empty}</option>
        {withSelected(opts, value, (v) => ({ value: v })).map((o) => <option key={o.value} value={o.value} title={o.value}>{optionText(o)}</option>)}
      </FilterSelect>
    );
  };

  return (
    <FilterForm formKey={criticHref(filter)} action={CRITIC_PATH} ariaLabel="Filter the critic dashboard" hrefOf={hrefOf} resetHref={CRITIC_PATH}>
      {select("source", "Label source", options.sources, sourceDefault ? `Default: ${sourceDefault}` : "Default: most labelled")}
      {select("method", "Critic method", options.methods, "All methods")}
      {select("model", "Critic model", options.models, "All critic models")}
      {select("run", "Critic run", options.runs, "Latest assessment per trajectory")}
      <FilterSelect id="critic-filter-errors" name="errors" label="ERROR checkpoints" defaultValue={filter.errors} testId="filter-errors"
        title="An unparsable critic answer: counted as a flag (p̄ = 0, the default) or the trajectory is left out">
        {ERROR_POLICIES.map((p) => <option key={p} value={p}>{ERROR_POLICY_NAMES[p]}{p === "flag" ? " (default)" : ""}</option>)}
      </FilterSelect>
      {showTies && (
        <FilterSelect id="critic-filter-ties" name="ties" label="Ties in the human labels" defaultValue={filter.ties} testId="filter-ties">
          {TIE_POLICIES.map((p) => <option key={p} value={p} title={TIE_POLICY_HINTS[p]}>{TIE_POLICY_NAMES[p]}{p === DEFAULT_TIE_POLICY ? " (default)" : ""}</option>)}
        </FilterSelect>
      )}
      {select("agent", "Agent model", options.agents, "Any agent")}
      <FilterSelect id="critic-filter-mode" name="mode" label="Emulator mode" defaultValue={filter.mode ?? ""} testId="filter-mode">
        <option value="">Any mode</option>
        {EMULATOR_MODES.map((m) => <option key={m} value={m}>{MODE_NAMES[m]}</option>)}
      </FilterSelect>
      {select("toolkit", "Toolkit", options.toolkits, "Any toolkit")}
      <FilterTextInput id="critic-filter-tau" name="tau" label="τ of the table" defaultValue={String(filter.tau)} testId="filter-tau"
        title="A checkpoint passes iff p̄ > τ. Press Enter to apply." inputMode="decimal" pattern="(0(\.[0-9]{1,4})?|1(\.0{1,4})?|\.[0-9]{1,4})" />
      <SeedInput id="critic-filter-seed" defaultValue={filter.seed} title="Bootstrap (and tie-break) seed. Press Enter to apply." />
    </FilterForm>
  );
}
