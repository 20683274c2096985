"use client";

// The "Online critic gate" section of the new-run form (issue 13 item 7; off by default). With it
// on, every valid call of a critical tool is first judged by a critic on what the agent did so far;
// a flagged call (p̄ ≤ τ, or an unreadable critic answer) waits for an answer in the
// interventions queue, or is answered at once by the simulated user.
import { CRITIC_METHOD_LABELS, CRITIC_METHODS, type CriticMethodName } from "@/lib/critic/settings";
import type { CriticGateInput } from "@/lib/runs/schemas";
import { Checkbox, Field, FormSection, NumberInput, Select } from "@/components/ui/form";
import { EndpointSelect, type EndpointChoice } from "./endpoint-select";

export interface GatePick {
  on: boolean;
  endpointId: string;
  method: CriticMethodName;
  tau: string;
  orderAveraging: boolean;
  mask: boolean;
  answerer: "human" | "simulated";
  simulatedUserEndpointId: string;
  maxTrials: string;
}

export const defaultGatePick = (endpointId: string): GatePick => ({
  on: false,
  endpointId,
  method: "INFERACT",
  tau: "0.5",
  orderAveraging: true,
  mask: false,
  answerer: "human",
  simulatedUserEndpointId: endpointId,
  maxTrials: "1",
});

/** The run input's `critic` from the section's state: null when the gate is off. */
export function gateInput(g: GatePick): { gate: CriticGateInput } | null {
  if (!g.on) return null;
  const tau = g.tau.trim() === "" ? Number.NaN : Number(g.tau);
  return {
    gate: {
      endpointId: g.endpointId,
      settings: { method: g.method, tau, orderAveraging: g.orderAveraging, maskInstructionStrings: g.mask },
      answerer: g.answerer,
      ...(g.answerer === "simulated" ? { simulatedUserEndpointId: g.simulatedUserEndpointId } : {}),
      maxTrials: Number(g.maxTrials),
    },
  };
}

const ANSWERERS = [
  { value: "human", label: "A person (interventions queue)" },
  { value: "simulated", label: "The simulated user (unattended)" },
];
const TRIALS = [
  { value: "1", label: "1 — one retry with the feedback" },
  { value: "2", label: "2 retries" },
  { value: "3", label: "3 retries (InferAct's trials)" },
];

export function CriticGateSection({ uid, endpoints, value, onChange }: { uid: string; endpoints: EndpointChoice[]; value: GatePick; onChange: (next: GatePick) => void }) {
  const set = <K extends keyof GatePick>(k: K) => (v: GatePick[K]) => onChange({ ...value, [k]: v });
  return (
    <FormSection
      id={`${uid}-gate`}
      title="Online critic gate"
      description="Before a critical tool call runs (the toolkit's risk metadata, curated or by the default rule, plus the case's own critical tools), a critic judges what the agent did so far — its actions, inputs and observations, never its thoughts. A call it flags waits for an answer: approved, it runs; rejected, the agent is told the user blocked it (with the written feedback)."
    >
      <Checkbox checked={value.on} onChange={set("on")} testId="gate-on" label="Gate critical tool calls" description="Off by default. The critic's calls are counted on its assessments, not in this estimate." />
      {value.on && (
        <div className="mt-4 grid gap-4 sm:grid-cols-2" data-testid="gate-settings">
          <Field id={`${uid}-gate-endpoint`} label="Critic endpoint">
            {(aria) => <EndpointSelect id={`${uid}-gate-endpoint`} endpoints={endpoints} value={value.endpointId} onChange={set("endpointId")} testId="gate-endpoint" aria={aria} />}
          </Field>
          <Field id={`${uid}-gate-method`} label="Method" hint="InferAct: infer 3 tasks from the actions, then find the real request among them (A–E) in both orders; 3 calls per gated call.">
            {(aria) => <Select id={`${uid}-gate-method`} value={value.method} onChange={(v) => set("method")(v as CriticMethodName)} options={CRITIC_METHODS.map((m) => ({ value: m, label: CRITIC_METHOD_LABELS[m] }))} data-testid="gate-method" {...aria} />}
          </Field>
          <Field id={`${uid}-gate-tau`} label="τ (threshold)" hint="A call passes iff the critic's probability that the agent serves the real request is above τ; at or below it (or when the critic's answer cannot be read) the call is flagged.">
            {(aria) => <NumberInput decimal id={`${uid}-gate-tau`} value={value.tau} onChange={set("tau")} data-testid="gate-tau" {...aria} />}
          </Field>
          <div>
            <Checkbox checked={value.orderAveraging} onChange={set("orderAveraging")} label="Order averaging" description="Ask in both option orders and average (off: one call fewer)." />
            <Checkbox checked={value.mask} onChange={set("mask")} label="Mask copied arguments" description="Hide argument strings copied verbatim from the request." />
          </div>
          <Field id={`${uid}-gate-answerer`} label="Who answers a flagged call" hint="A person: the episode pauses (it holds no worker slot) until someone with the intervention permission answers. The simulated user: a model given the case's expected achievements answers at once.">
            {(aria) => <Select id={`${uid}-gate-answerer`} value={value.answerer} onChange={(v) => set("answerer")(v as GatePick["answerer"])} options={ANSWERERS} data-testid="gate-answerer" {...aria} />}
          </Field>
          {value.answerer === "simulated" ? (
            <Field id={`${uid}-gate-sim`} label="Simulated user endpoint">
              {(aria) => <EndpointSelect id={`${uid}-gate-sim`} endpoints={endpoints} value={value.simulatedUserEndpointId} onChange={set("simulatedUserEndpointId")} testId="gate-simulated-endpoint" aria={aria} />}
            </Field>
          ) : (
            <div />
          )}
          <Field id={`${uid}-gate-trials`} label="Feedback trials" hint="An attempt that a rejection with written feedback kept from succeeding is played again, with every earlier feedback in the agent's prompt, at most this many times. Success = a final answer with no rejected call.">
            {(aria) => <Select id={`${uid}-gate-trials`} value={value.maxTrials} onChange={set("maxTrials")} options={TRIALS} data-testid="gate-trials" {...aria} />}
          </Field>
        </div>
      )}
    </FormSection>
  );
}
