// The "Cases" section of the new-run form: all cases, by toolkit, by filter or a seeded sample.
import { CheckboxSet, Field, FormSection, NumberInput, Select, TextInput } from "@/components/ui/form";
import { fmtInt } from "@/components/ui/format";

export type CaseKind = "all" | "toolkits" | "filter" | "sample";

export interface CasePick {
  kind: CaseKind;
  toolkits: Set<string>;
  q: string;
  filterToolkit: string;
  sampleN: string;
  sampleSeed: string;
}

const KINDS = [["all", "All cases"], ["toolkits", "By toolkit"], ["filter", "By filter"], ["sample", "Random sample"]] as const;

export function CasePicker({ uid, totalCases, toolkits, value, onChange }: { uid: string; totalCases: number; toolkits: { name: string; cases: number }[]; value: CasePick; onChange: (next: CasePick) => void }) {
  const set = <K extends keyof CasePick>(key: K) => (v: CasePick[K]) => onChange({ ...value, [key]: v });
  const toolkitLabel = new Map(toolkits.map((t) => [t.name, t.cases]));
  return (
    <FormSection id={`${uid}-cases`} title="Cases" description={`${fmtInt(totalCases)} test cases in the database.`}>
      <fieldset className="mt-3">
        <legend className="sr-only">How to choose cases</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {KINDS.map(([k, l]) => (
            <label key={k} className="flex items-center gap-2">
              <input type="radio" name={`${uid}-kind`} value={k} checked={value.kind === k} onChange={() => set("kind")(k)} data-testid={`cases-${k}`} /> {l}
            </label>
          ))}
        </div>
      </fieldset>
      {value.kind === "toolkits" && (
        <fieldset className="mt-3 max-h-56 overflow-y-auto rounded-md border border-slate-200 p-3">
          <legend className="sr-only">Toolkits</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            <CheckboxSet values={toolkits.map((t) => t.name)} selected={value.toolkits} onChange={set("toolkits")} className="flex items-center gap-2 text-sm"
              label={(t) => <>{t} <span className="text-xs text-slate-500">({toolkitLabel.get(t)})</span></>} />
          </div>
        </fieldset>
      )}
      {value.kind === "filter" && (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <Field id={`${uid}-q`} label="Text">{(aria) => <TextInput id={`${uid}-q`} value={value.q} onChange={set("q")} placeholder="in the name or instruction" {...aria} />}</Field>
          <Field id={`${uid}-ftk`} label="Toolkit">
            {(aria) => <Select id={`${uid}-ftk`} value={value.filterToolkit} onChange={set("filterToolkit")} empty="Any toolkit" options={toolkits.map((t) => ({ value: t.name, label: `${t.name} (${t.cases})` }))} {...aria} />}
          </Field>
        </div>
      )}
      {value.kind === "sample" && (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <Field id={`${uid}-n`} label="Cases in the sample">{(aria) => <NumberInput id={`${uid}-n`} value={value.sampleN} onChange={set("sampleN")} data-testid="sample-size" {...aria} />}</Field>
          <Field id={`${uid}-sseed`} label="Sample seed" hint="The same seed picks the same cases.">{(aria) => <NumberInput id={`${uid}-sseed`} value={value.sampleSeed} onChange={set("sampleSeed")} {...aria} />}</Field>
        </div>
      )}
    </FormSection>
  );
}
