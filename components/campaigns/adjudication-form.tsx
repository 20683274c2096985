"use client";

// The adjudicated label of one item: every field of the campaign's label form plus a reason.
// It is stored beside the annotators' labels, never over them. Native radio groups, so arrow
// keys move within a field and Tab between fields.
import { useId, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import { scaleValues, type LabelField, type LabelSchema, type LabelValues } from "@/lib/trajectory/label-schema";

type Value = string | boolean | null;
type Adjudicate = (input: { itemId: string; values: Record<string, Value>; reason: string }) => Promise<ActionResult<{ id: string }>>;

interface Props {
  itemId: string;
  schema: LabelSchema;
  /** The existing adjudication, to revise it. */
  initial: { values: LabelValues; reason: string } | null;
  /** Submitted labels an adjudicator may start from. */
  sources: { assignmentId: string; annotator: string; values: LabelValues }[];
  adjudicate: Adjudicate;
}

function normalise(schema: LabelSchema, values: LabelValues | undefined): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const f of schema.fields) {
    const v = values?.[f.key];
    out[f.key] = v === undefined ? null : v;
  }
  return out;
}

function missing(f: LabelField, v: Value): boolean {
  if (!f.required) return false;
  if (f.kind === "boolean") return typeof v !== "boolean";
  if (f.kind === "choice") return typeof v !== "string" || !f.options.some((o) => o.value === v);
  return typeof v !== "string";
}

