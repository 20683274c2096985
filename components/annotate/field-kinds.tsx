// The annotate screen's renderers for the field kinds custom forms add (issue 18 item 6): ordinal
// scale, multiple choice and per-step rating (the kinds are documented in
// lib/trajectory/label-schema.ts), and what a key does on each. label-fields.tsx mounts them.
import { multiValues, scaleValues, setStepAnswer, toggleMulti, type LabelField } from "@/lib/trajectory/label-schema";
import type { Values } from "./draft";

type OnChange = (key: string, v: string | boolean | null) => void;
type Scale = Extract<LabelField, { kind: "scale" }>;
type Multi = Extract<LabelField, { kind: "multi" }>;
type StepRating = Extract<LabelField, { kind: "step_rating" }>;

/** An ordinal scale min..max: one button per value, its digit the hotkey. */
export function ScaleChoices({ field, value, readOnly, onChange }: { field: Scale; value: Values[string] | undefined; readOnly: boolean; onChange: OnChange }) {
  return (
    <div>
      <div role="radiogroup" aria-label={field.label} className="flex flex-wrap gap-1 px-1">
        {scaleValues(field).map((v) => (
          <label key={v} className={`flex min-w-9 cursor-pointer flex-col items-center rounded px-2 py-1 text-sm ring-1 ${value === v ? "bg-indigo-600 text-white ring-indigo-600" : "ring-slate-300 hover:bg-slate-50"}`} data-testid={`scale-${field.key}-${v}`}>
            <input type="radio" className="sr-only" name={field.key} value={v} checked={value === v} disabled={readOnly} onChange={() => onChange(field.key, v)} tabIndex={-1} aria-label={`${field.label}: ${v}`} />
            <span className="font-medium tabular-nums">{v}</span>
          </label>
        ))}
      </div>
      {(field.minLabel || field.maxLabel) && (
        <p className="mt-0.5 flex justify-between px-1 text-[11px] text-slate-500">
          <span>{field.min} = {field.minLabel ?? "low"}</span>
          <span>{field.max} = {field.maxLabel ?? "high"}</span>
        </p>
      )}
    </div>
  );
}

