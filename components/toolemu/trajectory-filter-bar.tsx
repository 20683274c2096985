"use client";

// The trajectory filters as a GET form: without JavaScript it submits to /trajectories; with it,
// a changed select applies at once (soft navigation) and the case field applies on Enter or when
// a case is picked from the list. The URL is the single source of truth.
import { FilterField, FilterForm, FilterSelect, filterControl, formValues, withSelected } from "@/components/ui/filter-form";
import type { TrajectoryFacets, OptionCount } from "@/lib/toolemu/queries/trajectory-facets";
import { EMULATOR_MODES, SORT_LABELS, TRAJECTORY_SORTS, defaultSort, filterQuery, parseTrajectoryFilter, type TrajectoryFilter } from "@/lib/toolemu/filters";
import { MODE_LABELS, shortModel } from "./format";
import { fmtInt } from "@/components/ui/format";
import { SCORE_LABELS, SCORE_VALUES, type ScoreKind } from "./score-scale";

interface Props {
  filter: TrajectoryFilter;
  facets: TrajectoryFacets;
}

function countOf(options: OptionCount[], value: string): number {
  return options.find((o) => o.value === value)?.count ?? 0;
}

/** Options present in the data, plus the selected value (count 0) even when nothing matches it. */
const present = (options: OptionCount[], selected: string | undefined) => withSelected<OptionCount>(options, selected, (value) => ({ value, count: 0 }));

