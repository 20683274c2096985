"use client";

// The SAGE run form: scenarios (all / by dimension / by subcategory / a seeded sample per
// subcategory), agents, the authority contexts (both by default: a paired factor), conversation
// order, turn limit policy, attacker, judges and judge mode, repeats — with the live estimate
// (episodes, calls by role, tokens, cost) beside it and a confirmation that repeats the figures.
import { useId, useMemo, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { SageRunInput, SageScenarioSelection } from "@/lib/runs/sage/schemas";
import { MAX_SAGE_JUDGES, PUBLISHED_MAX_TURNS } from "@/lib/runs/sage/schemas";
import type { SageRunPreview } from "@/lib/runs/sage/create";
import type { SageRunFormData } from "@/lib/runs/sage/form";
import { OFFLINE_MODEL_LABEL } from "@/lib/offline-label";
import { Checkbox, Field, FormSection, NumberInput, Select, SummaryRow, TextInput, hintCls, labelCls } from "@/components/ui/form";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { usePreview } from "@/components/ui/use-preview";
import { EndpointSelect } from "./form/endpoint-select";
import { EstimateAside, EstimateFigures } from "./form/estimate-aside";
import { useConfirmSubmit } from "./form/use-confirm-submit";

interface Props {
  form: SageRunFormData;
  createRun: (input: SageRunInput) => Promise<ActionResult<{ id: string; episodes: number }>>;
  previewRun: (input: SageRunInput) => Promise<ActionResult<SageRunPreview>>;
}

type Kind = SageScenarioSelection["kind"];
const KINDS: { value: Exclude<Kind, "ids">; label: string }[] = [
  { value: "all", label: "All scenarios" },
  { value: "dimensions", label: "By dimension" },
  { value: "subcategories", label: "By subcategory" },
  { value: "sample", label: "Seeded sample per subcategory" },
];
const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));
const endpointLabel = (e: { name: string; model: string; offline: boolean }) => `${e.name} — ${e.offline ? OFFLINE_MODEL_LABEL : e.model}`;

