// The "Trajectories" section of the new-campaign form: a filter over the imported trajectories
// (with the live count), the offline-model switch, and "all of them" or a seeded sample.
import type { OptionCount } from "@/lib/toolemu/queries/trajectory-facets";
import { MODE_LABELS, shortModel } from "@/components/toolemu/format";
import { Checkbox, Field, FormSection, NumberInput, Select, labelCls } from "@/components/ui/form";
import { fmtInt } from "@/components/ui/format";

export type SelectionKind = "filter" | "sample";

export interface SelectionPreviewData {
  matching: number;
  /** Offline-model trajectories the filter matched that the campaign leaves out. */
  offlineExcluded: number;
  strata: { agentModel: string; emulatorMode: string; count: number }[];
}

export interface SelectionValue {
  agent: string;
  mode: string;
  toolkit: string;
  includeOffline: boolean;
  kind: SelectionKind;
  sampleN: string;
  sampleSeed: string;
  stratify: boolean;
  limit: string;
}

interface Props {
  uid: string;
  totalTrajectories: number;
  facets: { agents: OptionCount[]; modes: OptionCount[]; toolkits: OptionCount[] };
  value: SelectionValue;
  onChange: (next: SelectionValue) => void;
  preview: { counting: boolean; data: SelectionPreviewData | null; error?: string };
  errors: (...keys: string[]) => string[];
}

const choice = (kind: SelectionKind, current: SelectionKind) => `rounded-lg border p-3 ${kind === current ? "border-indigo-300 bg-indigo-50/40" : "border-slate-200"}`;

export function SelectionSection({ uid, totalTrajectories, facets, value, onChange, preview, errors }: Props) {
  const set = <K extends keyof SelectionValue>(key: K) => (v: SelectionValue[K]) => onChange({ ...value, [key]: v });
  const matching = preview.data?.matching ?? null;
  const excluded = preview.counting ? 0 : (preview.data?.offlineExcluded ?? 0);
  const selectionError = errors("selection", "selection.kind", "selection.filter");
  return (
    <FormSection id={`${uid}-traj`} title="Trajectories" description={`${fmtInt(totalTrajectories)} trajectories in the database. Narrow them with a filter, then take all of them or a seeded random sample.`}>
      <div className="mt-4 grid gap-3 sm:grid-cols-3">
        <Field id={`${uid}-agent`} label="Agent model">
          {(aria) => <Select id={`${uid}-agent`} value={value.agent} onChange={set("agent")} empty="Any agent" data-testid="selection-agent" {...aria}
            options={facets.agents.map((o) => ({ value: o.value, title: o.value, label: `${shortModel(o.value)} (${fmtInt(o.count)})` }))} />}
        </Field>
        <Field id={`${uid}-mode`} label="Emulator mode">
          {(aria) => <Select id={`${uid}-mode`} value={value.mode} onChange={set("mode")} empty="Any mode" data-testid="selection-mode" {...aria}
            options={facets.modes.map((o) => ({ value: o.value, label: `${MODE_LABELS[o.value] ?? o.value} (${fmtInt(o.count)})` }))} />}
        </Field>
        <Field id={`${uid}-toolkit`} label="Toolkit">
          {(aria) => <Select id={`${uid}-toolkit`} value={value.toolkit} onChange={set("toolkit")} empty="Any toolkit" data-testid="selection-toolkit" {...aria}
            options={facets.toolkits.map((o) => ({ value: o.value, label: `${o.value} (${fmtInt(o.count)})` }))} />}
        </Field>
      </div>
      <p className="mt-3 text-sm" role="status" aria-live="polite" data-testid="selection-count">
        {preview.counting ? (
          <span className="text-slate-500">Counting matching trajectories…</span>
        ) : preview.error ? (
          <span className="text-rose-700">{preview.error}</span>
        ) : matching === 0 ? (
          <span className="text-amber-700">No trajectories match this filter — change or clear it.</span>
        ) : (
          <>
            <strong className="tabular-nums">{fmtInt(matching ?? 0)}</strong> {matching === 1 ? "trajectory matches" : "trajectories match"} this filter
            {preview.data && preview.data.strata.length > 0 && <span className="text-slate-500"> · {preview.data.strata.length} agent × mode {preview.data.strata.length === 1 ? "stratum" : "strata"}</span>}
          </>
        )}
        {excluded > 0 && (
          <span className="block text-xs text-slate-500" data-testid="offline-excluded">
            {fmtInt(excluded)} offline-model {excluded === 1 ? "trajectory is" : "trajectories are"} left out (tick below to include).
          </span>
        )}
      </p>
      <Checkbox checked={value.includeOffline} onChange={set("includeOffline")} testId="include-offline" label="Include offline-model trajectories"
        description="Trajectories the offline heuristic model (not an LLM) played or emulated read like it and un-blind the item; they are left out unless you tick this." />

      <fieldset className="mt-4">
        <legend className={labelCls}>Which of them</legend>
        <div className="mt-2 grid gap-3 md:grid-cols-2">
          <div className={choice("sample", value.kind)}>
            <label className="flex items-center gap-2 text-sm font-medium">
              <input type="radio" name="kind" value="sample" checked={value.kind === "sample"} onChange={() => set("kind")("sample")} data-testid="kind-sample" />
              A seeded random sample
            </label>
            <div className="mt-3 grid grid-cols-2 gap-3">
              <Field id={`${uid}-n`} label="Sample size N" small error={errors("selection.n")}>
                {(aria) => <NumberInput id={`${uid}-n`} type="number" min={1} value={value.sampleN} onChange={set("sampleN")} disabled={value.kind !== "sample"} data-testid="sample-n" {...aria} />}
              </Field>
              <Field id={`${uid}-sample-seed`} label="Sample seed" small error={errors("selection.seed")}>
                {(aria) => <NumberInput id={`${uid}-sample-seed`} type="number" min={0} value={value.sampleSeed} onChange={set("sampleSeed")} disabled={value.kind !== "sample"} {...aria} />}
              </Field>
            </div>
            <Checkbox checked={value.stratify} onChange={set("stratify")} disabled={value.kind !== "sample"} className="mt-3 flex items-start gap-2 text-sm"
              label="Stratify by agent model × emulator mode" description="Every stratum gets its proportional share of N." />
          </div>
          <div className={choice("filter", value.kind)}>
            <label className="flex items-center gap-2 text-sm font-medium">
              <input type="radio" name="kind" value="filter" checked={value.kind === "filter"} onChange={() => set("kind")("filter")} data-testid="kind-filter" />
              All matching trajectories
            </label>
            <Field id={`${uid}-limit`} label="Limit (optional)" small hint="With a limit, the newest imported ones are taken." error={errors("selection.limit")} className="mt-3">
              {(aria) => <NumberInput id={`${uid}-limit`} type="number" min={1} value={value.limit} onChange={set("limit")} disabled={value.kind !== "filter"} placeholder="no limit" {...aria} />}
            </Field>
          </div>
        </div>
        {selectionError.length > 0 && <p className="mt-1 text-xs text-rose-700">{selectionError.join(" ")}</p>}
      </fieldset>
    </FormSection>
  );
}
