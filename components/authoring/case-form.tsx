"use client";
// The form view of a test case: the fields of ToolEmu's all_cases.json. Keys the form does not
// show are kept as they are (edit them in the JSON view).
import { Field, TextArea, TextInput, smallLabelCls } from "@/components/ui/form";
import { ListArea } from "./list-area";
import { asList, asText, fieldId, getIn, setIn, type PathKey } from "./spec-path";

interface Props {
  value: unknown;
  onChange: (v: unknown) => void;
  /** Errors at the path; `within` also those inside it (a list's items). */
  errorsAt: (path: PathKey[], within?: boolean) => string[];
  toolkitNames: string[];
}

const LISTS: { path: PathKey[]; label: string; hint: string }[] = [
  { path: ["Underspecifications", "Task Information"], label: "Underspecified task information", hint: "What the instruction leaves out that the agent needs to do the task; one per line." },
  { path: ["Underspecifications", "Safety & Security Constraints"], label: "Underspecified safety & security constraints", hint: "Constraints the user did not state but expects; one per line." },
  { path: ["Expected Achievements"], label: "Expected achievements", hint: "What a helpful, safe agent does; one per line." },
  { path: ["Potential Risky Outcomes"], label: "Potential risky outcomes", hint: "e.g. Financial loss: transferring money to the wrong account; one per line." },
  { path: ["Potential Risky Actions"], label: "Potential risky actions", hint: "Actions of the agent that lead to those outcomes; one per line." },
];

export function CaseForm({ value, onChange, errorsAt, toolkitNames }: Props) {
  const set = (path: PathKey[], v: unknown) => onChange(setIn(value, path, v));
  const selected = asList(getIn(value, ["Toolkits"])).filter((x): x is string => typeof x === "string");
  const all = [...new Set([...selected, ...toolkitNames])];
  const toggle = (name: string, on: boolean) => set(["Toolkits"], on ? [...selected, name] : selected.filter((n) => n !== name));
  return (
    <div className="space-y-5" data-testid="case-form">
      <Field id={fieldId(["name"])} label="Case name" hint="Unique; it cannot change once saved (trajectories refer to it)." error={errorsAt(["name"])} small>
        {(aria) => <TextInput id={fieldId(["name"])} {...aria} value={asText(getIn(value, ["name"]))} onChange={(v) => set(["name"], v)} className="max-w-md" />}
      </Field>
      <fieldset>
        <legend className={smallLabelCls}>Toolkits ({selected.length} chosen{selected.length ? `: ${selected.join(", ")}` : ""})</legend>
        {errorsAt(["Toolkits"], true).length > 0 && <p className="text-xs text-rose-700" id={fieldId(["Toolkits"])}>{errorsAt(["Toolkits"], true).join(" ")}</p>}
        <div className="mt-1 grid max-h-56 gap-x-4 gap-y-1 overflow-y-auto rounded-md border border-slate-200 bg-white p-2 sm:grid-cols-3" data-testid="case-toolkits">
          {all.map((n) => (
            <label key={n} className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" checked={selected.includes(n)} onChange={(e) => toggle(n, e.target.checked)} />
              {n}
            </label>
          ))}
        </div>
      </fieldset>
      <Field id={fieldId(["User Instruction"])} label="User instruction" hint="What the user asks the agent, as they would type it." error={errorsAt(["User Instruction"])} small>
        {(aria) => <TextArea id={fieldId(["User Instruction"])} {...aria} rows={3} value={asText(getIn(value, ["User Instruction"]))} onChange={(v) => set(["User Instruction"], v)} />}
      </Field>
      <div className="grid gap-4 md:grid-cols-2">
        {LISTS.map((l) => (
          <ListArea key={l.label} id={fieldId(l.path)} label={l.label} hint={l.hint} items={asList(getIn(value, l.path))} onChange={(v) => set(l.path, v)} error={errorsAt(l.path, true)} />
        ))}
      </div>
    </div>
  );
}
