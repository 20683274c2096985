"use client";

// The "evaluate trajectories" form: the selection it was opened with (fixed here; change it on the
// list it came from), the evaluator (endpoint + template version), kinds, replicates, append or
// replace, temperature. The units and the estimate follow every change (debounced server
// preview); "Start evaluation" asks for an explicit confirmation that repeats them.
import { useId, useMemo, useState } from "react";
import Link from "next/link";
import type { ActionResult } from "@/lib/auth/guard";
import type { EvaluationRunInput } from "@/lib/runs/evaluation/schemas";
import type { EvaluationRunPreview } from "@/lib/runs/evaluation/create";
import type { EvaluationForm } from "@/lib/runs/evaluation/queries";
import { CheckboxSet, Field, FormSection, NumberInput, Select, SummaryRow, TextInput, hintCls, labelCls } from "@/components/ui/form";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { usePreview } from "@/components/ui/use-preview";
import { EndpointSelect } from "./form/endpoint-select";
import { EstimateAside, EstimateFigures } from "./form/estimate-aside";
import { useConfirmSubmit } from "./form/use-confirm-submit";

interface Props {
  form: EvaluationForm;
  createRun: (input: EvaluationRunInput) => Promise<ActionResult<{ id: string; units: number }>>;
  previewRun: (input: EvaluationRunInput) => Promise<ActionResult<EvaluationRunPreview>>;
}

type Kind = "SAFETY" | "HELPFULNESS";
const KINDS: readonly Kind[] = ["SAFETY", "HELPFULNESS"];
const KIND_LABELS: Record<Kind, string> = { SAFETY: "Safety", HELPFULNESS: "Helpfulness" };
const WRITE = [
  ["append", "Append", "new replicates are numbered after the existing ones; nothing is overwritten."],
  ["replace", "Replace", "replicates 1…r are written again as the run goes; replicates above r are deleted when it starts."],
] as const;

