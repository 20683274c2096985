// Form building blocks: a card section, a labelled field with hint and error, and the input,
// select, number and checkbox controls every form uses. No hooks: server or client.
//
//   <FormSection title="About">
//     <Field id={id} label="Name" hint="Shown to annotators." error={errors.name}>
//       {(aria) => <TextInput id={id} value={name} onChange={setName} {...aria} />}
//     </Field>
//   </FormSection>
//
// Field hands its control the aria props (aria-describedby for the hint and the error,
// aria-invalid when there is an error), so every control gets them the same way.
import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

export const inputCls =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 aria-[invalid=true]:border-rose-400";
export const labelCls = "block text-sm font-medium text-slate-800";
export const smallLabelCls = "block text-xs font-medium text-slate-700";
export const hintCls = "mt-1 text-xs text-slate-500";
export const cardCls = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";
export const primaryButtonCls = "rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60";
export const secondaryButtonCls = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50";

/** A card with an h2 heading; the section is labelled by it. */
export function FormSection({ id, title, description, children, className = "" }: { id: string; title: string; description?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`${cardCls} ${className}`} aria-labelledby={id}>
      <h2 id={id} className="text-base font-semibold">{title}</h2>
      {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      {children}
    </section>
  );
}

export interface FieldAria {
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

interface FieldProps {
  id: string;
  label: ReactNode;
  /** "(optional)" after the label. */
  optional?: boolean;
  /** Screen-reader-only label (rows of pickers). */
  srOnlyLabel?: boolean;
  small?: boolean;
  /** Under the control, or above it with hintFirst. */
  hint?: ReactNode;
  hintFirst?: boolean;
  /** Messages shown under the control; the control is marked invalid. */
  error?: string[] | string | null;
  className?: string;
  children: (aria: FieldAria) => ReactNode;
}

export function Field({ id, label, optional, srOnlyLabel, small, hint, hintFirst, error, className, children }: FieldProps) {
  const errors = (Array.isArray(error) ? error : error ? [error] : []).filter(Boolean);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors.length ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  const hintEl = hint && <p id={hintId} className={hintCls}>{hint}</p>;
  return (
    <div className={className}>
      <label htmlFor={id} className={srOnlyLabel ? "sr-only" : small ? smallLabelCls : labelCls}>
        {label}
        {optional && <span className="font-normal text-slate-500"> (optional)</span>}
      </label>
      {hintFirst && hintEl}
      {children({ ...(describedBy ? { "aria-describedby": describedBy } : {}), ...(errors.length ? { "aria-invalid": true as const } : {}) })}
      {!hintFirst && hintEl}
      {errors.length > 0 && <p id={errorId} className="mt-1 text-xs text-rose-700">{errors.join(" ")}</p>}
    </div>
  );
}

type Native<E> = Omit<E, "onChange" | "value">;

export function TextInput({ value, onChange, className = "", ...rest }: Native<InputHTMLAttributes<HTMLInputElement>> & { value: string; onChange: (v: string) => void }) {
  return <input {...rest} value={value} onChange={(e) => onChange(e.target.value)} className={`${inputCls} ${className}`} />;
}

/** A number typed as text (so a half-typed value stays as typed); the form parses it. */
export function NumberInput({ value, onChange, className = "", decimal, ...rest }: Native<InputHTMLAttributes<HTMLInputElement>> & { value: string; onChange: (v: string) => void; decimal?: boolean }) {
  return <input inputMode={decimal ? "decimal" : "numeric"} {...rest} value={value} onChange={(e) => onChange(e.target.value)} className={`${inputCls} ${className}`} />;
}

export function TextArea({ value, onChange, className = "", ...rest }: Native<TextareaHTMLAttributes<HTMLTextAreaElement>> & { value: string; onChange: (v: string) => void }) {
  return <textarea {...rest} value={value} onChange={(e) => onChange(e.target.value)} className={`${inputCls} ${className}`} />;
}

export interface SelectOption {
  value: string;
  label: string;
  title?: string;
}

export function Select({ value, onChange, options, empty, className = "", ...rest }: Native<SelectHTMLAttributes<HTMLSelectElement>> & { value: string; onChange: (v: string) => void; options: SelectOption[]; empty?: string }) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.target.value)} className={`${inputCls} ${className}`}>
      {empty !== undefined && <option value="">{empty}</option>}
      {options.map((o) => <option key={o.value} value={o.value} title={o.title}>{o.label}</option>)}
    </select>
  );
}

/** A checkbox with its label and an optional line of description under it. */
export function Checkbox({ checked, onChange, label, description, testId, disabled, className = "mt-2 flex items-start gap-2 text-sm", ariaLabel }: { checked: boolean; onChange: (v: boolean) => void; label: ReactNode; description?: ReactNode; testId?: string; disabled?: boolean; className?: string; ariaLabel?: string }) {
  return (
    <label className={className}>
      <input type="checkbox" className={description ? "mt-0.5" : undefined} checked={checked} onChange={(e) => onChange(e.target.checked)} disabled={disabled} data-testid={testId} aria-label={ariaLabel} />
      {description ? <span>{label}<span className="block text-xs text-slate-500">{description}</span></span> : label}
    </label>
  );
}

/** A row of checkboxes over a set of values (modes, kinds, toolkits). */
export function CheckboxSet<V extends string>({ values, selected, onChange, label, testId, className = "flex items-center gap-2" }: { values: readonly V[]; selected: Set<V>; onChange: (next: Set<V>) => void; label: (v: V) => ReactNode; testId?: (v: V) => string; className?: string }) {
  return (
    <>
      {values.map((v) => (
        <label key={v} className={className}>
          <input type="checkbox" checked={selected.has(v)} data-testid={testId?.(v)} onChange={(e) => {
            const next = new Set(selected);
            if (e.target.checked) next.add(v);
            else next.delete(v);
            onChange(next);
          }} />
          {label(v)}
        </label>
      ))}
    </>
  );
}

/** The form-level error: focusable so a refused submit can move focus to it. */
export function FormError({ message, testId, errorRef, className = "mt-3 rounded-md bg-rose-50 p-2 text-sm text-rose-800" }: { message: string | null; testId: string; errorRef?: Ref<HTMLParagraphElement>; className?: string }) {
  if (!message) return null;
  return <p ref={errorRef} tabIndex={-1} role="alert" className={className} data-testid={testId}>{message}</p>;
}

/** One "label … value" line of a summary list (dl). */
export function SummaryRow({ label, children, strong, muted, testId, className = "" }: { label: ReactNode; children: ReactNode; strong?: boolean; muted?: boolean; testId?: string; className?: string }) {
  return (
    <div className={`flex justify-between ${strong ? "font-semibold" : ""} ${muted ? "text-xs text-slate-500" : ""} ${className}`}>
      <dt className={strong || muted ? undefined : "text-slate-600"}>{label}</dt>
      <dd className="tabular-nums" data-testid={testId}>{children}</dd>
    </div>
  );
}
