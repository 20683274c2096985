"use client";

// "What to label" for SAGE human validation (issue 14 item 7): SAGE episodes (trajectories of a
// scenario) or the scenarios themselves, all of them or a seeded sample.
import { Field, FormSection, NumberInput, Select } from "@/components/ui/form";
import { fmtInt } from "@/components/ui/format";

export type ItemSource = "trajectories" | "sage-episodes" | "scenarios";

export interface SageSelectionValue {
  subcategory: string;
  n: string;
  seed: string;
}

export interface SageOptions {
  subcategories: { key: string; name: string; scenarios: number }[];
  episodes: number;
}

interface Props {
  uid: string;
  source: ItemSource;
  onSource: (s: ItemSource) => void;
  sage: SageOptions;
  value: SageSelectionValue;
  onChange: (v: SageSelectionValue) => void;
  errors: (...keys: string[]) => string[];
}

const SOURCES: { value: ItemSource; label: string; hint: string }[] = [
  { value: "trajectories", label: "ToolEmu trajectories", hint: "Choose them with the filter below." },
  { value: "sage-episodes", label: "SAGE episodes", hint: "Episodes of SAGE runs: the scenario, the user's messages, the agent's turns." },
  { value: "scenarios", label: "SAGE scenarios", hint: "The scenarios themselves (no agent), e.g. for the scenario-quality form." },
];

export function SageSelection({ uid, source, onSource, sage, value, onChange, errors }: Props) {
  const scenarios = value.subcategory ? (sage.subcategories.find((s) => s.key === value.subcategory)?.scenarios ?? 0) : sage.subcategories.reduce((a, s) => a + s.scenarios, 0);
  const pool = source === "scenarios" ? scenarios : sage.episodes;
  return (
    <FormSection id={`${uid}-source`} title="What to label">
      <div className="mt-3 grid gap-2 sm:grid-cols-3" role="radiogroup" aria-label="What to label">
        {SOURCES.map((s) => (
          <label key={s.value} className={`cursor-pointer rounded-lg border p-3 text-sm ${source === s.value ? "border-indigo-300 bg-indigo-50/40" : "border-slate-200"}`}>
            <span className="flex items-center gap-2 font-medium"><input type="radio" name={`${uid}-source`} checked={source === s.value} onChange={() => onSource(s.value)} data-testid={`source-${s.value}`} />{s.label}</span>
            <span className="mt-1 block text-xs text-slate-500">{s.hint}</span>
          </label>
        ))}
      </div>
      {source !== "trajectories" && (
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          {source === "scenarios" && (
            <Field id={`${uid}-subcategory`} label="Subcategory">
              {(aria) => <Select id={`${uid}-subcategory`} value={value.subcategory} onChange={(v) => onChange({ ...value, subcategory: v })} empty="All 16 subcategories" options={sage.subcategories.map((s) => ({ value: s.key, label: `${s.name} (${s.scenarios})` }))} {...aria} />}
            </Field>
          )}
          <Field id={`${uid}-sage-n`} label="How many (blank = all)" hint={`${fmtInt(pool)} available${source === "scenarios" ? "; a sample is stratified by subcategory" : "; a sample is stratified by Trust / Warning"}.`} error={errors("selection.n")}>
            {(aria) => <NumberInput id={`${uid}-sage-n`} type="number" min={1} value={value.n} onChange={(v) => onChange({ ...value, n: v })} placeholder="all" data-testid="sage-n" {...aria} />}
          </Field>
          <Field id={`${uid}-sage-seed`} label="Sample seed" error={errors("selection.seed")}>
            {(aria) => <NumberInput id={`${uid}-sage-seed`} type="number" min={0} value={value.seed} onChange={(v) => onChange({ ...value, seed: v })} {...aria} />}
          </Field>
        </div>
      )}
    </FormSection>
  );
}
