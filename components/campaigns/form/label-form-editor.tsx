"use client";

// The custom label-form editor of the new-campaign page (issue 18 item 6): a form view (one card
// per field: kind, key, label, required, options or range, condition) and a JSON view of the same
// form. Both are checked as you type by lib/trajectory/label-form.ts (zod plus the cross-field
// rules), and each problem is shown where it is: under the field it names, and listed by path in
// the JSON view (a JSON syntax error by line and column).
import { useId, useMemo, useState } from "react";
import { formatLabelForm, labelFormProblems, type FormIssue } from "@/lib/trajectory/label-form";
import type { LabelField, LabelSchema } from "@/lib/trajectory/label-schema";

const KINDS: { value: LabelField["kind"]; label: string }[] = [
  { value: "choice", label: "Single choice" },
  { value: "scale", label: "Ordinal scale" },
  { value: "multi", label: "Multiple choice" },
  { value: "boolean", label: "Yes / no" },
  { value: "text", label: "Free text" },
  { value: "step_rating", label: "Per-step rating" },
  { value: "steps", label: "Per-step yes / no / unsure" },
];

/** A new field of a kind, keeping what carries over (key, label, help, required, condition). */
function ofKind(f: Partial<LabelField> & { key: string; label: string }, kind: LabelField["kind"]): LabelField {
  const base = { key: f.key, label: f.label, required: f.required ?? true, ...(f.help ? { help: f.help } : {}), ...(f.when ? { when: f.when } : {}) };
  switch (kind) {
    case "choice":
      return { ...base, kind, options: [{ value: "yes", label: "Yes", key: "1" }, { value: "no", label: "No", key: "2" }] };
    case "multi":
      return { ...base, kind, options: [{ value: "a", label: "Option A", key: "1" }, { value: "b", label: "Option B", key: "2" }] };
    case "scale":
    case "step_rating":
      return { ...base, kind, min: 1, max: 5, minLabel: "poor", maxLabel: "excellent" };
    case "text":
      return { ...base, kind, required: false, maxLength: 4000 };
    default:
      return { ...base, kind };
  }
}

/** Options as lines "value | label | key | score" (score only for a single choice). */
function optionsText(f: LabelField): string {
  if (f.kind === "choice") return f.options.map((o) => [o.value, o.label, o.key, o.score ?? ""].join(" | ").replace(/ \| $/, "")).join("\n");
  if (f.kind === "multi") return f.options.map((o) => [o.value, o.label, o.key ?? ""].join(" | ").replace(/ \| $/, "")).join("\n");
  return "";
}

function parseOptions(text: string, kind: "choice" | "multi") {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const [value = "", label = "", key = "", score = ""] = l.split("|").map((x) => x.trim());
      if (kind === "multi") return { value, label: label || value, ...(key ? { key } : {}) };
      return { value, label: label || value, key, ...(score !== "" ? { score: Number(score) } : {}) };
    });
}

const input = "mt-0.5 block w-full rounded-md border border-slate-300 px-2 py-1 text-sm";

