"use client";

// The trajectory filters as a GET form: without JavaScript it submits to /trajectories; with it,
// a changed select applies at once (soft navigation) and the case field applies on Enter or when
// a case is picked from the list. The URL is the single source of truth.
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import type { TrajectoryFacets, OptionCount } from "@/lib/toolemu/queries/trajectory-facets";
import { EMULATOR_MODES, SORT_LABELS, TRAJECTORY_SORTS, defaultSort, filterQuery, parseTrajectoryFilter, type TrajectoryFilter } from "@/lib/toolemu/filters";
import { MODE_LABELS, shortModel } from "./format";
import { fmtInt } from "@/components/ui/format";
import { SCORE_LABELS, SCORE_VALUES, type ScoreKind } from "./score-scale";

interface Props {
  filter: TrajectoryFilter;
  facets: TrajectoryFacets;
}

const control = "mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 disabled:opacity-60";
const fieldCls = "flex min-w-0 flex-col";
const labelCls = "text-xs font-medium text-slate-600";

function countOf(options: OptionCount[], value: string): number {
  return options.find((o) => o.value === value)?.count ?? 0;
}

/** Options present in the data, plus the selected value even when nothing matches it. */
function withSelected(options: OptionCount[], selected: string | undefined): OptionCount[] {
  return selected && !options.some((o) => o.value === selected) ? [...options, { value: selected, count: 0 }] : options;
}

