// The label form's fields, one fieldset each: choices, yes/no, text, per-step answers, and the
// kinds of field-kinds.tsx. Each field shows its own keys (its legend and each option: "0–3",
// "⇧ 0–3", "v then 0–2"), as lib/annotation/field-hotkeys.ts assigns them; its radios are in the
// Tab order (Tab reaches a field's options, the arrow keys move between them).
import type { RefObject } from "react";
import { describeHotkeys, describeHotkeysForSpeech, optionKeyLabel, type FieldHotkeys } from "@/lib/annotation/field-hotkeys";
import { setStepAnswer, stepAnswers, STEP_ANSWERS, type LabelField, type StepAnswer } from "@/lib/trajectory/label-schema";
import type { Values } from "./draft";
import { chooseKindByKey, MultiChoices, ScaleChoices, StepRatings } from "./field-kinds";

interface Props {
  fields: LabelField[];
  /** Each field's own keys (field-hotkeys.ts), by field key. */
  hotkeys: Map<string, FieldHotkeys>;
  values: Values;
  focused: number;
  readOnly: boolean;
  onFocus: (i: number) => void;
  onChange: (key: string, v: string | boolean | null) => void;
  fieldRefs: RefObject<(HTMLFieldSetElement | null)[]>;
  commentRef: RefObject<HTMLTextAreaElement | null>;
  /** The item's steps (per-step fields answer each). */
  steps: { index: number; action: string | null }[];
}