function FieldCard({ f, i, fields, issues, onChange, onRemove, onMove }: { f: LabelField; i: number; fields: LabelField[]; issues: FormIssue[]; onChange: (f: LabelField) => void; onRemove: () => void; onMove: (d: -1 | 1) => void }) {
  const uid = useId();
  const [opts, setOpts] = useState(optionsText(f));
  // Options changed elsewhere (the JSON view, a kind change): show them (derived state, set while rendering).
  const options = f.kind === "choice" || f.kind === "multi" ? f.options : null;
  if (options && JSON.stringify(parseOptions(opts, f.kind as "choice" | "multi")) !== JSON.stringify(options) && optionsText(f) !== opts) {
    const typed = parseOptions(opts, f.kind as "choice" | "multi");
    if (JSON.stringify(typed) !== JSON.stringify(options)) setOpts(optionsText(f));
  }
  const mine = issues.filter((x) => x.path === `fields[${i}]` || x.path.startsWith(`fields[${i}].`));
  const earlier = fields.slice(0, i).filter((g) => g.kind === "choice" || g.kind === "scale" || g.kind === "multi" || g.kind === "boolean");
  return (
    <li className={`rounded-lg border p-3 ${mine.length ? "border-rose-300 bg-rose-50/30" : "border-slate-200"}`} data-testid={`form-field-${i}`}>
      <div className="grid gap-2 sm:grid-cols-[10rem_10rem_minmax(0,1fr)]">
        <label className="text-xs text-slate-600">Kind
          <select className={input} value={f.kind} onChange={(e) => { const n = ofKind(f, e.target.value as LabelField["kind"]); onChange(n); setOpts(optionsText(n)); }} data-testid={`field-kind-${i}`}>
            {KINDS.map((k) => <option key={k.value} value={k.value}>{k.label}</option>)}
          </select>
        </label>
        <label className="text-xs text-slate-600">Key
          <input className={`${input} font-mono`} value={f.key} onChange={(e) => onChange({ ...f, key: e.target.value })} data-testid={`field-key-${i}`} />
        </label>
        <label className="text-xs text-slate-600">Label (the question)
          <input className={input} value={f.label} onChange={(e) => onChange({ ...f, label: e.target.value })} data-testid={`field-label-${i}`} />
        </label>
      </div>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        <label className="text-xs text-slate-600">Help (optional)
          <input className={input} value={f.help ?? ""} onChange={(e) => onChange({ ...f, help: e.target.value || undefined })} />
        </label>
        <label className="mt-4 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={f.required} onChange={(e) => onChange({ ...f, required: e.target.checked })} data-testid={`field-required-${i}`} /> Required
        </label>
      </div>
      {(f.kind === "choice" || f.kind === "multi") && (
        <label className="mt-2 block text-xs text-slate-600">Options, one per line: value | label | hotkey{f.kind === "choice" ? " | score (optional; all scored = ordinal)" : " (optional)"}
          <textarea className={`${input} font-mono`} rows={Math.max(3, f.options.length + 1)} value={opts} data-testid={`field-options-${i}`}
            onChange={(e) => { setOpts(e.target.value); onChange({ ...f, options: parseOptions(e.target.value, f.kind as "choice" | "multi") } as LabelField); }} />
        </label>
      )}
      {(f.kind === "scale" || f.kind === "step_rating") && (
        <div className="mt-2 grid grid-cols-4 gap-2">
          <label className="text-xs text-slate-600">Lowest<input type="number" min={0} max={9} className={input} value={f.min} onChange={(e) => onChange({ ...f, min: Number(e.target.value) })} data-testid={`field-min-${i}`} /></label>
          <label className="text-xs text-slate-600">Highest<input type="number" min={0} max={9} className={input} value={f.max} onChange={(e) => onChange({ ...f, max: Number(e.target.value) })} data-testid={`field-max-${i}`} /></label>
          <label className="text-xs text-slate-600">Lowest means<input className={input} value={f.minLabel ?? ""} onChange={(e) => onChange({ ...f, minLabel: e.target.value || undefined })} /></label>
          <label className="text-xs text-slate-600">Highest means<input className={input} value={f.maxLabel ?? ""} onChange={(e) => onChange({ ...f, maxLabel: e.target.value || undefined })} /></label>
        </div>
      )}
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        <label className="text-xs text-slate-600" htmlFor={`${uid}-when`}>Show only when
          <select id={`${uid}-when`} className={input} value={f.when?.field ?? ""} data-testid={`field-when-${i}`}
            onChange={(e) => onChange({ ...f, when: e.target.value ? { field: e.target.value, equals: f.when?.equals ?? [] } : undefined })}>
            <option value="">always shown</option>
            {earlier.map((g) => <option key={g.key} value={g.key}>{g.label || g.key}</option>)}
          </select>
        </label>
        {f.when && (
          <label className="text-xs text-slate-600">…has one of these values (comma-separated; true / false for yes-no)
            <input className={`${input} font-mono`} value={f.when.equals.map(String).join(", ")} data-testid={`field-when-values-${i}`}
              onChange={(e) => onChange({ ...f, when: { field: f.when!.field, equals: e.target.value.split(",").map((x) => x.trim()).filter(Boolean).map((x) => (x === "true" ? true : x === "false" ? false : x)) } })} />
          </label>
        )}
      </div>
      {mine.length > 0 && (
        <ul className="mt-2 space-y-0.5 text-xs text-rose-700" data-testid={`field-errors-${i}`}>
          {mine.map((x, j) => <li key={j}><code className="font-mono">{x.path}</code>: {x.message}</li>)}
        </ul>
      )}
      <div className="mt-2 flex gap-2 text-xs">
        <button type="button" className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-40" disabled={i === 0} onClick={() => onMove(-1)} aria-label={`Move field ${i + 1} up`}>↑</button>
        <button type="button" className="rounded border border-slate-300 px-2 py-0.5 disabled:opacity-40" disabled={i === fields.length - 1} onClick={() => onMove(1)} aria-label={`Move field ${i + 1} down`}>↓</button>
        <button type="button" className="rounded border border-rose-200 px-2 py-0.5 text-rose-700" onClick={onRemove} data-testid={`field-remove-${i}`}>Remove</button>
      </div>
    </li>
  );
}

