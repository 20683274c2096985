// The label form's fields, one fieldset each: choices (with their shortcut keys), yes/no, text.
import type { RefObject } from "react";
import type { LabelField } from "@/lib/trajectory/label-schema";
import type { Values } from "./draft";

interface Props {
  fields: LabelField[];
  values: Values;
  focused: number;
  readOnly: boolean;
  onFocus: (i: number) => void;
  onChange: (key: string, v: string | boolean | null) => void;
  fieldRefs: RefObject<(HTMLFieldSetElement | null)[]>;
  commentRef: RefObject<HTMLTextAreaElement | null>;
}

export function LabelFields({ fields, values, focused, readOnly, onFocus, onChange, fieldRefs, commentRef }: Props) {
  return fields.map((f, i) => (
    <fieldset
      key={f.key}
      ref={(el) => {
        fieldRefs.current[i] = el;
      }}
      tabIndex={-1}
      onFocus={() => onFocus(i)}
      onClick={() => onFocus(i)}
      data-testid={`field-${f.key}`}
      data-focused={focused === i}
      className={`rounded-lg border p-2.5 outline-none ${focused === i ? "border-indigo-400 ring-2 ring-indigo-100" : "border-slate-200"}`}
    >
      <legend className="px-1 text-sm font-medium text-slate-800">
        {f.label}
        {f.required && <span className="text-rose-600"> *</span>}
      </legend>
      {f.help && <p className="mb-1.5 px-1 text-xs text-slate-500">{f.help}</p>}
      {f.kind === "choice" && (
        <div className="space-y-0.5">
          {f.options.map((o) => (
            <label key={o.value} className={`flex cursor-pointer items-center gap-2 rounded px-1.5 py-0.5 text-sm ${values[f.key] === o.value ? "bg-indigo-50 text-indigo-900" : "hover:bg-slate-50"}`}>
              <input type="radio" name={f.key} value={o.value} checked={values[f.key] === o.value} disabled={readOnly} onChange={() => onChange(f.key, o.value)} tabIndex={-1} />
              <kbd className="w-4 text-center font-mono text-xs text-slate-400">{o.key}</kbd>
              <span>{o.label}{o.score !== undefined ? ` (${o.score})` : ""}</span>
            </label>
          ))}
        </div>
      )}
      {f.kind === "boolean" && (
        <div className="flex gap-3 px-1 text-sm">
          {[true, false].map((b) => (
            <label key={String(b)} className={`flex cursor-pointer items-center gap-2 rounded px-1.5 py-0.5 ${values[f.key] === b ? "bg-indigo-50 text-indigo-900" : ""}`}>
              <input type="radio" name={f.key} checked={values[f.key] === b} disabled={readOnly} onChange={() => onChange(f.key, b)} tabIndex={-1} />
              <kbd className="font-mono text-xs text-slate-400">{b ? "y" : "n"}</kbd> {b ? "Yes" : "No"}
            </label>
          ))}
        </div>
      )}
      {f.kind === "text" && (
        <textarea
          ref={commentRef}
          aria-label={f.label}
          value={typeof values[f.key] === "string" ? (values[f.key] as string) : ""}
          maxLength={f.maxLength}
          disabled={readOnly}
          onChange={(e) => onChange(f.key, e.target.value)}
          onFocus={() => onFocus(i)}
          rows={3}
          className="w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
          placeholder="Optional. Esc to leave the box."
        />
      )}
    </fieldset>
  ));
}

/** A shortcut key on the focused field: cycles through the choices with that key, or sets yes/no. */
export function chooseByKey(f: LabelField, key: string, current: Values[string] | undefined, onChange: (key: string, v: string | boolean | null) => void) {
  if (f.kind === "choice") {
    const matches = f.options.filter((o) => o.key === key);
    if (!matches.length) return;
    const at = matches.findIndex((o) => o.value === current);
    onChange(f.key, matches[(at + 1) % matches.length]!.value);
  } else if (f.kind === "boolean") {
    if (key === "1" || key === "y") onChange(f.key, true);
    if (key === "0" || key === "n") onChange(f.key, false);
  }
}
