"use client";

// The critic replay form: the selection it was opened with, the critic endpoint, the methods
// (InferAct and its baselines), τ and each method's settings, with the live estimate (checkpoints,
// calls per method, tokens, cost) beside it and a confirmation that repeats the figures.
import { useId, useMemo, useState } from "react";
import Link from "next/link";
import type { ActionResult } from "@/lib/auth/guard";
import type { CriticRunInput } from "@/lib/runs/critic/schemas";
import type { CriticRunPreview } from "@/lib/runs/critic/create";
import type { CriticRunForm as Form } from "@/lib/runs/critic/queries";
import { CRITIC_AGGREGATIONS, CRITIC_METHOD_LABELS, type CriticAggregation, type CriticMethodName } from "@/lib/critic/settings";
import { Checkbox, CheckboxSet, Field, FormSection, NumberInput, Select, SummaryRow, TextInput, hintCls, labelCls } from "@/components/ui/form";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { usePreview } from "@/components/ui/use-preview";
import { EndpointSelect } from "./form/endpoint-select";
import { EstimateAside, EstimateFigures } from "./form/estimate-aside";
import { useConfirmSubmit } from "./form/use-confirm-submit";

interface Props {
  form: Form;
  createRun: (input: CriticRunInput) => Promise<ActionResult<{ id: string; units: number }>>;
  previewRun: (input: CriticRunInput) => Promise<ActionResult<CriticRunPreview>>;
}

const METHOD_HINTS: Record<CriticMethodName, string> = {
  INFERACT: "infer 3 tasks from the actions, then find the real one among them (options A–E) in both orders; 3 calls per checkpoint.",
  STANDARD: "one call: is the agent on track — correct / incorrect with a confidence.",
  SELF_CONSISTENCY: "m samples of the standard question at the sampling temperature; the share voting correct.",
  MULTI_STEP: "one call: a probability per step, folded by the aggregation.",
};
const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