export function EvaluationRunForm({ form, createRun, previewRun }: Props) {
  const uid = useId();
  const [name, setName] = useState("");
  const [endpointId, setEndpointId] = useState(form.endpoints[0]!.id);
  const [version, setVersion] = useState(String(form.templateVersions[0] ?? 1));
  const [kinds, setKinds] = useState<Set<Kind>>(new Set(KINDS));
  const [replicates, setReplicates] = useState("1");
  const [write, setWrite] = useState<"append" | "replace">("append");
  const [temperature, setTemperature] = useState("");
  const endpoint = form.endpoints.find((e) => e.id === endpointId)!;

  const payload: EvaluationRunInput = useMemo(() => ({
    ...(name.trim() ? { name: name.trim() } : {}),
    trajectories: form.selection,
    endpointId,
    templateVersion: Number(version),
    kinds: KINDS.filter((k) => kinds.has(k)),
    replicates: replicates.trim() === "" ? Number.NaN : Number(replicates),
    write,
    temperature: temperature.trim() === "" ? null : Number(temperature),
  }), [name, form.selection, endpointId, version, kinds, replicates, write, temperature]);
  const previewKey = JSON.stringify({ ...payload, name: "" });
  const { data, error: previewError } = usePreview(previewRun, payload, previewKey, "Could not estimate the evaluation.", 250);
  const submitState = useConfirmSubmit(() => createRun(payload));
  const { onSubmit, wrap } = submitState;
  const replicateList = data?.replicateNumbers.map((r) => `r${r}`).join(", ");

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Evaluate trajectories" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" data-testid="evaluation-run-form">
      <div className="min-w-0 space-y-6">
        <FormSection id={`${uid}-sel`} title="Trajectories">
          <p className="mt-1 text-sm text-slate-700" data-testid="evaluate-selection">
            <strong className="tabular-nums">{fmtInt(form.trajectories)}</strong> — {form.description}
            {form.running > 0 && <span className="text-slate-500"> ({form.running} still being played are left out)</span>}
          </p>
          <p className={hintCls}><Link href={form.backHref} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Change the selection</Link> on the page it came from.</p>
        </FormSection>

        <FormSection id={`${uid}-judge`} title="Evaluator">
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field id={`${uid}-endpoint`} label="Endpoint" hint={`Temperature ${endpoint.temperature}; response cache ${endpoint.cacheEnabled ? "on" : "off"}.`}>
              {(aria) => <EndpointSelect id={`${uid}-endpoint`} endpoints={form.endpoints} value={endpointId} onChange={wrap(setEndpointId)} testId="evaluate-endpoint" aria={aria} />}
            </Field>
            <Field id={`${uid}-version`} label="Template version" hint={<>The texts are on the <Link href="/prompts" className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">Prompts</Link> page.</>}>
              {(aria) => <Select id={`${uid}-version`} value={version} onChange={wrap(setVersion)} data-testid="evaluate-template" {...aria}
                options={form.templateVersions.map((v) => ({ value: String(v), label: `evaluator@${v} (evaluator.safety@${v}, evaluator.helpfulness@${v})` }))} />}
            </Field>
            <fieldset>
              <legend className={labelCls}>Kinds</legend>
              <div className="mt-2 flex gap-4 text-sm">
                <CheckboxSet values={KINDS} selected={kinds} onChange={wrap(setKinds)} label={(k) => KIND_LABELS[k]} testId={(k) => `evaluate-kind-${k}`} />
              </div>
            </fieldset>
            <div className="grid grid-cols-2 gap-3">
              <Field id={`${uid}-reps`} label="Replicates">{(aria) => <NumberInput id={`${uid}-reps`} value={replicates} onChange={wrap(setReplicates)} data-testid="evaluate-replicates" {...aria} />}</Field>
              <Field id={`${uid}-temp`} label="Temperature">{(aria) => <NumberInput decimal id={`${uid}-temp`} value={temperature} onChange={wrap(setTemperature)} placeholder={String(endpoint.temperature)} data-testid="evaluate-temperature" {...aria} />}</Field>
              <p className={`${hintCls} col-span-2`}>Each replicate is a separate request (its number is part of the cache key). At temperature 0 a deterministic model gives the same answer every time.</p>
            </div>
            <fieldset className="sm:col-span-2">
              <legend className={labelCls}>Earlier scores of this evaluator on these trajectories</legend>
              <div className="mt-2 space-y-1 text-sm">
                {WRITE.map(([value, title, text]) => (
                  <label key={value} className="flex items-start gap-2">
                    <input type="radio" name={`${uid}-write`} checked={write === value} onChange={() => wrap(setWrite)(value)} className="mt-1" data-testid={`evaluate-${value}`} />
                    <span><strong>{title}</strong> — {text}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <Field id={`${uid}-name`} label="Name" optional className="sm:col-span-2">
              {(aria) => <TextInput id={`${uid}-name`} value={name} onChange={setName} maxLength={200} data-testid="evaluate-name" {...aria}
                placeholder={data ? `Evaluate ${form.trajectories} ${form.trajectories === 1 ? "trajectory" : "trajectories"} with ${data.evaluatorBase}` : ""} />}
            </Field>
          </div>
        </FormSection>
      </div>

      <EstimateAside
        id={`${uid}-est`}
        title="This evaluation"
        estimate={{ testId: "evaluate-estimate", data: { units: data?.units ?? "" } }}
        previewError={previewError}
        figures={data && (
          <EstimateFigures
            estimate={data.estimate}
            notes={
              <div className="border-t border-slate-100 pt-2 text-xs text-slate-600" data-testid="evaluate-names">
                Writes <span className="font-mono">{data.evaluatorBase}</span> · {replicateList}
                {data.existing > 0 && (write === "replace"
                  ? <p className="mt-1 text-amber-700">Replaces {fmtInt(data.existing)} earlier score(s){data.toDelete ? `; deletes ${fmtInt(data.toDelete)} of replicates above r${data.replicateNumbers.length}` : ""}.</p>
                  : <p className="mt-1">Keeps {fmtInt(data.existing)} earlier score(s) of this evaluator.</p>)}
              </div>
            }
          >
            <SummaryRow label="Trajectories">{fmtInt(data.trajectories)}</SummaryRow>
            <SummaryRow label="Evaluator calls" strong testId="estimate-units">{fmtInt(data.units)}</SummaryRow>
          </EstimateFigures>
        )}
        assumptions={data ? { summary: "How this is estimated", items: data.estimate.assumptions } : undefined}
        submitState={submitState}
        errorTestId="evaluate-form-error"
        confirm={{
          text: data && <>Queue <strong>{fmtInt(data.units)}</strong> evaluator calls (≈ {fmtUsd(data.estimate.costUsd)}) writing {replicateList} of {data.evaluatorBase}?</>,
          panelTestId: "evaluate-confirm-panel",
          buttonTestId: "evaluate-confirm",
        }}
        submit={{ label: data ? `Start evaluation (${fmtInt(data.units)} calls)…` : "Start evaluation…", disabled: !data || data.units === 0, testId: "evaluate-start" }}
      />
    </form>
  );
}
