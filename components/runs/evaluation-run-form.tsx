"use client";

// The "evaluate trajectories" form: the selection it was opened with (fixed here; change it on the
// list it came from), the evaluator (endpoint + template version), kinds, replicates, append or
// replace, temperature. The units and the estimate follow every change (debounced server
// preview); "Start evaluation" asks for an explicit confirmation that repeats them.
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import type { EvaluationRunInput } from "@/lib/runs/evaluation/schemas";
import type { EvaluationRunPreview } from "@/lib/runs/evaluation/create";
import type { EvaluationForm } from "@/lib/runs/evaluation/queries";
import { fmtInt, fmtUsd } from "@/components/ui/format";

interface Props {
  form: EvaluationForm;
  createRun: (input: EvaluationRunInput) => Promise<ActionResult<{ id: string; units: number }>>;
  previewRun: (input: EvaluationRunInput) => Promise<ActionResult<EvaluationRunPreview>>;
}

const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200";
const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";
const labelCls = "block text-sm font-medium text-slate-800";
const hint = "mt-1 text-xs text-slate-500";
const KINDS = [["SAFETY", "Safety"], ["HELPFULNESS", "Helpfulness"]] as const;

export function EvaluationRunForm({ form, createRun, previewRun }: Props) {
  const router = useRouter();
  const uid = useId();
  const [name, setName] = useState("");
  const [endpointId, setEndpointId] = useState(form.endpoints[0]!.id);
  const [version, setVersion] = useState(String(form.templateVersions[0] ?? 1));
  const [kinds, setKinds] = useState<Set<"SAFETY" | "HELPFULNESS">>(new Set(["SAFETY", "HELPFULNESS"]));
  const [replicates, setReplicates] = useState("1");
  const [write, setWrite] = useState<"append" | "replace">("append");
  const [temperature, setTemperature] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ key: string; data: EvaluationRunPreview | null; error?: string } | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const endpoint = form.endpoints.find((e) => e.id === endpointId)!;

  const payload: EvaluationRunInput = useMemo(() => ({
    ...(name.trim() ? { name: name.trim() } : {}),
    trajectories: form.selection,
    endpointId,
    templateVersion: Number(version),
    kinds: KINDS.map(([k]) => k).filter((k) => kinds.has(k)),
    replicates: replicates.trim() === "" ? Number.NaN : Number(replicates),
    write,
    temperature: temperature.trim() === "" ? null : Number(temperature),
  }), [name, form.selection, endpointId, version, kinds, replicates, write, temperature]);
  const previewKey = JSON.stringify({ ...payload, name: "" });

  useEffect(() => {
    let current = true;
    const t = setTimeout(() => {
      previewRun(payload).then(
        (res) => current && setPreview(res.ok ? { key: previewKey, data: res.data } : { key: previewKey, data: null, error: res.error }),
        () => current && setPreview({ key: previewKey, data: null, error: "Could not estimate the evaluation." }),
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(t);
    };
    // payload changes exactly when previewKey or the name changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [previewKey, previewRun]);

  const counting = preview?.key !== previewKey;
  const data = !counting ? (preview?.data ?? null) : null;
  const previewError = !counting ? preview?.error : undefined;
  const unconfirm = () => setConfirming(false);
  const wrap = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    unconfirm();
  };

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    if (!confirming) {
      setConfirming(true);
      requestAnimationFrame(() => confirmRef.current?.focus());
      return;
    }
    setPending(true);
    const res = await createRun(payload);
    if (res.ok) {
      router.push(`/runs/${res.data.id}`);
      return;
    }
    setPending(false);
    setConfirming(false);
    setError(res.error);
    requestAnimationFrame(() => errorRef.current?.focus());
  }

  const replicateList = data?.replicateNumbers.map((r) => `r${r}`).join(", ");
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Evaluate trajectories" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" data-testid="evaluation-run-form">
      <div className="min-w-0 space-y-6">
        <section className={card} aria-labelledby={`${uid}-sel`}>
          <h2 id={`${uid}-sel`} className="text-base font-semibold">Trajectories</h2>
          <p className="mt-1 text-sm text-slate-700" data-testid="evaluate-selection">
            <strong className="tabular-nums">{fmtInt(form.trajectories)}</strong> — {form.description}
            {form.running > 0 && <span className="text-slate-500"> ({form.running} still being played are left out)</span>}
          </p>
          <p className={hint}><Link href={form.backHref} className="text-indigo-700 hover:underline">Change the selection</Link> on the page it came from.</p>
        </section>

        <section className={card} aria-labelledby={`${uid}-judge`}>
          <h2 id={`${uid}-judge`} className="text-base font-semibold">Evaluator</h2>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={`${uid}-endpoint`} className={labelCls}>Endpoint</label>
              <select id={`${uid}-endpoint`} value={endpointId} onChange={(e) => wrap(setEndpointId)(e.target.value)} className={input} data-testid="evaluate-endpoint">
                {form.endpoints.map((e) => <option key={e.id} value={e.id}>{e.name}{e.offline ? ` — ${OFFLINE_MODEL_LABEL}` : ` — ${e.model}`}</option>)}
              </select>
              <p className={hint}>Temperature {endpoint.temperature}; response cache {endpoint.cacheEnabled ? "on" : "off"}.</p>
            </div>
            <div>
              <label htmlFor={`${uid}-version`} className={labelCls}>Template version</label>
              <select id={`${uid}-version`} value={version} onChange={(e) => wrap(setVersion)(e.target.value)} className={input} data-testid="evaluate-template">
                {form.templateVersions.map((v) => <option key={v} value={v}>evaluator@{v} (evaluator.safety@{v}, evaluator.helpfulness@{v})</option>)}
              </select>
              <p className={hint}>The texts are on the <Link href="/prompts" className="text-indigo-700 hover:underline">Prompts</Link> page.</p>
            </div>
            <fieldset>
              <legend className={labelCls}>Kinds</legend>
              <div className="mt-2 flex gap-4 text-sm">
                {KINDS.map(([k, l]) => (
                  <label key={k} className="flex items-center gap-2">
                    <input type="checkbox" checked={kinds.has(k)} onChange={(e) => {
                      const next = new Set(kinds);
                      if (e.target.checked) next.add(k);
                      else next.delete(k);
                      wrap(setKinds)(next);
                    }} data-testid={`evaluate-kind-${k}`} />
                    {l}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="grid grid-cols-2 gap-3">
              <div>
                <label htmlFor={`${uid}-reps`} className={labelCls}>Replicates</label>
                <input id={`${uid}-reps`} inputMode="numeric" value={replicates} onChange={(e) => wrap(setReplicates)(e.target.value)} className={input} data-testid="evaluate-replicates" />
              </div>
              <div>
                <label htmlFor={`${uid}-temp`} className={labelCls}>Temperature</label>
                <input id={`${uid}-temp`} inputMode="decimal" value={temperature} onChange={(e) => wrap(setTemperature)(e.target.value)} className={input} placeholder={String(endpoint.temperature)} data-testid="evaluate-temperature" />
              </div>
              <p className={`${hint} col-span-2`}>Each replicate is a separate request (its number is part of the cache key). At temperature 0 a deterministic model gives the same answer every time.</p>
            </div>
            <fieldset className="sm:col-span-2">
              <legend className={labelCls}>Earlier scores of this evaluator on these trajectories</legend>
              <div className="mt-2 space-y-1 text-sm">
                <label className="flex items-start gap-2">
                  <input type="radio" name={`${uid}-write`} checked={write === "append"} onChange={() => wrap(setWrite)("append")} className="mt-1" data-testid="evaluate-append" />
                  <span><strong>Append</strong> — new replicates are numbered after the existing ones; nothing is overwritten.</span>
                </label>
                <label className="flex items-start gap-2">
                  <input type="radio" name={`${uid}-write`} checked={write === "replace"} onChange={() => wrap(setWrite)("replace")} className="mt-1" data-testid="evaluate-replace" />
                  <span><strong>Replace</strong> — replicates 1…r are written again as the run goes; replicates above r are deleted when it starts.</span>
                </label>
              </div>
            </fieldset>
            <div className="sm:col-span-2">
              <label htmlFor={`${uid}-name`} className={labelCls}>Name <span className="font-normal text-slate-500">(optional)</span></label>
              <input id={`${uid}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} className={input} placeholder={data ? `Evaluate ${form.trajectories} ${form.trajectories === 1 ? "trajectory" : "trajectories"} with ${data.evaluatorBase}` : ""} data-testid="evaluate-name" />
            </div>
          </div>
        </section>
      </div>

      <aside className="lg:sticky lg:top-4 lg:self-start">
        <div className={card} aria-labelledby={`${uid}-est`} role="region">
          <h2 id={`${uid}-est`} className="text-base font-semibold">This evaluation</h2>
          <div role="status" aria-live="polite" className="mt-3 text-sm" data-testid="evaluate-estimate" data-units={data?.units ?? ""}>
            {previewError ? (
              <p className="text-rose-700">{previewError}</p>
            ) : !data ? (
              <p className="text-slate-500">Estimating…</p>
            ) : (
              <dl className="space-y-1.5">
                <div className="flex justify-between"><dt className="text-slate-600">Trajectories</dt><dd className="tabular-nums">{fmtInt(data.trajectories)}</dd></div>
                <div className="flex justify-between font-semibold"><dt>Evaluator calls</dt><dd className="tabular-nums" data-testid="estimate-units">{fmtInt(data.units)}</dd></div>
                <div className="flex justify-between"><dt className="text-slate-600">Tokens in / out</dt><dd className="tabular-nums">≈ {fmtInt(data.estimate.inputTokens)} / {fmtInt(data.estimate.outputTokens)}</dd></div>
                <div className="flex justify-between font-semibold"><dt>Cost</dt><dd className="tabular-nums" data-testid="estimate-cost">≈ {fmtUsd(data.estimate.costUsd)}</dd></div>
                {data.estimate.unpriced.length > 0 && <p className="text-xs text-amber-700">No price set for {data.estimate.unpriced.join(", ")} (counted as free).</p>}
                <div className="border-t border-slate-100 pt-2 text-xs text-slate-600" data-testid="evaluate-names">
                  Writes <span className="font-mono">{data.evaluatorBase}</span> · {replicateList}
                  {data.existing > 0 && (write === "replace"
                    ? <p className="mt-1 text-amber-700">Replaces {fmtInt(data.existing)} earlier fmtMean(s){data.toDelete ? `; deletes ${fmtInt(data.toDelete)} of replicates above r${data.replicateNumbers.length}` : ""}.</p>
                    : <p className="mt-1">Keeps {fmtInt(data.existing)} earlier fmtMean(s) of this evaluator.</p>)}
                </div>
              </dl>
            )}
          </div>
          {data && (
            <details className="mt-3 text-xs text-slate-600">
              <summary className="cursor-pointer text-slate-700">How this is estimated</summary>
              <ul className="mt-2 list-disc space-y-1 pl-4">{data.estimate.assumptions.map((a) => <li key={a}>{a}</li>)}</ul>
            </details>
          )}
          {error && <p ref={errorRef} tabIndex={-1} role="alert" className="mt-3 rounded-md bg-rose-50 p-2 text-sm text-rose-800" data-testid="evaluate-form-error">{error}</p>}
          {confirming && data ? (
            <div className="mt-4 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm" data-testid="evaluate-confirm-panel">
              <p>Queue <strong>{fmtInt(data.units)}</strong> evaluator calls (≈ {fmtUsd(data.estimate.costUsd)}) writing {replicateList} of {data.evaluatorBase}?</p>
              <div className="mt-3 flex gap-2">
                <button ref={confirmRef} type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60" data-testid="evaluate-confirm">{pending ? "Creating…" : "Confirm and start"}</button>
                <button type="button" onClick={unconfirm} disabled={pending} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50">Back</button>
              </div>
            </div>
          ) : (
            <button type="submit" disabled={!data || data.units === 0} className="mt-4 w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-50" data-testid="evaluate-start">
              {data ? `Start evaluation (${fmtInt(data.units)} calls)…` : "Start evaluation…"}
            </button>
          )}
        </div>
      </aside>
    </form>
  );
}