export function CriticRunForm({ form, createRun, previewRun }: Props) {
  const uid = useId();
  const d = form.defaults;
  const [name, setName] = useState("");
  const [endpointId, setEndpointId] = useState(form.endpoints[0]!.id);
  const [methods, setMethods] = useState<Set<CriticMethodName>>(new Set(["INFERACT"]));
  const [tau, setTau] = useState(String(d.tau));
  const [orderAveraging, setOrderAveraging] = useState(d.orderAveraging);
  const [mask, setMask] = useState(d.maskInstructionStrings);
  const [samples, setSamples] = useState(String(d.samples));
  const [sampleTemperature, setSampleTemperature] = useState(String(d.sampleTemperature));
  const [aggregation, setAggregation] = useState<CriticAggregation>(d.aggregation);
  const endpoint = form.endpoints.find((e) => e.id === endpointId)!;

  const payload: CriticRunInput = useMemo(() => ({
    ...(name.trim() ? { name: name.trim() } : {}),
    trajectories: form.selection,
    endpointId,
    methods: form.methods.filter((m) => methods.has(m)),
    settings: { inferredTasks: 3, orderAveraging, maskInstructionStrings: mask, samples: num(samples), sampleTemperature: num(sampleTemperature), aggregation, tau: num(tau) },
  }), [name, form.selection, form.methods, endpointId, methods, orderAveraging, mask, samples, sampleTemperature, aggregation, tau]);
  const previewKey = JSON.stringify({ ...payload, name: "" });
  const { data, error: previewError } = usePreview(previewRun, payload, previewKey, "Could not estimate the replay.", 250);
  const submitState = useConfirmSubmit(() => createRun(payload));
  const { onSubmit, wrap } = submitState;
  const has = (m: CriticMethodName) => methods.has(m);

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Critic replay" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" data-testid="critic-run-form">
      <div className="min-w-0 space-y-6">
        <FormSection id={`${uid}-sel`} title="Trajectories">
          <p className="mt-1 text-sm text-slate-700" data-testid="critic-selection">
            <strong className="tabular-nums">{fmtInt(form.trajectories)}</strong> — {form.description}
            {form.running > 0 && <span className="text-slate-500"> ({form.running} still being played are left out)</span>}
          </p>
          <p className={hintCls}><Link href={form.backHref} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Change the selection</Link> on the page it came from (filter the trajectory list, then “Critic replay…”).</p>
        </FormSection>

        <FormSection id={`${uid}-critic`} title="Critic" description="Checkpoints are the calls of critical tools (the toolkit's risk metadata, curated or by the default rule, plus the case's own) and the final answer.">
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field id={`${uid}-endpoint`} label="Endpoint" hint={`Temperature ${endpoint.temperature} (InferAct's calls ask for 0); response cache ${endpoint.cacheEnabled ? "on" : "off"}.`}>
              {(aria) => <EndpointSelect id={`${uid}-endpoint`} endpoints={form.endpoints} value={endpointId} onChange={wrap(setEndpointId)} testId="critic-endpoint" aria={aria} />}
            </Field>
            <Field id={`${uid}-tau`} label="τ (threshold)" hint="A checkpoint passes iff its probability is above τ; at or below, it is flagged. The dashboard sweeps every τ; this one decides the run page's counts and the timeline's flags.">
              {(aria) => <NumberInput decimal id={`${uid}-tau`} value={tau} onChange={wrap(setTau)} data-testid="critic-tau" {...aria} />}
            </Field>
            <fieldset className="sm:col-span-2">
              <legend className={labelCls}>Methods</legend>
              <div className="mt-2 space-y-1 text-sm">
                <CheckboxSet values={form.methods} selected={methods} onChange={wrap(setMethods)} className="flex items-start gap-2"
                  label={(m) => <span><strong>{CRITIC_METHOD_LABELS[m]}</strong> — {METHOD_HINTS[m]}</span>} testId={(m) => `critic-method-${m}`} />
              </div>
            </fieldset>
          </div>
        </FormSection>

        <FormSection id={`${uid}-settings`} title="Settings">
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field id={`${uid}-n`} label="Inferred tasks (N)" hint="InferAct's verification lists the N tasks, the real one and “None of the above” as A–E, so N is 3.">
              {(aria) => <Select id={`${uid}-n`} value="3" onChange={() => {}} options={[{ value: "3", label: "3" }]} disabled={!has("INFERACT")} data-testid="critic-n" {...aria} />}
            </Field>
            <div>
              <Checkbox checked={orderAveraging} onChange={wrap(setOrderAveraging)} disabled={!has("INFERACT")} testId="critic-order-averaging"
                label="Order averaging" description="Ask the verification again with the options fully reversed and average p(t*) over both orders (off: forward only, 2 calls per checkpoint)." />
              <Checkbox checked={mask} onChange={wrap(setMask)} testId="critic-masking"
                label="Mask instruction strings" description="Replace argument strings copied verbatim from the user's instruction by [masked], so the critic cannot match the real task by copied text." />
            </div>
            <div className="grid grid-cols-2 gap-3">
              <Field id={`${uid}-m`} label="Samples (m)" hint="Self-consistency.">
                {(aria) => <NumberInput id={`${uid}-m`} value={samples} onChange={wrap(setSamples)} disabled={!has("SELF_CONSISTENCY")} data-testid="critic-samples" {...aria} />}
              </Field>
              <Field id={`${uid}-temp`} label="Sampling T" hint="Self-consistency.">
                {(aria) => <NumberInput decimal id={`${uid}-temp`} value={sampleTemperature} onChange={wrap(setSampleTemperature)} disabled={!has("SELF_CONSISTENCY")} data-testid="critic-sample-temperature" {...aria} />}
              </Field>
            </div>
            <Field id={`${uid}-agg`} label="Aggregation" hint="Multi-step: how the per-step probabilities become one.">
              {(aria) => <Select id={`${uid}-agg`} value={aggregation} onChange={(v) => wrap(setAggregation)(v as CriticAggregation)} disabled={!has("MULTI_STEP")} data-testid="critic-aggregation" {...aria}
                options={CRITIC_AGGREGATIONS.map((a) => ({ value: a, label: a }))} />}
            </Field>
            <Field id={`${uid}-name`} label="Name" optional className="sm:col-span-2">
              {(aria) => <TextInput id={`${uid}-name`} value={name} onChange={setName} maxLength={200} data-testid="critic-name" {...aria}
                placeholder={`Critic replay of ${form.trajectories} ${form.trajectories === 1 ? "trajectory" : "trajectories"}`} />}
            </Field>
          </div>
        </FormSection>
      </div>

      <EstimateAside
        id={`${uid}-est`}
        title="This replay"
        estimate={{ testId: "critic-estimate", data: { units: data?.units ?? "", calls: data?.estimate.calls.total ?? "", checkpoints: data?.checkpoints ?? "" } }}
        previewError={previewError}
        figures={data && (
          <EstimateFigures
            estimate={data.estimate}
            notes={<p className="border-t border-slate-100 pt-2 text-xs text-slate-600">Writes assessments by <span className="font-mono">{data.criticModel}</span>, shown on each trajectory&apos;s page.</p>}
          >
            <SummaryRow label="Trajectories">{fmtInt(data.trajectories)}</SummaryRow>
            <SummaryRow label="Checkpoints" testId="estimate-checkpoints">{fmtInt(data.checkpoints)}</SummaryRow>
            <SummaryRow label="Assessments">{fmtInt(data.units)}</SummaryRow>
            {data.estimate.perMethod.map((m) => (
              <SummaryRow key={m.method} label={`${CRITIC_METHOD_LABELS[m.method]} calls`} muted>{fmtInt(m.calls)}</SummaryRow>
            ))}
            <SummaryRow label="Critic calls" strong testId="estimate-calls">{fmtInt(data.estimate.calls.total)}</SummaryRow>
          </EstimateFigures>
        )}
        assumptions={data ? { summary: "How this is estimated", items: data.estimate.assumptions } : undefined}
        submitState={submitState}
        errorTestId="critic-form-error"
        confirm={{
          text: data && <>Queue <strong>{fmtInt(data.units)}</strong> assessments — <strong>{fmtInt(data.estimate.calls.total)}</strong> critic calls over {fmtInt(data.checkpoints)} checkpoints (≈ {fmtUsd(data.estimate.costUsd)})?</>,
          panelTestId: "critic-confirm-panel",
          buttonTestId: "critic-confirm",
        }}
        submit={{ label: data ? `Start replay (${fmtInt(data.estimate.calls.total)} calls)…` : "Start replay…", disabled: !data || data.units === 0, testId: "critic-start" }}
      />
    </form>
  );
}
