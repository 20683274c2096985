"use client";

// The "new run" form. The number of episodes and the estimate (LLM calls, tokens, cost) follow
// every change (debounced server preview); "Create run" asks for a second, explicit confirmation
// that repeats those figures before anything is queued.
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import type { RunInput } from "@/lib/runs/schemas";
import type { RunEstimate } from "@/lib/runs/estimate";
import type { RunFormOptions } from "@/lib/runs/queries";
import { AGENT_VARIANTS, EMULATOR_MODES } from "@/lib/trajectory/types";
import { fmtInt, fmtUsd } from "@/components/ui/format";

type CaseKind = "all" | "toolkits" | "filter" | "sample";

interface PreviewData {
  cases: number;
  caseNames: string[];
  episodes: number;
  estimate: RunEstimate;
}

interface Props {
  options: RunFormOptions;
  defaultSeed: number;
  createRun: (input: RunInput) => Promise<ActionResult<{ id: string; episodes: number }>>;
  previewRun: (input: RunInput) => Promise<ActionResult<PreviewData>>;
}

const input = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 aria-[invalid=true]:border-rose-400";
const card = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";
const labelCls = "block text-sm font-medium text-slate-800";
const hint = "mt-1 text-xs text-slate-500";
const num = (s: string): number | undefined => (s.trim() === "" ? undefined : Number(s));

const VARIANT_LABELS: Record<string, string> = {
  NAIVE: "Naive",
  SAFETY: "Safety requirements",
  HELPFUL_SAFE: "Helpful + safe",
  NO_ACTION: "No action (baseline)",
};