export function TrajectoryFilterBar({ filter, facets }: Props) {
  const hrefOf = (form: HTMLFormElement) => {
    const values = formValues(form);
    // A new search starts in its own default order (best match first) unless a sort was picked.
    if (values.q !== filter.q && values.sort === defaultSort(filter)) delete values.sort;
    return `/trajectories${filterQuery({ ...parseTrajectoryFilter(values), page: 1 })}`;
  };

  // Counts and the filter use the chosen evaluator's scores, or any evaluator's when none is chosen.
  const judge = filter.evaluator ? `by ${shortModel(filter.evaluator)}` : "by any judge";
  const scoreSelect = (kind: ScoreKind, name: "safety" | "help", label: string, options: OptionCount[], value: number | undefined) => (
    <FilterSelect id={`filter-${name}-input`} name={name} label={label} defaultValue={value === undefined ? "" : String(value)} testId={`filter-${name}`} title={`Scores given ${judge}`}>
      <option value="">{`Any score (${judge})`}</option>
      {SCORE_VALUES.map((s) => (
        <option key={s} value={String(s)}>{`${s} · ${SCORE_LABELS[kind][s]} (${fmtInt(countOf(options, String(s)))})`}</option>
      ))}
    </FilterSelect>
  );

  const search = (
    <div className="mb-3 flex flex-col">
      <label htmlFor="filter-q-input" className="text-xs font-medium text-slate-600">Search</label>
      <input id="filter-q-input" name="q" type="search" defaultValue={filter.q ?? ""} maxLength={300} autoComplete="off"
        placeholder='Words in the instruction, a step (thought, action, input, observation) or the final answer — e.g. rm -rf, "wire transfer", email or phone'
        className={filterControl} data-testid="filter-q" aria-describedby="filter-q-hint" />
      <p id="filter-q-hint" className="mt-1 text-xs text-slate-500">
        Press Enter to search. Words are matched by their stem (&ldquo;deleting&rdquo; finds &ldquo;deleted&rdquo;) and must all appear in one place — the instruction, one step or the final answer; &ldquo;quotes&rdquo; for a phrase, <kbd>or</kbd> for either, <kbd>-word</kbd> to exclude. Best matches first.
      </p>
    </div>
  );

  return (
    <FilterForm action="/trajectories" ariaLabel="Filter trajectories" hrefOf={hrefOf} testId="trajectory-filters" className="mb-4" gridClassName="sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-5" before={search}>
      <FilterSelect id="filter-agent-input" name="agent" label="Agent model" defaultValue={filter.agent ?? ""} testId="filter-agent">
        <option value="">Any agent</option>
        {present(facets.agents, filter.agent).map((o) => (
          <option key={o.value} value={o.value} title={o.value}>{`${shortModel(o.value)} (${fmtInt(o.count)})`}</option>
        ))}
      </FilterSelect>
      <FilterSelect id="filter-mode-input" name="mode" label="Emulator mode" defaultValue={filter.mode ?? ""} testId="filter-mode">
        <option value="">Any mode</option>
        {EMULATOR_MODES.map((m) => <option key={m} value={m}>{`${MODE_LABELS[m]} (${fmtInt(countOf(facets.modes, m))})`}</option>)}
      </FilterSelect>
      <FilterField htmlFor="filter-case-input" label="Case">
        <input id="filter-case-input" name="case"
          list="trajectory-case-options"
          defaultValue={filter.case ?? ""}
          placeholder="Any case (e.g. official_12)"
          autoComplete="off"
          className={filterControl}
          data-testid="filter-case"
          onInput={(e) => {
            // Picking from the suggestion list applies at once; typing waits for Enter.
            const input = e.currentTarget;
            const inputType = (e.nativeEvent as InputEvent).inputType;
            if ((inputType === undefined || inputType === "insertReplacementText") && facets.cases.some((c) => c.value === input.value)) input.form?.requestSubmit();
          }}
        />
        <datalist id="trajectory-case-options">
          {facets.cases.map((c) => <option key={c.value} value={c.value}>{`${fmtInt(c.count)} trajectories`}</option>)}
        </datalist>
      </FilterField>
      <FilterSelect id="filter-toolkit-input" name="toolkit" label="Toolkit" defaultValue={filter.toolkit ?? ""} testId="filter-toolkit">
        <option value="">Any toolkit</option>
        {present(facets.toolkits, filter.toolkit).map((o) => <option key={o.value} value={o.value}>{`${o.value} (${fmtInt(o.count)})`}</option>)}
      </FilterSelect>
      <FilterSelect id="filter-evaluator-input" name="evaluator" label="Evaluator" defaultValue={filter.evaluator ?? ""} testId="filter-evaluator">
        <option value="">Any evaluator</option>
        {present(facets.evaluators, filter.evaluator).map((o) => (
          <option key={o.value} value={o.value} title={o.value}>{`${shortModel(o.value)} (${fmtInt(o.count)})`}</option>
        ))}
      </FilterSelect>
      {scoreSelect("SAFETY", "safety", "Safety score", facets.safety, filter.safety)}
      <FilterSelect id="filter-failure-input" name="failure" label="Safety outcome" defaultValue={filter.failure === undefined ? "" : filter.failure ? "1" : "0"} testId="filter-failure"
        title={`ToolEmu's binarisation of the safety score, ${judge}: 0–1 is a failure, 2–3 is safe`}>
        <option value="">{`Either (${judge})`}</option>
        <option value="1">{`Failure: safety ≤ 1 (${fmtInt(facets.failure.failures)})`}</option>
        <option value="0">{`Safe: safety ≥ 2 (${fmtInt(facets.failure.nonFailures)})`}</option>
      </FilterSelect>
      {scoreSelect("HELPFULNESS", "help", "Helpfulness score", facets.helpfulness, filter.help)}
      <FilterSelect id="filter-calls-input" name="calls" label="Executed tool calls" defaultValue={filter.calls ?? ""} testId="filter-calls"
        title="Whether any step ran a tool. An agent that writes its Action lines inside the final answer runs none.">
        <option value="">Either</option>
        <option value="none">{`None: no executed tool call (${fmtInt(facets.calls.none)})`}</option>
        <option value="some">{`Some: at least one (${fmtInt(facets.calls.some)})`}</option>
      </FilterSelect>
      <FilterSelect id="filter-errors-input" name="errors" label="Tool errors" defaultValue={filter.hasErrors === undefined ? "" : filter.hasErrors ? "1" : "0"} testId="filter-errors">
        <option value="">Either</option>
        <option value="1">{`With an error observation (${fmtInt(facets.errors.withErrors)})`}</option>
        <option value="0">{`Without errors (${fmtInt(facets.errors.withoutErrors)})`}</option>
      </FilterSelect>
      <FilterSelect id="filter-run-input" name="run" label="Run" defaultValue={filter.run ?? ""} testId="filter-run" title="Trajectories a run played, or scored (evaluation and critic runs)">
        <option value="">Any run or none</option>
        {present(facets.runs, filter.run).map((o) => <option key={o.value} value={o.value}>{`${o.label ?? o.value} (${fmtInt(o.count)})`}</option>)}
      </FilterSelect>
      <FilterSelect id="filter-campaign-input" name="campaign" label="Campaign" defaultValue={filter.campaign ?? ""} testId="filter-campaign" title="Trajectories that are items of an annotation campaign">
        <option value="">Any campaign or none</option>
        {present(facets.campaigns, filter.campaign).map((o) => <option key={o.value} value={o.value}>{`${o.label ?? o.value} (${fmtInt(o.count)})`}</option>)}
      </FilterSelect>
      <FilterSelect id="filter-sort-input" name="sort" label="Sort" defaultValue={filter.sort} testId="filter-sort">
        {TRAJECTORY_SORTS.filter((s) => s !== "relevance" || filter.q).map((s) => <option key={s} value={s}>{SORT_LABELS[s]}</option>)}
      </FilterSelect>
    </FilterForm>
  );
}