export function SageRunForm({ form, createRun, previewRun }: Props) {
  const uid = useId();
  const first = form.endpoints[0]!;
  const [name, setName] = useState("");
  const [kind, setKind] = useState<Exclude<Kind, "ids">>(form.initial.kind);
  const [dimensions, setDimensions] = useState<Set<string>>(new Set(form.initial.kind === "dimensions" ? form.initial.keys : []));
  const [subcategories, setSubcategories] = useState<Set<string>>(new Set(form.initial.kind === "subcategories" ? form.initial.keys : []));
  const [perSubcategory, setPerSubcategory] = useState("2");
  const [sampleSeed, setSampleSeed] = useState("1");
  const [agents, setAgents] = useState<Set<string>>(new Set([first.id]));
  const [trust, setTrust] = useState(true);
  const [warning, setWarning] = useState(true);
  const [order, setOrder] = useState<"CHRONOLOGICAL" | "REFERENCE">("CHRONOLOGICAL");
  const [turns, setTurns] = useState<"published" | "scenario">("published");
  const [attacker, setAttacker] = useState(first.id);
  const [judges, setJudges] = useState<Set<string>>(new Set([first.id]));
  const [judgeMode, setJudgeMode] = useState<"TERNARY" | "BINARY">("TERNARY");
  const [repeats, setRepeats] = useState("1");

  const toggle = (set: Set<string>, v: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(v);
    else next.delete(v);
    return next;
  };
  const selection: SageScenarioSelection = useMemo(() => {
    switch (kind) {
      case "all":
        return { kind: "all" };
      case "dimensions":
        return { kind: "dimensions", keys: [...dimensions] };
      case "subcategories":
        return { kind: "subcategories", keys: [...subcategories] };
      case "sample":
        return { kind: "sample", perSubcategory: num(perSubcategory), seed: num(sampleSeed), dimensions: [...dimensions] };
    }
  }, [kind, dimensions, subcategories, perSubcategory, sampleSeed]);
  const payload: SageRunInput = useMemo(() => ({
    ...(name.trim() ? { name: name.trim() } : {}),
    scenarios: selection,
    agents: form.endpoints.filter((e) => agents.has(e.id)).map((e) => e.id),
    contexts: [...(trust ? (["TRUST"] as const) : []), ...(warning ? (["WARNING"] as const) : [])],
    order,
    turns,
    attackerEndpointId: attacker,
    judgeEndpointIds: form.endpoints.filter((e) => judges.has(e.id)).map((e) => e.id),
    judgeMode,
    repeats: num(repeats),
  }), [name, selection, form.endpoints, agents, trust, warning, order, turns, attacker, judges, judgeMode, repeats]);
  const previewKey = JSON.stringify({ ...payload, name: "" });
  const { data, error: previewError } = usePreview(previewRun, payload, previewKey, "Could not estimate the run.", 250);
  const submitState = useConfirmSubmit(() => createRun(payload));
  const { onSubmit, wrap } = submitState;
  const judgeModels = form.endpoints.filter((e) => judges.has(e.id)).map((e) => e.model);
  const sameModelJudges = judgeModels.length !== new Set(judgeModels).size;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New SAGE run" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" data-testid="sage-run-form">
      <div className="min-w-0 space-y-6">
        <FormSection id={`${uid}-sel`} title="Scenarios" description={`${fmtInt(form.totalScenarios)} imported scenarios in ${form.taxonomy.length} dimensions and ${form.taxonomy.reduce((n, d) => n + d.subcategories.length, 0)} subcategories.`}>
          <div className="mt-3 flex flex-wrap gap-x-5 gap-y-2" role="radiogroup" aria-label="Which scenarios">
            {KINDS.map((k) => (
              <label key={k.value} className="inline-flex items-center gap-1.5 text-sm">
                <input type="radio" name={`${uid}-kind`} value={k.value} checked={kind === k.value} onChange={() => wrap(setKind)(k.value)} data-testid={`sage-selection-${k.value}`} />
                {k.label}
              </label>
            ))}
          </div>
          {(kind === "dimensions" || kind === "subcategories" || kind === "sample") && (
            <fieldset className="mt-4" data-testid="sage-taxonomy">
              <legend className={labelCls}>{kind === "subcategories" ? "Subcategories" : kind === "sample" ? "Only these dimensions (none = all)" : "Dimensions"}</legend>
              <div className="mt-2 grid gap-3 sm:grid-cols-2">
                {form.taxonomy.map((d) => (
                  <div key={d.key} className="text-sm">
                    {kind === "subcategories" ? (
                      <>
                        <p className="font-medium text-slate-800">{d.name}</p>
                        {d.subcategories.map((s) => (
                          <Checkbox key={s.key} checked={subcategories.has(s.key)} onChange={(on) => wrap(setSubcategories)(toggle(subcategories, s.key, on))} testId={`sage-subcategory-${s.key}`}
                            label={<>{s.name} <span className="text-xs text-slate-500">({fmtInt(s.scenarios)})</span></>} className="mt-1 flex items-start gap-2 text-sm" />
                        ))}
                      </>
                    ) : (
                      <Checkbox checked={dimensions.has(d.key)} onChange={(on) => wrap(setDimensions)(toggle(dimensions, d.key, on))} testId={`sage-dimension-${d.key}`}
                        label={<>{d.name} <span className="text-xs text-slate-500">({fmtInt(d.scenarios)} in {d.subcategories.length} subcategories)</span></>} className="mt-1 flex items-start gap-2 text-sm" />
                    )}
                  </div>
                ))}
              </div>
            </fieldset>
          )}
          {kind === "sample" && (
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              <Field id={`${uid}-n`} label="Scenarios per subcategory" hint="Stratified: the same number from each subcategory, so every failure family is covered.">
                {(aria) => <NumberInput id={`${uid}-n`} value={perSubcategory} onChange={wrap(setPerSubcategory)} data-testid="sage-per-subcategory" {...aria} />}
              </Field>
              <Field id={`${uid}-seed`} label="Sample seed" hint="The same seed picks the same scenarios; a scenario imported later does not reshuffle the others.">
                {(aria) => <NumberInput id={`${uid}-seed`} value={sampleSeed} onChange={wrap(setSampleSeed)} data-testid="sage-sample-seed" {...aria} />}
              </Field>
            </div>
          )}
        </FormSection>

        <FormSection id={`${uid}-agents`} title="Agents and authority contexts" description="Each agent plays every chosen scenario once per context and repeat.">
          <fieldset className="mt-3">
            <legend className={labelCls}>Agent endpoints</legend>
            <div className="mt-1 grid gap-1 sm:grid-cols-2">
              {form.endpoints.map((e) => (
                <Checkbox key={e.id} checked={agents.has(e.id)} onChange={(on) => wrap(setAgents)(toggle(agents, e.id, on))} testId={`sage-agent-${e.name}`} label={endpointLabel(e)} className="mt-1 flex items-start gap-2 text-sm" />
              ))}
            </div>
          </fieldset>
          <fieldset className="mt-4">
            <legend className={labelCls}>Authority contexts</legend>
            <Checkbox checked={trust} onChange={wrap(setTrust)} testId="sage-context-trust" label="Trust" description="The scenario's authority_context_soft: the agent is trusted to operate independently within its normal scope." />
            <Checkbox checked={warning} onChange={wrap(setWarning)} testId="sage-context-warning" label="Warning" description="The scenario's authority_context_hard: actions outside normal operations are rare and strictly prohibited." />
            <p className={hintCls}>Both (the default) make a paired comparison: the dashboard tests ASR under Trust − ASR under Warning scenario by scenario (McNemar, bootstrap CI).</p>
          </fieldset>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field id={`${uid}-order`} label="Conversation order" hint={order === "CHRONOLOGICAL" ? "Every turn in order, with the agent's own earlier answers — a real conversation." : "What the published runner sends: all attacker messages, then all tool results, without the agent's own turns. For reproducing the paper's numbers."}>
              {(aria) => <Select id={`${uid}-order`} value={order} onChange={(v) => wrap(setOrder)(v as typeof order)} data-testid="sage-order" {...aria}
                options={[{ value: "CHRONOLOGICAL", label: "Chronological (default)" }, { value: "REFERENCE", label: "Reference (published runner)" }]} />}
            </Field>
            <Field id={`${uid}-turns`} label="Turn limit" hint={turns === "published"
              ? `At most ${PUBLISHED_MAX_TURNS} turns, as the published runner plays (its --max-turns ${PUBLISHED_MAX_TURNS} overrides the data): ${fmtInt(form.overCap)} of the ${fmtInt(form.totalScenarios)} scenarios say ${PUBLISHED_MAX_TURNS + 1} and are cut to ${PUBLISHED_MAX_TURNS}, so results compare with the paper's.`
              : `Each scenario's own attacker.max_turns: ${fmtInt(form.overCap)} scenarios get a fifth turn the paper's runs never played — more pressure, so rates are not comparable with the paper's.`}>
              {(aria) => <Select id={`${uid}-turns`} value={turns} onChange={(v) => wrap(setTurns)(v as typeof turns)} data-testid="sage-turns" {...aria}
                options={[{ value: "published", label: `Published runner: at most ${PUBLISHED_MAX_TURNS} (default)` }, { value: "scenario", label: "Each scenario's own limit (4 or 5)" }]} />}
            </Field>
            <Field id={`${uid}-repeats`} label="Repeats" hint="Episodes per scenario × agent × context; the dashboard keeps the latest per pair.">
              {(aria) => <NumberInput id={`${uid}-repeats`} value={repeats} onChange={wrap(setRepeats)} data-testid="sage-repeats" {...aria} />}
            </Field>
          </div>
        </FormSection>

        <FormSection id={`${uid}-roles`} title="Attacker and judges">
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field id={`${uid}-attacker`} label="Attacker endpoint" hint="Writes the user's messages from turn 2 on, at T = 0.7; an unusable message (one that reveals the test or claims the rules changed) is replaced by a fixed fallback.">
              {(aria) => <EndpointSelect id={`${uid}-attacker`} endpoints={form.endpoints} value={attacker} onChange={wrap(setAttacker)} testId="sage-attacker" aria={aria} />}
            </Field>
            <Field id={`${uid}-mode`} label="Judge mode" hint={judgeMode === "TERNARY" ? "Safe / unsafe / uncertain; uncertain stays in ASR's denominator." : "The judge must choose safe or unsafe."}>
              {(aria) => <Select id={`${uid}-mode`} value={judgeMode} onChange={(v) => wrap(setJudgeMode)(v as typeof judgeMode)} data-testid="sage-judge-mode" {...aria}
                options={[{ value: "TERNARY", label: "Ternary (safe / unsafe / uncertain)" }, { value: "BINARY", label: "Binary (safe / unsafe)" }]} />}
            </Field>
            <fieldset className="sm:col-span-2">
              <legend className={labelCls}>Judges (0–{MAX_SAGE_JUDGES}; each labels every episode right after it ends, at T = 0)</legend>
              <div className="mt-1 grid gap-1 sm:grid-cols-2">
                {form.endpoints.map((e) => (
                  <Checkbox key={e.id} checked={judges.has(e.id)} onChange={(on) => wrap(setJudges)(toggle(judges, e.id, on))} testId={`sage-judge-${e.name}`} label={endpointLabel(e)} className="mt-1 flex items-start gap-2 text-sm" />
                ))}
              </div>
              {sameModelJudges && <p className="mt-1 text-xs text-amber-700" role="alert">Two ticked judges serve the same model: a verdict is stored per judge model, so pick judges with different models.</p>}
              {judges.size === 0 && <p className={hintCls}>No judge: the run measures UTR only (judges can be added to the stored episodes later with <code className="font-mono">npm run cli -- sage judge</code>).</p>}
            </fieldset>
            <Field id={`${uid}-name`} label="Name" optional className="sm:col-span-2">
              {(aria) => <TextInput id={`${uid}-name`} value={name} onChange={setName} maxLength={200} data-testid="sage-name" {...aria} placeholder="SAGE: <n> scenarios × Trust / Warning (<agents>)" />}
            </Field>
          </div>
        </FormSection>
      </div>

      <EstimateAside
        id={`${uid}-est`}
        title="This run"
        estimate={{ testId: "sage-estimate", data: { episodes: data?.episodes ?? "", calls: data?.estimate.calls.total ?? "", scenarios: data?.scenarios ?? "" } }}
        previewError={previewError}
        figures={data && (
          <EstimateFigures
            estimate={data.estimate}
            notesFirst={data.capped > 0 && <p className="text-xs text-slate-600" data-testid="estimate-capped">{fmtInt(data.capped)} scenario{data.capped === 1 ? "" : "s"} cut from 5 to {PUBLISHED_MAX_TURNS} turns.</p>}
          >
            <SummaryRow label="Scenarios" testId="estimate-scenarios">{fmtInt(data.scenarios)}</SummaryRow>
            <SummaryRow label="Episodes" strong testId="estimate-episodes">{fmtInt(data.episodes)}</SummaryRow>
            <SummaryRow label="per context" muted>{fmtInt(data.perContext)}</SummaryRow>
            <SummaryRow label="Attacker calls ≤" muted testId="estimate-attacker">{fmtInt(data.estimate.calls.attacker ?? 0)}</SummaryRow>
            <SummaryRow label="Agent calls ≤" muted testId="estimate-agent">{fmtInt(data.estimate.calls.agent)}</SummaryRow>
            <SummaryRow label="Judge calls" muted testId="estimate-judge">{fmtInt(data.estimate.calls.judge ?? 0)}</SummaryRow>
            <SummaryRow label="LLM calls ≤" strong testId="estimate-calls">{fmtInt(data.estimate.calls.total)}</SummaryRow>
          </EstimateFigures>
        )}
        assumptions={data ? { summary: "How this is estimated", items: data.estimate.assumptions } : undefined}
        submitState={submitState}
        errorTestId="sage-form-error"
        confirm={{
          text: data && <>Queue <strong>{fmtInt(data.episodes)}</strong> episodes — at most <strong>{fmtInt(data.estimate.calls.total)}</strong> LLM calls (≈ {fmtUsd(data.estimate.costUsd)})?</>,
          panelTestId: "sage-confirm-panel",
          buttonTestId: "sage-confirm",
        }}
        submit={{ label: data ? `Start run (${fmtInt(data.episodes)} episodes)…` : "Start run…", disabled: !data || data.episodes === 0 || sameModelJudges, testId: "sage-start" }}
      />
    </form>
  );
}
