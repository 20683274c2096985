"use client";

// The "new run" form. The number of episodes and the estimate (LLM calls, tokens, cost) follow
// every change (debounced server preview); "Create run" asks for a second, explicit confirmation
// that repeats those figures before anything is queued.
import { useId, useMemo, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { RunInput } from "@/lib/runs/schemas";
import type { RunEstimate } from "@/lib/runs/estimate";
import type { RunFormOptions } from "@/lib/runs/queries";
import { EMULATOR_MODES } from "@/lib/trajectory/types";
import { CheckboxSet, Field, FormSection, NumberInput, Select, SummaryRow, TextArea, TextInput, labelCls } from "@/components/ui/form";
import { fmtInt, fmtUsd } from "@/components/ui/format";
import { usePreview } from "@/components/ui/use-preview";
import { AgentList, type AgentPick } from "./form/agent-list";
import { CasePicker, type CasePick } from "./form/case-picker";
import { CriticGateSection, defaultGatePick, gateInput, type GatePick } from "./form/critic-gate";
import { EndpointSelect } from "./form/endpoint-select";
import { EstimateAside, EstimateFigures } from "./form/estimate-aside";
import { useConfirmSubmit } from "./form/use-confirm-submit";

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

const num = (s: string): number | undefined => (s.trim() === "" ? undefined : Number(s));

const CRITIQUE_ROUNDS = [
  { value: "0", label: "0 — off (ToolEmu's default)" },
  { value: "1", label: "1 round" },
  { value: "2", label: "2 rounds" },
  { value: "3", label: "3 rounds" },
];
const LOOP_MODES = [
  { value: "TOOLEMU", label: "ToolEmu-compatible (default)" },
  { value: "STRICT", label: "Strict" },
];

function casesInput(c: CasePick): RunInput["cases"] {
  if (c.kind === "all") return { kind: "all" };
  if (c.kind === "toolkits") return { kind: "toolkits", toolkits: [...c.toolkits] };
  if (c.kind === "filter") return { kind: "filter", ...(c.q.trim() ? { q: c.q.trim() } : {}), ...(c.filterToolkit ? { toolkit: c.filterToolkit } : {}) };
  return { kind: "sample", size: num(c.sampleN) as number, seed: num(c.sampleSeed) as number };
}

export function NewRunForm({ options, defaultSeed, createRun, previewRun }: Props) {
  const uid = useId();
  const first = options.endpoints[0]!;
  const [name, setName] = useState("");
  const [notes, setNotes] = useState("");
  const [cases, setCases] = useState<CasePick>({ kind: "all", toolkits: new Set(), q: "", filterToolkit: "", sampleN: "20", sampleSeed: String(defaultSeed) });
  const [agents, setAgents] = useState<AgentPick[]>([{ endpointId: first.id, variant: "NAIVE" }]);
  const [emulator, setEmulator] = useState(first.id);
  const [modes, setModes] = useState<Set<(typeof EMULATOR_MODES)[number]>>(new Set(EMULATOR_MODES));
  const [evaluator, setEvaluator] = useState(first.id);
  const [repeats, setRepeats] = useState("1");
  const [critiqueRounds, setCritiqueRounds] = useState("0");
  const [loopMode, setLoopMode] = useState<"TOOLEMU" | "STRICT">("TOOLEMU");
  const [seed, setSeed] = useState(String(defaultSeed));
  const [gate, setGate] = useState<GatePick>(() => defaultGatePick(first.id));

  const payload: RunInput = useMemo(() => ({
    name: name.trim() || "(preview)",
    notes,
    cases: casesInput(cases),
    agents,
    emulatorEndpointId: emulator,
    modes: EMULATOR_MODES.filter((m) => modes.has(m)),
    evaluatorEndpointId: evaluator || null,
    repeats: num(repeats) as number,
    emulatorCritiqueRounds: Number(critiqueRounds),
    loopMode,
    ...(num(seed) !== undefined ? { seed: num(seed) } : {}),
    critic: gateInput(gate),
  }), [cases, name, notes, agents, emulator, modes, evaluator, repeats, critiqueRounds, loopMode, seed, gate]);
  // The estimate does not depend on the name, notes or seed.
  const previewKey = JSON.stringify({ ...payload, name: "", notes: "", seed: 0 });
  const { data, error: previewError } = usePreview(previewRun, payload, previewKey, "Could not estimate the run.", 250);
  const submitState = useConfirmSubmit(() => createRun(payload), () => (name.trim() ? null : "Give the run a name."));
  const { onSubmit, wrap } = submitState;
  const endpointName = (id: string) => options.endpoints.find((e) => e.id === id)?.name ?? id;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New run" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" data-testid="new-run-form">
      <div className="min-w-0 space-y-6">
        <FormSection id={`${uid}-about`} title="About">
          <div className="mt-4 grid gap-4">
            <Field id={`${uid}-name`} label="Name">
              {(aria) => <TextInput id={`${uid}-name`} value={name} onChange={wrap(setName)} maxLength={200} placeholder="e.g. Offline baseline, all cases, both modes" data-testid="run-name" {...aria} />}
            </Field>
            <Field id={`${uid}-notes`} label="Notes" optional>
              {(aria) => <TextArea id={`${uid}-notes`} value={notes} onChange={setNotes} rows={2} maxLength={10_000} {...aria} />}
            </Field>
          </div>
        </FormSection>

        <CasePicker uid={uid} totalCases={options.totalCases} toolkits={options.toolkits} value={cases} onChange={wrap(setCases)} />
        <AgentList uid={uid} endpoints={options.endpoints} agents={agents} onChange={wrap(setAgents)} />

        <FormSection id={`${uid}-emu`} title="Emulator and evaluator">
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <Field id={`${uid}-emulator`} label="Emulator endpoint">
              {(aria) => <EndpointSelect id={`${uid}-emulator`} endpoints={options.endpoints} withModel={false} value={emulator} onChange={wrap(setEmulator)} aria={aria} />}
            </Field>
            <fieldset>
              <legend className={labelCls}>Emulator modes</legend>
              <div className="mt-2 flex gap-4 text-sm">
                <CheckboxSet values={EMULATOR_MODES} selected={modes} onChange={wrap(setModes)} label={(m) => (m === "STANDARD" ? "Standard" : "Adversarial")} testId={(m) => `mode-${m}`} />
              </div>
            </fieldset>
            <Field id={`${uid}-evaluator`} label="Evaluator endpoint" hint="Safety and helpfulness, 0–3.">
              {(aria) => <EndpointSelect id={`${uid}-evaluator`} endpoints={options.endpoints} withModel={false} none="No evaluation" value={evaluator} onChange={wrap(setEvaluator)} aria={aria} />}
            </Field>
            <div className="grid grid-cols-2 gap-3">
              <Field id={`${uid}-repeats`} label="Repeats">{(aria) => <NumberInput id={`${uid}-repeats`} value={repeats} onChange={wrap(setRepeats)} data-testid="repeats" {...aria} />}</Field>
              <Field id={`${uid}-seed`} label="Seed">{(aria) => <NumberInput id={`${uid}-seed`} value={seed} onChange={setSeed} {...aria} />}</Field>
            </div>
            <Field id={`${uid}-critique`} label="Emulator self-critique rounds" hint="After each valid observation, the emulator critiques it (input validity, realism, accuracy, consistency; adversarial: the stress test) and revises it. Each round is one more emulator call per tool step, counted in the estimate.">
              {(aria) => <Select id={`${uid}-critique`} value={critiqueRounds} onChange={wrap(setCritiqueRounds)} options={CRITIQUE_ROUNDS} data-testid="self-critique-rounds" {...aria} />}
            </Field>
            <Field id={`${uid}-loop`} label="Loop rules" hint="ToolEmu-compatible: a Final Answer ends the episode even after an Action (flagged), emulator outputs are passed on as they are (problems flagged on the step). Strict: such an Action is executed, and an unusable emulator output is critiqued and re-asked, then replaced by an error.">
              {(aria) => <Select id={`${uid}-loop`} value={loopMode} onChange={(v) => wrap(setLoopMode)(v as "TOOLEMU" | "STRICT")} options={LOOP_MODES} data-testid="loop-mode" {...aria} />}
            </Field>
          </div>
        </FormSection>

        <CriticGateSection uid={uid} endpoints={options.endpoints} value={gate} onChange={wrap(setGate)} />
      </div>

      <EstimateAside
        id={`${uid}-est`}
        title="This run"
        estimate={{ testId: "run-estimate", data: { episodes: data?.episodes ?? "" } }}
        previewError={previewError}
        figures={data && (
          <EstimateFigures estimate={data.estimate}>
            <SummaryRow label="Cases">{fmtInt(data.cases)}</SummaryRow>
            <SummaryRow label="Episodes" strong testId="estimate-episodes">{fmtInt(data.episodes)}</SummaryRow>
            <SummaryRow label="LLM calls" testId="estimate-calls">≈ {fmtInt(data.estimate.calls.total)}</SummaryRow>
            <SummaryRow label="agent / emulator / evaluator" muted>{fmtInt(data.estimate.calls.agent)} / {fmtInt(data.estimate.calls.emulator)} / {fmtInt(data.estimate.calls.evaluator)}</SummaryRow>
          </EstimateFigures>
        )}
        assumptions={data ? { summary: `How this is estimated (${data.estimate.stepsPerEpisode} steps per episode)`, items: data.estimate.assumptions } : undefined}
        submitState={submitState}
        errorTestId="run-form-error"
        confirm={{
          text: data && <>Queue <strong>{fmtInt(data.episodes)}</strong> episodes (≈ {fmtInt(data.estimate.calls.total)} LLM calls, ≈ {fmtUsd(data.estimate.costUsd)}) for {agents.map((a) => endpointName(a.endpointId)).join(", ")}?</>,
          panelTestId: "confirm-panel",
          buttonTestId: "confirm-run",
        }}
        submit={{ label: data ? `Create run (${fmtInt(data.episodes)} episodes)…` : "Create run…", disabled: !data || data.episodes === 0, testId: "create-run" }}
      />
    </form>
  );
}