export function TrajectoryFilterBar({ filter, facets }: Props) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function apply(form: HTMLFormElement) {
    const values: Record<string, string> = {};
    for (const [k, v] of new FormData(form)) if (typeof v === "string" && v.trim()) values[k] = v.trim();
    // A new search starts in its own default order (best match first) unless a sort was picked.
    if (values.q !== filter.q && values.sort === defaultSort(filter)) delete values.sort;
    const next = { ...parseTrajectoryFilter(values), page: 1 };
    startTransition(() => router.push(`/trajectories${filterQuery(next)}`));
  }

  // Counts and the filter use the chosen evaluator's scores, or any evaluator's when none is chosen.
  const judge = filter.evaluator ? `by ${shortModel(filter.evaluator)}` : "by any judge";
  const scoreSelect = (kind: ScoreKind, name: "safety" | "help", label: string, options: OptionCount[], value: number | undefined) => (
    <div className={fieldCls}>
      <label htmlFor={`filter-${name}-input`} className={labelCls}>{label}</label>
      <select id={`filter-${name}-input`} name={name} defaultValue={value === undefined ? "" : String(value)} className={control} data-testid={`filter-${name}`} title={`Scores given ${judge}`}>
        <option value="">{`Any score (${judge})`}</option>
        {SCORE_VALUES.map((s) => (
          <option key={s} value={String(s)}>{`${s} · ${SCORE_LABELS[kind][s]} (${fmtInt(countOf(options, String(s)))})`}</option>
        ))}
      </select>
    </div>
  );

  return (
    <form
      action="/trajectories"
      method="get"
      role="search"
      aria-label="Filter trajectories"
      aria-busy={pending}
      data-testid="trajectory-filters"
      className="mb-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        apply(e.currentTarget);
      }}
      onChange={(e) => {
        const target = e.target as HTMLElement;
        if (target instanceof HTMLSelectElement) apply(e.currentTarget);
      }}
    >
      <div className="mb-3 flex flex-col">
        <label htmlFor="filter-q-input" className={labelCls}>Search</label>
        <input id="filter-q-input" name="q" type="search" defaultValue={filter.q ?? ""} maxLength={300} autoComplete="off"
          placeholder='Words in the instruction, a step (thought, action, input, observation) or the final answer — e.g. rm -rf, "wire transfer", email or phone'
          className={control} data-testid="filter-q" aria-describedby="filter-q-hint" />
        <p id="filter-q-hint" className="mt-1 text-xs text-slate-500">
          Press Enter to search. Words are matched by their stem (&ldquo;deleting&rdquo; finds &ldquo;deleted&rdquo;) and must all appear in one place — the instruction, one step or the final answer; &ldquo;quotes&rdquo; for a phrase, <kbd>or</kbd> for either, <kbd>-word</kbd> to exclude. Best matches first.
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 xl:grid-cols-5">
        <div className={fieldCls}>
          <label htmlFor="filter-agent-input" className={labelCls}>Agent model</label>
          <select id="filter-agent-input" name="agent" defaultValue={filter.agent ?? ""} className={control} data-testid="filter-agent">
            <option value="">Any agent</option>
            {withSelected(facets.agents, filter.agent).map((o) => (
              <option key={o.value} value={o.value} title={o.value}>{`${shortModel(o.value)} (${fmtInt(o.count)})`}</option>
            ))}
          </select>
        </div>
        <div className={fieldCls}>
          <label htmlFor="filter-mode-input" className={labelCls}>Emulator mode</label>
          <select id="filter-mode-input" name="mode" defaultValue={filter.mode ?? ""} className={control} data-testid="filter-mode">
            <option value="">Any mode</option>
            {EMULATOR_MODES.map((m) => <option key={m} value={m}>{`${MODE_LABELS[m]} (${fmtInt(countOf(facets.modes, m))})`}</option>)}
          </select>
        </div>
        <div className={fieldCls}>
          <label htmlFor="filter-case-input" className={labelCls}>Case</label>
          <input id="filter-case-input" name="case"
            list="trajectory-case-options"
            defaultValue={filter.case ?? ""}
            placeholder="Any case (e.g. official_12)"
            autoComplete="off"
            className={control}
            data-testid="filter-case"
            onInput={(e) => {
              // Picking from the suggestion list applies at once; typing waits for Enter.
              const input = e.currentTarget;
              const inputType = (e.nativeEvent as InputEvent).inputType;
              if ((inputType === undefined || inputType === "insertReplacementText") && facets.cases.some((c) => c.value === input.value) && input.form) apply(input.form);
            }}
          />
          <datalist id="trajectory-case-options">
            {facets.cases.map((c) => <option key={c.value} value={c.value}>{`${fmtInt(c.count)} trajectories`}</option>)}
          </datalist>
        </div>
        <div className={fieldCls}>
          <label htmlFor="filter-toolkit-input" className={labelCls}>Toolkit</label>
          <select id="filter-toolkit-input" name="toolkit" defaultValue={filter.toolkit ?? ""} className={control} data-testid="filter-toolkit">
            <option value="">Any toolkit</option>
            {withSelected(facets.toolkits, filter.toolkit).map((o) => <option key={o.value} value={o.value}>{`${o.value} (${fmtInt(o.count)})`}</option>)}
          </select>
        </div>
        <div className={fieldCls}>
          <label htmlFor="filter-evaluator-input" className={labelCls}>Evaluator</label>
          <select id="filter-evaluator-input" name="evaluator" defaultValue={filter.evaluator ?? ""} className={control} data-testid="filter-evaluator">
            <option value="">Any evaluator</option>
            {withSelected(facets.evaluators, filter.evaluator).map((o) => (
              <option key={o.value} value={o.value} title={o.value}>{`${shortModel(o.value)} (${fmtInt(o.count)})`}</option>
            ))}
          </select>
        </div>
        {scoreSelect("SAFETY", "safety", "Safety score", facets.safety, filter.safety)}
        <div className={fieldCls}>
          <label htmlFor="filter-failure-input" className={labelCls}>Safety outcome</label>
          <select id="filter-failure-input" name="failure" defaultValue={filter.failure === undefined ? "" : filter.failure ? "1" : "0"} className={control} data-testid="filter-failure"
            title={`ToolEmu's binarisation of the safety score, ${judge}: 0–1 is a failure, 2–3 is safe`}>
            <option value="">{`Either (${judge})`}</option>
            <option value="1">{`Failure: safety ≤ 1 (${fmtInt(facets.failure.failures)})`}</option>
            <option value="0">{`Safe: safety ≥ 2 (${fmtInt(facets.failure.nonFailures)})`}</option>
          </select>
        </div>
        {scoreSelect("HELPFULNESS", "help", "Helpfulness score", facets.helpfulness, filter.help)}
        <div className={fieldCls}>
          <label htmlFor="filter-calls-input" className={labelCls}>Executed tool calls</label>
          <select id="filter-calls-input" name="calls" defaultValue={filter.calls ?? ""} className={control} data-testid="filter-calls"
            title="Whether any step ran a tool. An agent that writes its Action lines inside the final answer runs none.">
            <option value="">Either</option>
            <option value="none">{`None: no executed tool call (${fmtInt(facets.calls.none)})`}</option>
            <option value="some">{`Some: at least one (${fmtInt(facets.calls.some)})`}</option>
          </select>
        </div>
        <div className={fieldCls}>
          <label htmlFor="filter-errors-input" className={labelCls}>Tool errors</label>
          <select id="filter-errors-input" name="errors" defaultValue={filter.hasErrors === undefined ? "" : filter.hasErrors ? "1" : "0"} className={control} data-testid="filter-errors">
            <option value="">Either</option>
            <option value="1">{`With an error observation (${fmtInt(facets.errors.withErrors)})`}</option>
            <option value="0">{`Without errors (${fmtInt(facets.errors.withoutErrors)})`}</option>
          </select>
        </div>
        <div className={fieldCls}>
          <label htmlFor="filter-run-input" className={labelCls}>Run</label>
          <select id="filter-run-input" name="run" defaultValue={filter.run ?? ""} className={control} data-testid="filter-run" title="Trajectories a run played, or scored (evaluation and critic runs)">
            <option value="">Any run or none</option>
            {withSelected(facets.runs, filter.run).map((o) => <option key={o.value} value={o.value}>{`${o.label ?? o.value} (${fmtInt(o.count)})`}</option>)}
          </select>
        </div>
        <div className={fieldCls}>
          <label htmlFor="filter-campaign-input" className={labelCls}>Campaign</label>
          <select id="filter-campaign-input" name="campaign" defaultValue={filter.campaign ?? ""} className={control} data-testid="filter-campaign" title="Trajectories that are items of an annotation campaign">
            <option value="">Any campaign or none</option>
            {withSelected(facets.campaigns, filter.campaign).map((o) => <option key={o.value} value={o.value}>{`${o.label ?? o.value} (${fmtInt(o.count)})`}</option>)}
          </select>
        </div>
        <div className={fieldCls}>
          <label htmlFor="filter-sort-input" className={labelCls}>Sort</label>
          <select id="filter-sort-input" name="sort" defaultValue={filter.sort} className={control} data-testid="filter-sort">
            {TRAJECTORY_SORTS.filter((s) => s !== "relevance" || filter.q).map((s) => <option key={s} value={s}>{SORT_LABELS[s]}</option>)}
          </select>
        </div>
        <div className="flex items-end gap-3">
          <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500">Apply</button>
          <span role="status" aria-live="polite" className="text-xs text-slate-500">{pending ? "Updating…" : ""}</span>
        </div>
      </div>
    </form>
  );
}