export function AdjudicationForm({ itemId, schema, initial, sources, adjudicate }: Props) {
  const router = useRouter();
  const uid = useId();
  const [values, setValues] = useState<Record<string, Value>>(() => normalise(schema, initial?.values));
  const [reason, setReason] = useState(initial?.reason ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const messageRef = useRef<HTMLParagraphElement>(null);

  const set = (key: string, v: Value) => {
    setValues((prev) => ({ ...prev, [key]: v }));
    setErrors((prev) => {
      if (!prev[key]) return prev;
      const { [key]: _drop, ...rest } = prev;
      return rest;
    });
  };

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const found: Record<string, string> = {};
    for (const f of schema.fields) if (missing(f, values[f.key] ?? null)) found[f.key] = f.kind === "boolean" ? "Answer yes or no." : "Choose one.";
    if (!reason.trim()) found.__reason = "Give a reason for the adjudicated label.";
    setErrors(found);
    if (Object.keys(found).length) {
      setMessage({ kind: "error", text: `Please complete ${Object.keys(found).length === 1 ? "one field" : `${Object.keys(found).length} fields`} marked below.` });
      requestAnimationFrame(() => messageRef.current?.focus());
      return;
    }
    startTransition(async () => {
      setMessage(null);
      const payload: Record<string, Value> = {};
      for (const f of schema.fields) {
        const v = values[f.key] ?? null;
        payload[f.key] = f.kind === "text" && typeof v === "string" && !v.trim() && !f.required ? null : v;
      }
      const res = await adjudicate({ itemId, values: payload, reason });
      if (res.ok) {
        setMessage({ kind: "ok", text: initial ? "Adjudicated label updated. The annotators' labels are unchanged." : "Adjudicated label saved. The annotators' labels are unchanged." });
        router.refresh();
      } else {
        setMessage({ kind: "error", text: res.error });
        requestAnimationFrame(() => messageRef.current?.focus());
      }
    });
  }

  const errId = (key: string) => `${uid}-${key}-error`;
  const radio = "peer sr-only";
  const pill = "flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-800 hover:bg-slate-50 peer-checked:border-indigo-600 peer-checked:bg-indigo-600 peer-checked:text-white peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-1 peer-focus-visible:outline-indigo-500";

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Adjudicated label" className="space-y-5 rounded-xl border border-indigo-200 bg-white p-5 shadow-sm" data-testid="adjudication-form">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold">{initial ? "Revise the adjudicated label" : "Record the adjudicated label"}</h2>
        {sources.length > 0 && (
          <div className="flex flex-wrap items-center gap-2 text-xs" role="group" aria-label="Start from a submitted label">
            <span className="text-slate-500">Start from:</span>
            {sources.map((s) => (
              <button key={s.assignmentId} type="button" onClick={() => { setValues(normalise(schema, s.values)); setErrors({}); }}
                className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-50">{s.annotator}</button>
            ))}
            <button type="button" onClick={() => setValues(normalise(schema, undefined))} className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100">Clear</button>
          </div>
        )}
      </div>

      <div className="grid gap-x-8 gap-y-5 xl:grid-cols-2">
        {schema.fields.map((f) => {
          const v = values[f.key] ?? null;
          const err = errors[f.key];
          const described = [f.help ? `${uid}-${f.key}-help` : null, err ? errId(f.key) : null].filter(Boolean).join(" ") || undefined;
          const legend = (
            <legend id={`${uid}-${f.key}-legend`} className="text-sm font-medium text-slate-800">
              {f.label}
              {f.required ? <span className="ml-0.5 text-rose-600" aria-hidden="true">*</span> : <span className="ml-1 text-xs font-normal text-slate-500">(optional)</span>}
            </legend>
          );
          const help = f.help ? <p id={`${uid}-${f.key}-help`} className="mt-0.5 text-xs text-slate-500">{f.help}</p> : null;
          const errorText = err ? <p id={errId(f.key)} className="mt-1 text-xs text-rose-700">{err}</p> : null;
          if (f.kind === "text") {
            return (
              <div key={f.key} className="xl:col-span-2">
                <label htmlFor={`${uid}-${f.key}`} className="text-sm font-medium text-slate-800">
                  {f.label}{!f.required && <span className="ml-1 text-xs font-normal text-slate-500">(optional)</span>}
                </label>
                {help}
                <textarea id={`${uid}-${f.key}`} value={typeof v === "string" ? v : ""} onChange={(e) => set(f.key, e.target.value)} maxLength={f.maxLength} rows={3} required={f.required}
                  aria-describedby={described} aria-invalid={!!err} className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm" data-testid={`adjudicate-${f.key}`} />
                {errorText}
              </div>
            );
          }
          if (f.kind === "steps" || f.kind === "step_rating" || f.kind === "multi") {
            // Per-step and multiple-choice fields are typed in their stored form (lib/trajectory/label-schema.ts).
            const hint = f.kind === "steps" ? "One letter per step, in order: y yes, n no, u unsure (e.g. yyn for three steps)." : f.kind === "step_rating" ? `One digit ${f.min}–${f.max} per step, in order (e.g. ${f.min}${f.max}${f.min} for three steps).` : `The chosen values separated by | (${f.options.map((o) => o.value).join(", ")}).`;
            const keep = f.kind === "steps" ? (x: string) => x.toLowerCase().replace(/[^ynu]/g, "") : f.kind === "step_rating" ? (x: string) => x.replace(new RegExp(`[^${f.min}-${f.max}]`, "g"), "") : (x: string) => x;
            return (
              <div key={f.key} className="xl:col-span-2">
                <label htmlFor={`${uid}-${f.key}`} className="text-sm font-medium text-slate-800">
                  {f.label}{!f.required && <span className="ml-1 text-xs font-normal text-slate-500">(optional)</span>}
                </label>
                {help}
                <p className="mt-0.5 text-xs text-slate-500">{hint}</p>
                <input id={`${uid}-${f.key}`} value={typeof v === "string" ? v : ""} onChange={(e) => set(f.key, keep(e.target.value))} required={f.required}
                  aria-describedby={described} aria-invalid={!!err} className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 font-mono text-sm" data-testid={`adjudicate-${f.key}`} />
                {errorText}
              </div>
            );
          }
          const options = f.kind === "boolean" ? [{ value: true, label: "Yes" }, { value: false, label: "No" }] : f.kind === "scale" ? scaleValues(f).map((x) => ({ value: x, label: x })) : f.options.map((o) => ({ value: o.value, label: o.score !== undefined ? `${o.label} (${o.score})` : o.label }));
          return (
            <fieldset key={f.key} className={f.kind === "choice" && f.options.length > 4 ? "xl:col-span-2" : undefined} role="radiogroup" aria-labelledby={`${uid}-${f.key}-legend`} aria-describedby={described} aria-invalid={!!err} aria-required={f.required} data-testid={`adjudicate-${f.key}`}>
              {legend}
              {help}
              <div className="mt-2 flex flex-wrap gap-2">
                {options.map((o) => {
                  const id = `${uid}-${f.key}-${String(o.value)}`;
                  return (
                    <div key={String(o.value)}>
                      <input type="radio" id={id} name={`${uid}-${f.key}`} className={radio} checked={v === o.value} onChange={() => set(f.key, o.value)} required={f.required} />
                      <label htmlFor={id} className={pill}>{o.label}</label>
                    </div>
                  );
                })}
              </div>
              {errorText}
            </fieldset>
          );
        })}
      </div>

      <div>
        <label htmlFor={`${uid}-reason`} className="text-sm font-medium text-slate-800">Reason<span className="ml-0.5 text-rose-600" aria-hidden="true">*</span></label>
        <p id={`${uid}-reason-help`} className="mt-0.5 text-xs text-slate-500">Why this is the label: which annotator was right, what they missed. Kept with the adjudication and in the audit log.</p>
        <textarea id={`${uid}-reason`} value={reason} onChange={(e) => { setReason(e.target.value); setErrors(({ __reason: _r, ...rest }) => rest); }} rows={4} maxLength={5000} required
          aria-describedby={`${uid}-reason-help${errors.__reason ? ` ${errId("reason")}` : ""}`} aria-invalid={!!errors.__reason}
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm" data-testid="adjudicate-reason" />
        {errors.__reason && <p id={errId("reason")} className="mt-1 text-xs text-rose-700">{errors.__reason}</p>}
      </div>

      {message && (
        <p ref={messageRef} tabIndex={-1} role={message.kind === "error" ? "alert" : "status"} data-testid="adjudication-message"
          className={`rounded-md px-3 py-2 text-sm focus:outline-none ${message.kind === "ok" ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-700"}`}>{message.text}</p>
      )}
      <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60" data-testid="adjudicate-submit">
        {pending ? "Saving…" : initial ? "Update adjudicated label" : "Save adjudicated label"}
      </button>
    </form>
  );
}