export function NewRunForm({ options, defaultSeed, createRun, previewRun }: Props) {
  const router = useRouter();
  const uid = useId();
  const first = options.endpoints[0]!;
  const [name, setName] = useState("");
  const [notes, setNotes] = useState("");
  const [kind, setKind] = useState<CaseKind>("all");
  const [toolkits, setToolkits] = useState<Set<string>>(new Set());
  const [q, setQ] = useState("");
  const [filterToolkit, setFilterToolkit] = useState("");
  const [sampleN, setSampleN] = useState("20");
  const [sampleSeed, setSampleSeed] = useState(String(defaultSeed));
  const [agents, setAgents] = useState<{ endpointId: string; variant: (typeof AGENT_VARIANTS)[number] }[]>([{ endpointId: first.id, variant: "NAIVE" }]);
  const [emulator, setEmulator] = useState(first.id);
  const [modes, setModes] = useState<Set<string>>(new Set(EMULATOR_MODES));
  const [evaluator, setEvaluator] = useState(first.id);
  const [repeats, setRepeats] = useState("1");
  const [critiqueRounds, setCritiqueRounds] = useState("0");
  const [seed, setSeed] = useState(String(defaultSeed));
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ key: string; data: PreviewData | null; error?: string } | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  const payload: RunInput = useMemo(() => {
    const cases: RunInput["cases"] =
      kind === "all" ? { kind: "all" }
      : kind === "toolkits" ? { kind: "toolkits", toolkits: [...toolkits] }
      : kind === "filter" ? { kind: "filter", ...(q.trim() ? { q: q.trim() } : {}), ...(filterToolkit ? { toolkit: filterToolkit } : {}) }
      : { kind: "sample", size: num(sampleN) as number, seed: num(sampleSeed) as number };
    return {
      name: name.trim() || "(preview)",
      notes,
      cases,
      agents,
      emulatorEndpointId: emulator,
      modes: EMULATOR_MODES.filter((m) => modes.has(m)),
      evaluatorEndpointId: evaluator || null,
      repeats: num(repeats) as number,
      emulatorCritiqueRounds: Number(critiqueRounds),
      ...(num(seed) !== undefined ? { seed: num(seed) } : {}),
    };
  }, [kind, toolkits, q, filterToolkit, sampleN, sampleSeed, name, notes, agents, emulator, modes, evaluator, repeats, critiqueRounds, seed]);
  // The estimate does not depend on the name, notes or seed.
  const previewKey = JSON.stringify({ ...payload, name: "", notes: "", seed: 0 });

  useEffect(() => {
    let current = true;
    const t = setTimeout(() => {
      previewRun(payload).then(
        (res) => current && setPreview(res.ok ? { key: previewKey, data: res.data } : { key: previewKey, data: null, error: res.error }),
        () => current && setPreview({ key: previewKey, data: null, error: "Could not estimate the run." }),
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(t);
    };
    // payload changes exactly when previewKey or the ignored fields change
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [previewKey, previewRun]);

  const counting = preview?.key !== previewKey;
  const data = !counting ? (preview?.data ?? null) : null;
  const previewError = !counting ? preview?.error : undefined;
  const endpointName = (id: string) => options.endpoints.find((e) => e.id === id)?.name ?? id;

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    if (!name.trim()) {
      setError("Give the run a name.");
      requestAnimationFrame(() => errorRef.current?.focus());
      return;
    }
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

  const unconfirm = () => setConfirming(false);
  const wrap = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    unconfirm();
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New run" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" data-testid="new-run-form">
      <div className="min-w-0 space-y-6">
        <section className={card} aria-labelledby={`${uid}-about`}>
          <h2 id={`${uid}-about`} className="text-base font-semibold">About</h2>
          <div className="mt-4 grid gap-4">
            <div>
              <label htmlFor={`${uid}-name`} className={labelCls}>Name</label>
              <input id={`${uid}-name`} value={name} onChange={(e) => wrap(setName)(e.target.value)} maxLength={200} className={input} placeholder="e.g. Offline baseline, all cases, both modes" data-testid="run-name" />
            </div>
            <div>
              <label htmlFor={`${uid}-notes`} className={labelCls}>Notes <span className="font-normal text-slate-500">(optional)</span></label>
              <textarea id={`${uid}-notes`} value={notes} onChange={(e) => setNotes(e.target.value)} rows={2} maxLength={10_000} className={input} />
            </div>
          </div>
        </section>

        <section className={card} aria-labelledby={`${uid}-cases`}>
          <h2 id={`${uid}-cases`} className="text-base font-semibold">Cases</h2>
          <p className="mt-1 text-sm text-slate-600">{fmtInt(options.totalCases)} test cases in the database.</p>
          <fieldset className="mt-3">
            <legend className="sr-only">How to choose cases</legend>
            <div className="flex flex-wrap gap-4 text-sm">
              {([["all", "All cases"], ["toolkits", "By toolkit"], ["filter", "By filter"], ["sample", "Random sample"]] as const).map(([k, l]) => (
                <label key={k} className="flex items-center gap-2">
                  <input type="radio" name={`${uid}-kind`} value={k} checked={kind === k} onChange={() => wrap(setKind)(k)} data-testid={`cases-${k}`} /> {l}
                </label>
              ))}
            </div>
          </fieldset>
          {kind === "toolkits" && (
            <fieldset className="mt-3 max-h-56 overflow-y-auto rounded-md border border-slate-200 p-3">
              <legend className="sr-only">Toolkits</legend>
              <div className="grid gap-1 sm:grid-cols-2">
                {options.toolkits.map((t) => (
                  <label key={t.name} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" checked={toolkits.has(t.name)} onChange={(e) => {
                      const next = new Set(toolkits);
                      if (e.target.checked) next.add(t.name);
                      else next.delete(t.name);
                      wrap(setToolkits)(next);
                    }} />
                    {t.name} <span className="text-xs text-slate-500">({t.cases})</span>
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {kind === "filter" && (
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor={`${uid}-q`} className={labelCls}>Text</label>
                <input id={`${uid}-q`} value={q} onChange={(e) => wrap(setQ)(e.target.value)} className={input} placeholder="in the name or instruction" />
              </div>
              <div>
                <label htmlFor={`${uid}-ftk`} className={labelCls}>Toolkit</label>
                <select id={`${uid}-ftk`} value={filterToolkit} onChange={(e) => wrap(setFilterToolkit)(e.target.value)} className={input}>
                  <option value="">Any toolkit</option>
                  {options.toolkits.map((t) => <option key={t.name} value={t.name}>{`${t.name} (${t.cases})`}</option>)}
                </select>
              </div>
            </div>
          )}
          {kind === "sample" && (
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              <div>
                <label htmlFor={`${uid}-n`} className={labelCls}>Cases in the sample</label>
                <input id={`${uid}-n`} inputMode="numeric" value={sampleN} onChange={(e) => wrap(setSampleN)(e.target.value)} className={input} data-testid="sample-size" />
              </div>
              <div>
                <label htmlFor={`${uid}-sseed`} className={labelCls}>Sample seed</label>
                <input id={`${uid}-sseed`} inputMode="numeric" value={sampleSeed} onChange={(e) => wrap(setSampleSeed)(e.target.value)} className={input} />
                <p className={hint}>The same seed picks the same cases.</p>
              </div>
            </div>
          )}
        </section>

        <section className={card} aria-labelledby={`${uid}-agents`}>
          <h2 id={`${uid}-agents`} className="text-base font-semibold">Agents</h2>
          <p className="mt-1 text-sm text-slate-600">Each agent is an endpoint with a prompt variant; every case is played by every agent.</p>
          <ul className="mt-3 space-y-2">
            {agents.map((a, i) => (
              <li key={i} className="flex flex-wrap items-end gap-2" data-testid="agent-row">
                <div className="min-w-48 flex-1">
                  <label htmlFor={`${uid}-ae${i}`} className="sr-only">Agent endpoint {i + 1}</label>
                  <select id={`${uid}-ae${i}`} value={a.endpointId} onChange={(e) => wrap(setAgents)(agents.map((x, j) => (j === i ? { ...x, endpointId: e.target.value } : x)))} className={input}>
                    {options.endpoints.map((e) => <option key={e.id} value={e.id}>{e.name}{e.offline ? ` — ${OFFLINE_MODEL_LABEL}` : ` — ${e.model}`}</option>)}
                  </select>
                </div>
                <div className="w-52">
                  <label htmlFor={`${uid}-av${i}`} className="sr-only">Variant of agent {i + 1}</label>
                  <select id={`${uid}-av${i}`} value={a.variant} onChange={(e) => wrap(setAgents)(agents.map((x, j) => (j === i ? { ...x, variant: e.target.value as (typeof AGENT_VARIANTS)[number] } : x)))} className={input}>
                    {AGENT_VARIANTS.map((v) => <option key={v} value={v}>{VARIANT_LABELS[v] ?? v}</option>)}
                  </select>
                </div>
                <button type="button" onClick={() => wrap(setAgents)(agents.filter((_, j) => j !== i))} disabled={agents.length === 1} className="mb-0.5 rounded-md border border-slate-300 px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50 disabled:opacity-40" aria-label={`Remove agent ${i + 1}`}>Remove</button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => wrap(setAgents)([...agents, { endpointId: first.id, variant: AGENT_VARIANTS.find((v) => !agents.some((a) => a.endpointId === first.id && a.variant === v)) ?? "NAIVE" }])} className="mt-3 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50" data-testid="add-agent">Add agent</button>
        </section>

        <section className={card} aria-labelledby={`${uid}-emu`}>
          <h2 id={`${uid}-emu`} className="text-base font-semibold">Emulator and evaluator</h2>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={`${uid}-emulator`} className={labelCls}>Emulator endpoint</label>
              <select id={`${uid}-emulator`} value={emulator} onChange={(e) => wrap(setEmulator)(e.target.value)} className={input}>
                {options.endpoints.map((e) => <option key={e.id} value={e.id}>{e.name}</option>)}
              </select>
            </div>
            <fieldset>
              <legend className={labelCls}>Emulator modes</legend>
              <div className="mt-2 flex gap-4 text-sm">
                {EMULATOR_MODES.map((m) => (
                  <label key={m} className="flex items-center gap-2">
                    <input type="checkbox" checked={modes.has(m)} onChange={(e) => {
                      const next = new Set(modes);
                      if (e.target.checked) next.add(m);
                      else next.delete(m);
                      wrap(setModes)(next);
                    }} data-testid={`mode-${m}`} />
                    {m === "STANDARD" ? "Standard" : "Adversarial"}
                  </label>
                ))}
              </div>
            </fieldset>
            <div>
              <label htmlFor={`${uid}-evaluator`} className={labelCls}>Evaluator endpoint</label>
              <select id={`${uid}-evaluator`} value={evaluator} onChange={(e) => wrap(setEvaluator)(e.target.value)} className={input}>
                <option value="">No evaluation</option>
                {options.endpoints.map((e) => <option key={e.id} value={e.id}>{e.name}</option>)}
              </select>
              <p className={hint}>Safety and helpfulness, 0–3.</p>
            </div>
            <div className="grid grid-cols-2 gap-3">
              <div>
                <label htmlFor={`${uid}-repeats`} className={labelCls}>Repeats</label>
                <input id={`${uid}-repeats`} inputMode="numeric" value={repeats} onChange={(e) => wrap(setRepeats)(e.target.value)} className={input} data-testid="repeats" />
              </div>
              <div>
                <label htmlFor={`${uid}-seed`} className={labelCls}>Seed</label>
                <input id={`${uid}-seed`} inputMode="numeric" value={seed} onChange={(e) => setSeed(e.target.value)} className={input} />
              </div>
            </div>
            <div>
              <label htmlFor={`${uid}-critique`} className={labelCls}>Emulator self-critique rounds</label>
              <select id={`${uid}-critique`} value={critiqueRounds} onChange={(e) => wrap(setCritiqueRounds)(e.target.value)} className={input} data-testid="self-critique-rounds" aria-describedby={`${uid}-critique-hint`}>
                <option value="0">0 — off (ToolEmu&apos;s default)</option>
                <option value="1">1 round</option>
                <option value="2">2 rounds</option>
                <option value="3">3 rounds</option>
              </select>
              <p id={`${uid}-critique-hint`} className={hint}>After each valid observation, the emulator critiques it (input validity, realism, accuracy, consistency; adversarial: the stress test) and revises it. Each round is one more emulator call per tool step, counted in the estimate.</p>
            </div>
          </div>
        </section>
      </div>

      <aside className="lg:sticky lg:top-4 lg:self-start">
        <div className={card} aria-labelledby={`${uid}-est`} role="region">
          <h2 id={`${uid}-est`} className="text-base font-semibold">This run</h2>
          <div role="status" aria-live="polite" className="mt-3 text-sm" data-testid="run-estimate" data-episodes={data?.episodes ?? ""}>
            {previewError ? (
              <p className="text-rose-700">{previewError}</p>
            ) : !data ? (
              <p className="text-slate-500">Estimating…</p>
            ) : (
              <dl className="space-y-1.5">
                <div className="flex justify-between"><dt className="text-slate-600">Cases</dt><dd className="tabular-nums">{fmtInt(data.cases)}</dd></div>
                <div className="flex justify-between font-semibold"><dt>Episodes</dt><dd className="tabular-nums" data-testid="estimate-episodes">{fmtInt(data.episodes)}</dd></div>
                <div className="flex justify-between"><dt className="text-slate-600">LLM calls</dt><dd className="tabular-nums" data-testid="estimate-calls">≈ {fmtInt(data.estimate.calls.total)}</dd></div>
                <div className="flex justify-between text-xs text-slate-500"><dt>agent / emulator / evaluator</dt><dd className="tabular-nums">{fmtInt(data.estimate.calls.agent)} / {fmtInt(data.estimate.calls.emulator)} / {fmtInt(data.estimate.calls.evaluator)}</dd></div>
                <div className="flex justify-between"><dt className="text-slate-600">Tokens in / out</dt><dd className="tabular-nums">≈ {fmtInt(data.estimate.inputTokens)} / {fmtInt(data.estimate.outputTokens)}</dd></div>
                <div className="flex justify-between font-semibold"><dt>Cost</dt><dd className="tabular-nums" data-testid="estimate-cost">≈ {fmtUsd(data.estimate.costUsd)}</dd></div>
                {data.estimate.unpriced.length > 0 && <p className="text-xs text-amber-700">No price set for {data.estimate.unpriced.join(", ")} (counted as free).</p>}
              </dl>
            )}
          </div>
          {data && (
            <details className="mt-3 text-xs text-slate-600">
              <summary className="cursor-pointer text-slate-700">How this is estimated ({data.estimate.stepsPerEpisode} steps per episode)</summary>
              <ul className="mt-2 list-disc space-y-1 pl-4">{data.estimate.assumptions.map((a) => <li key={a}>{a}</li>)}</ul>
            </details>
          )}
          {error && <p ref={errorRef} tabIndex={-1} role="alert" className="mt-3 rounded-md bg-rose-50 p-2 text-sm text-rose-800" data-testid="run-form-error">{error}</p>}
          {confirming && data ? (
            <div className="mt-4 rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm" data-testid="confirm-panel">
              <p>Queue <strong>{fmtInt(data.episodes)}</strong> episodes (≈ {fmtInt(data.estimate.calls.total)} LLM calls, ≈ {fmtUsd(data.estimate.costUsd)}) for {agents.map((a) => endpointName(a.endpointId)).join(", ")}?</p>
              <div className="mt-3 flex gap-2">
                <button ref={confirmRef} type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60" data-testid="confirm-run">{pending ? "Creating…" : "Confirm and start"}</button>
                <button type="button" onClick={unconfirm} disabled={pending} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50">Back</button>
              </div>
            </div>
          ) : (
            <button type="submit" disabled={!data || data.episodes === 0} className="mt-4 w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-50" data-testid="create-run">
              {data ? `Create run (${fmtInt(data.episodes)} episodes)…` : "Create run…"}
            </button>
          )}
        </div>
      </aside>
    </form>
  );
}
