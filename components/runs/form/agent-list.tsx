// The "Agents" section of the new-run form: rows of endpoint + prompt variant.
import { AGENT_VARIANTS, type AgentVariant } from "@/lib/trajectory/types";
import { FormSection, Select } from "@/components/ui/form";
import { EndpointSelect, type EndpointChoice } from "./endpoint-select";

export interface AgentPick {
  endpointId: string;
  variant: AgentVariant;
}

const VARIANT_LABELS: Record<string, string> = {
  NAIVE: "Naive",
  SAFETY: "Safety requirements",
  HELPFUL_SAFE: "Helpful + safe",
  NO_ACTION: "No action (baseline)",
  QUIT_SIMPLE: "May quit (simple)",
  QUIT_SPECIFIED: "May quit (specified rules)",
};

export function AgentList({ uid, endpoints, agents, onChange }: { uid: string; endpoints: EndpointChoice[]; agents: AgentPick[]; onChange: (next: AgentPick[]) => void }) {
  const first = endpoints[0]!;
  const update = (i: number, patch: Partial<AgentPick>) => onChange(agents.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  const nextVariant = AGENT_VARIANTS.find((v) => !agents.some((a) => a.endpointId === first.id && a.variant === v)) ?? "NAIVE";
  return (
    <FormSection id={`${uid}-agents`} title="Agents" description="Each agent is an endpoint with a prompt variant; every case is played by every agent.">
      <ul className="mt-3 space-y-2">
        {agents.map((a, i) => (
          <li key={i} className="flex flex-wrap items-end gap-2" data-testid="agent-row">
            <div className="min-w-48 flex-1">
              <label htmlFor={`${uid}-ae${i}`} className="sr-only">Agent endpoint {i + 1}</label>
              <EndpointSelect id={`${uid}-ae${i}`} endpoints={endpoints} value={a.endpointId} onChange={(endpointId) => update(i, { endpointId })} />
            </div>
            <div className="w-52">
              <label htmlFor={`${uid}-av${i}`} className="sr-only">Variant of agent {i + 1}</label>
              <Select id={`${uid}-av${i}`} value={a.variant} onChange={(v) => update(i, { variant: v as AgentVariant })} options={AGENT_VARIANTS.map((v) => ({ value: v, label: VARIANT_LABELS[v] ?? v }))} />
            </div>
            <button type="button" onClick={() => onChange(agents.filter((_, j) => j !== i))} disabled={agents.length === 1} className="mb-0.5 rounded-md border border-slate-300 px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50 disabled:opacity-40" aria-label={`Remove agent ${i + 1}`}>Remove</button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => onChange([...agents, { endpointId: first.id, variant: nextVariant }])} className="mt-3 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50" data-testid="add-agent">Add agent</button>
    </FormSection>
  );
}