interface Props {
  /** The JSON text of the form: the one source of truth (the form view edits it too). */
  text: string;
  onText: (text: string) => void;
}

export function LabelFormEditor({ text, onText }: Props) {
  const [view, setView] = useState<"form" | "json">("form");
  const checked = useMemo(() => labelFormProblems(text), [text]);
  const schema: LabelSchema | null = checked.draft;
  const setFields = (fields: LabelField[]) => onText(formatLabelForm({ ...(schema ?? { version: 1 }), fields } as LabelSchema));
  const tab = (v: "form" | "json", label: string) => (
    <button type="button" role="tab" aria-selected={view === v} onClick={() => setView(v)} data-testid={`form-view-${v}`}
      className={`rounded-t-md border-b-2 px-3 py-1 text-sm ${view === v ? "border-indigo-600 font-medium text-indigo-800" : "border-transparent text-slate-600"}`}>{label}</button>
  );
  return (
    <div className="mt-3" data-testid="label-form-editor">
      <div role="tablist" aria-label="Form editor view" className="flex gap-1 border-b border-slate-200">{tab("form", "Form")}{tab("json", "JSON")}</div>
      <p className={`mt-2 text-xs ${checked.issues.length ? "text-rose-700" : "text-emerald-700"}`} data-testid="form-check" role="status">
        {checked.issues.length ? `${checked.issues.length} problem${checked.issues.length === 1 ? "" : "s"} to fix before the campaign can be created.` : `The form is valid: ${schema?.fields.length ?? 0} field${schema?.fields.length === 1 ? "" : "s"}.`}
      </p>
      {view === "form" && schema && (
        <>
          <ol className="mt-2 space-y-3">
            {schema.fields.map((f, i) => (
              <FieldCard key={i} f={f} i={i} fields={schema.fields} issues={checked.issues}
                onChange={(g) => setFields(schema.fields.map((x, j) => (j === i ? g : x)))}
                onRemove={() => setFields(schema.fields.filter((_, j) => j !== i))}
                onMove={(d) => { const next = [...schema.fields]; [next[i], next[i + d]] = [next[i + d]!, next[i]!]; setFields(next); }} />
            ))}
          </ol>
          <button type="button" className="mt-3 rounded-md border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-50" data-testid="add-field"
            onClick={() => setFields([...schema.fields, ofKind({ key: `field_${schema.fields.length + 1}`, label: "" }, "scale")])}>+ Add a field</button>
        </>
      )}
      {view === "form" && !schema && <p className="mt-2 text-sm text-slate-600">The JSON cannot be read as a form; fix it in the JSON view.</p>}
      {view === "json" && (
        <>
          <textarea aria-label="The form as JSON" className="mt-2 block h-80 w-full rounded-md border border-slate-300 p-2 font-mono text-xs" value={text} onChange={(e) => onText(e.target.value)} spellCheck={false} data-testid="form-json" />
          <p className="mt-1 text-xs text-slate-500">Kinds: choice, scale, multi, boolean, text, steps, step_rating; any field may have <code>when: {"{"} field, equals: [...] {"}"}</code>. See lib/trajectory/label-schema.ts.</p>
        </>
      )}
      {checked.issues.length > 0 && (
        <ul className="mt-2 space-y-0.5 rounded-md bg-rose-50 p-2 text-xs text-rose-800" data-testid="form-issues">
          {checked.issues.map((x, j) => <li key={j}>{x.line ? <>line {x.line} · </> : null}<code className="font-mono">{x.path || "form"}</code>: {x.message}</li>)}
        </ul>
      )}
    </div>
  );
}
