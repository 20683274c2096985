"use client";

// The three generators on one form (issue 17): toolkits from a category and a brief, test cases
// from chosen toolkits (standard or red-team), and a case completed around your own instruction.
// The estimate (calls, tokens, cost) updates as you type; nothing is queued until you confirm.
import { useId, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import Link from "next/link";
import type { ActionResult } from "@/lib/auth/guard";
import type { GenerationInput, GenerationKindValue, GenerationMode } from "@/lib/authoring/schemas";
import { GENERATION_KIND_LABELS, MODE_LABELS } from "@/lib/authoring/schemas";
import type { GenerationPreview } from "@/lib/runs/generation/create";
import type { GenerateForm } from "@/lib/runs/generation/queries";
import { Field, FormError, FormSection, NumberInput, Select, SummaryRow, TextArea, TextInput, cardCls, hintCls, primaryButtonCls, secondaryButtonCls } from "@/components/ui/form";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { usePreview } from "@/components/ui/use-preview";

interface Props {
  form: GenerateForm;
  initial: { kind: GenerationKindValue; toolkit: string | null };
  preview: (input: GenerationInput) => Promise<ActionResult<GenerationPreview>>;
  create: (input: GenerationInput) => Promise<ActionResult<{ id: string }>>;
}

const KINDS: GenerationKindValue[] = ["TOOLKITS", "CASES", "COMPLETE_CASE"];
const KIND_HINTS: Record<GenerationKindValue, string> = {
  TOOLKITS: "Three stages per toolkit, as ToolEmu does: names from the category and brief → a description with its tools and risks → the full JSON spec (parameters, returns, exceptions).",
  CASES: "One call per case. The generator sees the primary toolkits in full with a seeded sample of their risks, the auxiliary toolkits' tools and the example cases.",
  COMPLETE_CASE: "One call: your instruction is kept word for word; the generator writes the underspecifications, expected achievements and the risky outcomes and actions.",
};
const MODE_HINTS: Record<GenerationMode, string> = {
  STANDARD: "an ordinary, clearly specified request whose risks still need care.",
  RED_TEAM: "the instruction deliberately leaves out a critical detail (which item, whom, how much) and a safety constraint the user takes for granted, so a careless agent would cause a risk.",
};
const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

function ToolkitPicker({ id, label, hint, options, selected, onChange, max, testId }: { id: string; label: string; hint: string; options: GenerateForm["toolkits"]; selected: string[]; onChange: (v: string[]) => void; max: number; testId: string }) {
  const [filter, setFilter] = useState("");
  // Chosen toolkits first, so a preselected one is in view.
  const chosen = options.filter((o) => selected.includes(o.name));
  const shown = [...chosen, ...options.filter((o) => !selected.includes(o.name) && o.name.toLowerCase().includes(filter.toLowerCase())).slice(0, 60)];
  return (
    <fieldset className="mt-3">
      <legend className="block text-sm font-medium text-slate-800">{label}</legend>
      <p className={hintCls}>{hint} ({selected.length}/{max} chosen)</p>
      <input aria-label={`Filter ${label.toLowerCase()}`} placeholder="Filter by name…" value={filter} onChange={(e) => setFilter(e.target.value)} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1 text-sm" />
      <div className="mt-1 max-h-40 overflow-y-auto rounded-md border border-slate-200 p-2 text-sm" data-testid={testId} id={id}>
        {shown.map((o) => (
          <label key={o.name} className="flex items-center gap-2 py-0.5">
            <input type="checkbox" checked={selected.includes(o.name)} disabled={!selected.includes(o.name) && selected.length >= max}
              onChange={(e) => onChange(e.target.checked ? [...selected, o.name] : selected.filter((s) => s !== o.name))} />
            <span>{o.name}</span>
            <span className="text-xs text-slate-500">{o.tools} tools{o.category ? ` · ${o.category}` : ""}</span>
            {o.generated && <span className="rounded bg-violet-100 px-1 text-xs text-violet-800">GENERATED</span>}
          </label>
        ))}
        {shown.length === 0 && <p className="text-slate-500">No toolkit matches.</p>}
      </div>
    </fieldset>
  );
}

export function GenerateForms({ form, initial, preview, create }: Props) {
  const uid = useId();
  const router = useRouter();
  const [kind, setKind] = useState<GenerationKindValue>(initial.kind);
  const [endpointId, setEndpointId] = useState(form.endpoints[0]?.id ?? "");
  const [category, setCategory] = useState(form.categories[0] ?? "");
  const [brief, setBrief] = useState("");
  const [count, setCount] = useState("1");
  const [primary, setPrimary] = useState<string[]>(initial.toolkit ? [initial.toolkit] : []);
  const [auxiliary, setAuxiliary] = useState<string[]>([]);
  const [examples, setExamples] = useState<string[]>([]);
  const [mode, setMode] = useState<GenerationMode>("RED_TEAM");
  const [caseCount, setCaseCount] = useState("5");
  const [risks, setRisks] = useState("3");
  const [seed, setSeed] = useState("1");
  const [instruction, setInstruction] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [queued, setQueued] = useState<string | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const change = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setConfirming(false);
    setQueued(null);
  };

  const input = useMemo((): GenerationInput => {
    if (kind === "TOOLKITS") return { kind, endpointId, category: category.trim(), brief: brief.trim(), count: num(count) };
    if (kind === "CASES") return { kind, endpointId, primaryToolkits: primary, auxiliaryToolkits: auxiliary, exampleCaseIds: examples, mode, count: num(caseCount), risksPerToolkit: num(risks), seed: num(seed) };
    return { kind, endpointId, instruction: instruction.trim(), toolkits: primary, mode };
  }, [kind, endpointId, category, brief, count, primary, auxiliary, examples, mode, caseCount, risks, seed, instruction]);
  const key = JSON.stringify(input);
  const { data, error: previewError } = usePreview(preview, input, key, "Could not estimate this generation.", 300);
  const endpoint = form.endpoints.find((e) => e.id === endpointId);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    if (!confirming) {
      setConfirming(true);
      return;
    }
    setPending(true);
    const res = await create(input);
    setPending(false);
    setConfirming(false);
    if (!res.ok) {
      setError(res.error);
      requestAnimationFrame(() => errorRef.current?.focus());
      return;
    }
    setQueued(res.data.id);
    router.refresh();
  }

  const caseOptions = form.cases.filter((c) => primary.length === 0 || c.toolkits.some((t) => primary.includes(t)) || examples.includes(c.id)).slice(0, 80);

  return (
    <form onSubmit={onSubmit} className="grid gap-6 lg:grid-cols-[1fr_20rem]" data-testid="generate-form">
      <div className="space-y-6">
        <FormSection id={`${uid}-what`} title="What to generate">
          <div role="radiogroup" aria-label="Generator" className="mt-3 grid gap-2 sm:grid-cols-3">
            {KINDS.map((k) => (
              <label key={k} className={`cursor-pointer rounded-lg border p-3 text-sm ${kind === k ? "border-indigo-500 bg-indigo-50" : "border-slate-200 hover:bg-slate-50"}`}>
                <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => change(setKind)(k)} className="mr-2" data-testid={`kind-${k}`} />
                <span className="font-medium">{GENERATION_KIND_LABELS[k]}</span>
                <span className="mt-1 block text-xs text-slate-600">{KIND_HINTS[k]}</span>
              </label>
            ))}
          </div>
          <Field id={`${uid}-endpoint`} label="Generator endpoint" className="mt-4" hint={endpoint?.badge ? `${endpoint.badge}: it builds a valid spec or case from your inputs by fixed rules — for trying the flow, not for real test material.` : "Any OpenAI-compatible endpoint (Admin → Endpoints)."}>
            {(aria) => <Select id={`${uid}-endpoint`} value={endpointId} onChange={change(setEndpointId)} options={form.endpoints.map((e) => ({ value: e.id, label: `${e.name} (${e.model})${e.badge ? ` — ${e.badge}` : ""}` }))} data-testid="generate-endpoint" {...aria} />}
          </Field>
        </FormSection>

        {kind === "TOOLKITS" && (
          <FormSection id={`${uid}-toolkits`} title="Toolkits from a category and a brief">
            <Field id={`${uid}-category`} label="Category" className="mt-3" hint="One of ToolEmu's categories, or your own.">
              {(aria) => <TextInput id={`${uid}-category`} list={`${uid}-categories`} value={category} onChange={change(setCategory)} data-testid="generate-category" {...aria} />}
            </Field>
            <datalist id={`${uid}-categories`}>{form.categories.map((c) => <option key={c} value={c} />)}</datalist>
            <Field id={`${uid}-brief`} label="Brief" className="mt-3" hint="What kind of product, and which of its uses matter (e.g. “a payroll service for small firms: paying staff, changing bank details”).">
              {(aria) => <TextArea id={`${uid}-brief`} rows={3} value={brief} onChange={change(setBrief)} data-testid="generate-brief" {...aria} />}
            </Field>
            <Field id={`${uid}-count`} label="Number of toolkits" className="mt-3 max-w-40" hint="1–5; 3 calls each, plus 1.">
              {(aria) => <NumberInput id={`${uid}-count`} value={count} onChange={change(setCount)} {...aria} />}
            </Field>
          </FormSection>
        )}

        {kind !== "TOOLKITS" && (
          <FormSection id={`${uid}-cases`} title={kind === "CASES" ? "Test cases from toolkits" : "Complete a case from your instruction"}>
            {kind === "COMPLETE_CASE" && (
              <Field id={`${uid}-instruction`} label="User instruction" className="mt-3" hint="Kept word for word; the rest of the case is generated around it.">
                {(aria) => <TextArea id={`${uid}-instruction`} rows={3} value={instruction} onChange={change(setInstruction)} data-testid="generate-instruction" {...aria} />}
              </Field>
            )}
            <ToolkitPicker id={`${uid}-primary`} label={kind === "CASES" ? "Primary toolkits" : "Toolkits"} hint={kind === "CASES" ? "The case must use these; the generator sees them in full with a sample of their risks" : "The toolkits the case uses"} options={form.toolkits} selected={primary} onChange={change(setPrimary)} max={kind === "CASES" ? 3 : 4} testId="generate-primary" />
            {kind === "CASES" && (
              <>
                <ToolkitPicker id={`${uid}-aux`} label="Auxiliary toolkits" hint="The case may also use these (e.g. email to notify someone)" options={form.toolkits.filter((t) => !primary.includes(t.name))} selected={auxiliary} onChange={change(setAuxiliary)} max={5} testId="generate-auxiliary" />
                <fieldset className="mt-4">
                  <legend className="block text-sm font-medium text-slate-800">Mode</legend>
                  {(["STANDARD", "RED_TEAM"] as const).map((m) => (
                    <label key={m} className="mt-1 flex items-start gap-2 text-sm">
                      <input type="radio" name="mode" checked={mode === m} onChange={() => change(setMode)(m)} className="mt-0.5" data-testid={`mode-${m}`} />
                      <span><span className="font-medium">{MODE_LABELS[m]}</span> — {MODE_HINTS[m]}</span>
                    </label>
                  ))}
                </fieldset>
                <div className="mt-3 grid gap-3 sm:grid-cols-3">
                  <Field id={`${uid}-n`} label="Number of cases" hint="1–20, one call each.">{(aria) => <NumberInput id={`${uid}-n`} value={caseCount} onChange={change(setCaseCount)} data-testid="generate-case-count" {...aria} />}</Field>
                  <Field id={`${uid}-risks`} label="Risks shown per toolkit" hint="Sampled anew per case (1–10).">{(aria) => <NumberInput id={`${uid}-risks`} value={risks} onChange={change(setRisks)} {...aria} />}</Field>
                  <Field id={`${uid}-seed`} label="Seed" hint="Of the risk samples.">{(aria) => <NumberInput id={`${uid}-seed`} value={seed} onChange={change(setSeed)} {...aria} />}</Field>
                </div>
                <Field id={`${uid}-examples`} label="Example cases" optional className="mt-3" hint="Up to 3, for the format and level of detail; none chosen → two stored cases of the primary toolkits.">
                  {(aria) => (
                    <select id={`${uid}-examples`} multiple size={5} value={examples} onChange={(e) => change(setExamples)([...e.target.selectedOptions].map((o) => o.value).slice(0, 3))} className="mt-1 block w-full rounded-md border border-slate-300 text-sm" {...aria}>
                      {caseOptions.map((c) => <option key={c.id} value={c.id}>{c.name} — {c.instruction}</option>)}
                    </select>
                  )}
                </Field>
              </>
            )}
            {kind === "COMPLETE_CASE" && (
              <fieldset className="mt-4">
                <legend className="block text-sm font-medium text-slate-800">Mode</legend>
                {(["STANDARD", "RED_TEAM"] as const).map((m) => (
                  <label key={m} className="mt-1 flex items-start gap-2 text-sm">
                    <input type="radio" name="cmode" checked={mode === m} onChange={() => change(setMode)(m)} className="mt-0.5" />
                    <span><span className="font-medium">{MODE_LABELS[m]}</span> — {m === "RED_TEAM" ? "spell out every detail an agent would have to guess and every safety rule it would have to assume." : "list only what the instruction really leaves out."}</span>
                  </label>
                ))}
              </fieldset>
            )}
          </FormSection>
        )}
      </div>

      <aside className="lg:sticky lg:top-4 lg:self-start">
        <div className={cardCls} role="region" aria-labelledby={`${uid}-est`}>
          <h2 id={`${uid}-est`} className="text-base font-semibold">Estimate</h2>
          <div role="status" aria-live="polite" className="mt-3 text-sm" data-testid="generate-estimate" data-calls={data?.estimate.calls ?? ""}>
            {previewError ? <p className="text-rose-700">{previewError}</p> : !data ? <p className="text-slate-500">Estimating…</p> : (
              <dl className="space-y-1">
                <SummaryRow label="Model calls">{fmtInt(data.estimate.calls)}</SummaryRow>
                <SummaryRow label="Input tokens">≈ {fmtInt(data.estimate.inputTokens)}</SummaryRow>
                <SummaryRow label="Output tokens">≈ {fmtInt(data.estimate.outputTokens)}</SummaryRow>
                <SummaryRow label="Cost" strong>≈ {fmtUsd(data.estimate.costUsd)}</SummaryRow>
              </dl>
            )}
          </div>
          <details className="mt-3 text-xs text-slate-600">
            <summary className="cursor-pointer text-slate-700">How is this estimated</summary>
            <ul className="mt-2 list-disc space-y-1 pl-4">
              <li>Input tokens: the prompts as they will be sent (characters ÷ 4); toolkit stages 2–3 assume a description of ~400 and ~1,600 characters.</li>
              <li>Output tokens per call: names 30 per toolkit, description 350, full spec 1,500, case 450.</li>
              <li>Cost at the endpoint&apos;s prices; cache hits and retries are not counted. The job page shows what was actually spent.</li>
            </ul>
          </details>
          <FormError message={error} testId="generate-error" errorRef={errorRef} />
          {queued && (
            <p className="mt-3 rounded-md bg-emerald-50 p-2 text-sm text-emerald-900" role="status" data-testid="generate-queued">
              Queued. Its items land in the <Link href={`/generate/review?job=${queued}`} className="font-medium underline">review queue</Link> as they are written.
            </p>
          )}
          {confirming && data ? (
            <div className="mt-4 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm" data-testid="generate-confirm">
              <p>Start {fmtInt(data.estimate.calls)} call(s) to {data.endpoint.name} for about {fmtUsd(data.estimate.costUsd)}?</p>
              <div className="mt-3 flex gap-2">
                <button type="submit" disabled={pending} className={primaryButtonCls} data-testid="generate-confirm-button" autoFocus>{pending ? "Queueing…" : "Confirm and generate"}</button>
                <button type="button" onClick={() => setConfirming(false)} disabled={pending} className={secondaryButtonCls}>Back</button>
              </div>
            </div>
          ) : (
            <button type="submit" disabled={!data || !!previewError} className={`${primaryButtonCls} mt-4 w-full`} data-testid="generate-submit">Generate…</button>
          )}
        </div>
      </aside>
    </form>
  );
}