export function LabelFields({ fields, hotkeys, values, focused, readOnly, onFocus, onChange, fieldRefs, commentRef, steps }: Props) {
  return fields.map((f, i) => (
    <fieldset
      key={f.key}
      ref={(el) => {
        fieldRefs.current[i] = el;
      }}
      tabIndex={-1}
      onFocus={() => onFocus(i)}
      onClick={() => onFocus(i)}
      data-field={f.key}
      data-hotkeys={hotkeys.get(f.key) ? describeHotkeys(hotkeys.get(f.key)!) : undefined}
      data-testid={`field-${f.key}`}
      data-focused={focused === i}
      className={`rounded-lg border p-2.5 outline-none ${focused === i ? "border-indigo-400 ring-2 ring-indigo-100" : "border-slate-200"}`}
    >
      <legend className="px-1 text-sm font-medium text-slate-800">
        {f.label}
        {f.required && <span className="text-rose-600"> *</span>}
        <FieldKeys hotkeys={hotkeys.get(f.key)} />
      </legend>
      {f.help && <p className="mb-1.5 px-1 text-xs text-slate-500">{f.help}</p>}
      {f.kind === "choice" && (
        <div className="space-y-0.5">
          {f.options.map((o) => (
            <label key={o.value} className={`flex cursor-pointer items-center gap-2 rounded px-1.5 py-0.5 text-sm ${values[f.key] === o.value ? "bg-indigo-50 text-indigo-900" : "hover:bg-slate-50"}`}>
              <input type="radio" name={f.key} value={o.value} checked={values[f.key] === o.value} disabled={readOnly} onChange={() => onChange(f.key, o.value)} />
              <kbd className="min-w-4 text-center font-mono text-xs text-slate-600" aria-hidden="true">{optionKeyLabel(hotkeys.get(f.key), o.key)}</kbd>
              <span>{o.label}{o.score !== undefined ? ` (${o.score})` : ""}</span>
            </label>
          ))}
        </div>
      )}
      {f.kind === "boolean" && (
        <div className="flex gap-3 px-1 text-sm">
          {[true, false].map((b) => (
            <label key={String(b)} className={`flex cursor-pointer items-center gap-2 rounded px-1.5 py-0.5 ${values[f.key] === b ? "bg-indigo-50 text-indigo-900" : ""}`}>
              <input type="radio" name={f.key} checked={values[f.key] === b} disabled={readOnly} onChange={() => onChange(f.key, b)} />
              <kbd className="font-mono text-xs text-slate-500" aria-hidden="true">{optionKeyLabel(hotkeys.get(f.key), b ? "y" : "n")}</kbd> {b ? "Yes" : "No"}
            </label>
          ))}
        </div>
      )}
      {f.kind === "scale" && <ScaleChoices field={f} value={values[f.key]} readOnly={readOnly} onChange={onChange} />}
      {f.kind === "multi" && <MultiChoices field={f} value={values[f.key]} readOnly={readOnly} onChange={onChange} />}
      {f.kind === "step_rating" && <StepRatings field={f} value={values[f.key]} steps={steps} readOnly={readOnly} focused={focused === i} onChange={onChange} />}
      {f.kind === "steps" && <StepAnswers fieldKey={f.key} value={values[f.key]} steps={steps} readOnly={readOnly} focused={focused === i} onChange={onChange} />}
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

/** The field's own keys beside its name; screen readers hear them spelled out. */
function FieldKeys({ hotkeys }: { hotkeys: FieldHotkeys | undefined }) {
  if (!hotkeys) return null;
  return (
    <span className="ml-2 align-middle">
      <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono text-[11px] font-normal text-slate-600" aria-hidden="true" data-testid="field-keys">{describeHotkeys(hotkeys)}</kbd>
      <span className="sr-only">, keys {describeHotkeysForSpeech(hotkeys)}</span>
    </span>
  );
}

const ANSWER_CLS: Record<StepAnswer, string> = { y: "bg-emerald-100 text-emerald-900 ring-emerald-300", n: "bg-rose-100 text-rose-900 ring-rose-300", u: "bg-amber-100 text-amber-900 ring-amber-300" };

/** The next step to answer by keyboard: the first unanswered one (null when all are answered). */
function nextStep(value: Values[string] | undefined, stepCount: number): number | null {
  const a = stepAnswers(value);
  for (let i = 0; i < stepCount; i++) if (!a[i]) return i;
  return null;
}

/** One row per step: yes / no / unsure. Keys on the focused field: y n u answer the next step, Backspace takes back the last answer. */
function StepAnswers({ fieldKey, value, steps, readOnly, focused, onChange }: { fieldKey: string; value: Values[string] | undefined; steps: { index: number; action: string | null }[]; readOnly: boolean; focused: boolean; onChange: (key: string, v: string | boolean | null) => void }) {
  const answers = stepAnswers(value);
  const next = nextStep(value, steps.length);
  if (!steps.length) return <p className="px-1 text-xs text-slate-500">This trajectory has no tool steps: nothing to answer.</p>;
  return (
    <>
      <p className="mb-1 px-1 text-xs text-slate-500" data-testid="steps-progress">
        {answers.filter(Boolean).length} of {steps.length} answered{next !== null && !readOnly ? ` · next: step ${next + 1} (y / n / u, Backspace to undo)` : ""}
      </p>
      <ol className="max-h-64 space-y-0.5 overflow-auto">
        {steps.map((s, i) => (
          <li key={s.index} className={`flex items-center gap-2 rounded px-1 py-0.5 text-xs ${focused && next === i ? "bg-indigo-50" : ""}`} data-testid={`step-answer-${i + 1}`} data-answer={answers[i] ?? ""}>
            <a href={`#step-${i + 1}`} className="w-12 shrink-0 text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" tabIndex={-1}>Step {i + 1}</a>
            <code className="min-w-0 flex-1 truncate font-mono text-slate-600" title={s.action ?? undefined}>{s.action ?? "(no action)"}</code>
            <span role="radiogroup" aria-label={`On track before step ${i + 1}`} className="flex gap-1">
              {(Object.keys(STEP_ANSWERS) as StepAnswer[]).map((a) => (
                <label key={a} className={`cursor-pointer rounded px-1.5 py-0.5 ring-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 ${answers[i] === a ? ANSWER_CLS[a] : "ring-slate-200 hover:bg-slate-50"}`} title={STEP_ANSWERS[a]}>
                  <input type="radio" className="sr-only" name={`${fieldKey}-${i}`} checked={answers[i] === a} disabled={readOnly}
                    onChange={() => onChange(fieldKey, setStepAnswer(value, i, a, steps.length))} aria-label={`Step ${i + 1}: ${STEP_ANSWERS[a]}`} />
                  {a}
                </label>
              ))}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}

/** A shortcut key on the focused field: cycles through the choices with that key, sets yes/no, or answers the next step. */
export function chooseByKey(f: LabelField, key: string, current: Values[string] | undefined, onChange: (key: string, v: string | boolean | null) => void, stepCount = 0) {
  if (chooseKindByKey(f, key, current, onChange, stepCount)) return;
  if (f.kind === "steps") {
    if (key === "y" || key === "n" || key === "u") {
      const i = nextStep(current, stepCount);
      if (i !== null) onChange(f.key, setStepAnswer(current, i, key, stepCount));
    } else if (key === "Backspace") {
      const a = stepAnswers(current);
      const last = a.findLastIndex((x) => x !== null);
      if (last >= 0) onChange(f.key, setStepAnswer(current, last, null, stepCount));
    }
    return;
  }
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