/** A multiple choice: checkboxes; an option's key (if it has one) toggles it. */
export function MultiChoices({ field, value, readOnly, onChange }: { field: Multi; value: Values[string] | undefined; readOnly: boolean; onChange: OnChange }) {
  const chosen = new Set(multiValues(value));
  return (
    <div className="space-y-0.5">
      {field.options.map((o) => (
        <label key={o.value} className={`flex cursor-pointer items-center gap-2 rounded px-1.5 py-0.5 text-sm ${chosen.has(o.value) ? "bg-indigo-50 text-indigo-900" : "hover:bg-slate-50"}`}>
          <input type="checkbox" checked={chosen.has(o.value)} disabled={readOnly} onChange={() => onChange(field.key, toggleMulti(field, value, o.value))} tabIndex={-1} />
          <kbd className="w-4 text-center font-mono text-xs text-slate-500">{o.key ?? ""}</kbd>
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  );
}

/** The next step without an answer, or null. */
export function nextUnanswered(value: Values[string] | undefined, stepCount: number): number | null {
  const v = typeof value === "string" ? value : "";
  for (let i = 0; i < stepCount; i++) if (!v[i] || v[i] === "-") return i;
  return null;
}

/** One rating per step: a row of digits min..max for each. Keys on the focused field: a digit rates the next step, Backspace takes the last back. */
export function StepRatings({ field, value, steps, readOnly, focused, onChange }: { field: StepRating; value: Values[string] | undefined; steps: { index: number; action: string | null }[]; readOnly: boolean; focused: boolean; onChange: OnChange }) {
  const v = typeof value === "string" ? value : "";
  const next = nextUnanswered(value, steps.length);
  if (!steps.length) return <p className="px-1 text-xs text-slate-500">This item has no steps: nothing to rate.</p>;
  return (
    <>
      {/* The hint does not depend on focus: a line added on focus moved the rows between mousedown and
          click, so the first click into the field was lost. */}
      <p className="mb-1 px-1 text-xs text-slate-500" data-testid="step-ratings-progress">
        {[...v].filter((c) => c !== "-").length} of {steps.length} rated ({field.min} = {field.minLabel ?? "low"}, {field.max} = {field.maxLabel ?? "high"})
        {next !== null && !readOnly ? ` · next: step ${next + 1} (${field.min}–${field.max}, Backspace to undo)` : ""}
      </p>
      <ol className="max-h-64 space-y-0.5 overflow-auto">
        {steps.map((s, i) => (
          <li key={s.index} className={`flex items-center gap-2 rounded px-1 py-0.5 text-xs ${focused && next === i ? "bg-indigo-50" : ""}`} data-testid={`step-rating-${i + 1}`} data-rating={v[i] && v[i] !== "-" ? v[i] : ""}>
            <a href={`#step-${i + 1}`} className="w-12 shrink-0 text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" tabIndex={-1}>Step {i + 1}</a>
            <code className="min-w-0 flex-1 truncate font-mono text-slate-600" title={s.action ?? undefined}>{s.action ?? "(no action)"}</code>
            <span role="radiogroup" aria-label={`${field.label}, step ${i + 1}`} className="flex gap-0.5">
              {scaleValues(field).map((d) => (
                <label key={d} className={`cursor-pointer rounded px-1.5 py-0.5 tabular-nums ring-1 ${v[i] === d ? "bg-indigo-600 text-white ring-indigo-600" : "ring-slate-200 hover:bg-slate-50"}`}>
                  <input type="radio" className="sr-only" name={`${field.key}-${i}`} checked={v[i] === d} disabled={readOnly} tabIndex={-1} onChange={() => onChange(field.key, setStepChar(value, i, d, steps.length))} aria-label={`Step ${i + 1}: ${d}`} />
                  {d}
                </label>
              ))}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}

/** A per-step value with step `index` set to `char` ("-" = unanswered); as setStepAnswer for any answer character. */
function setStepChar(value: unknown, index: number, char: string, stepCount: number): string {
  return setStepAnswer(value, index, null, stepCount).split("").map((c, i) => (i === index ? char : c)).join("");
}

/**
 * What a key does on a field of these kinds; true when it did something. Scale: its digit picks
 * the value. Multi: an option's key toggles it. Per-step rating: a digit rates the next unrated
 * step, Backspace takes the last rating back.
 */
export function chooseKindByKey(f: LabelField, key: string, current: Values[string] | undefined, onChange: OnChange, stepCount: number): boolean {
  if (f.kind === "scale") {
    if (!scaleValues(f).includes(key)) return false;
    onChange(f.key, key);
    return true;
  }
  if (f.kind === "multi") {
    const o = f.options.find((x) => x.key === key);
    if (!o) return false;
    onChange(f.key, toggleMulti(f, current, o.value));
    return true;
  }
  if (f.kind === "step_rating") {
    if (key === "Backspace") {
      const v = typeof current === "string" ? current : "";
      const last = [...v].findLastIndex((c) => c !== "-");
      if (last >= 0) onChange(f.key, setStepChar(current, last, "-", stepCount));
      return last >= 0;
    }
    if (!scaleValues(f).includes(key)) return false;
    const i = nextUnanswered(current, stepCount);
    if (i !== null) onChange(f.key, setStepChar(current, i, key, stepCount));
    return true;
  }
  return false;
}

/** The keys a field of these kinds answers to (for the keyboard handler's filter). */
export function kindKeys(f: LabelField): string[] {
  if (f.kind === "scale") return scaleValues(f);
  if (f.kind === "multi") return f.options.flatMap((o) => (o.key ? [o.key] : []));
  if (f.kind === "step_rating") return [...scaleValues(f), "Backspace"];
  return [];
}
