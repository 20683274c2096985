"use client";

// The "new campaign" form. Everything typed stays in component state, so a refused submit (a
// validation error, a selection that matches nothing) keeps it all; success opens the campaign.
import { useId, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import type { CreateCampaignInput } from "@/lib/annotation/schemas";
import type { OptionCount } from "@/lib/toolemu/queries/trajectory-facets";
import { Guidelines } from "@/components/ui/guidelines";
import { Checkbox, Field, FormError, FormSection, NumberInput, SummaryRow, TextArea, TextInput, cardCls } from "@/components/ui/form";
import { LABEL_FORMS } from "@/lib/trajectory/label-schema";
import { formatLabelForm, parseLabelFormText } from "@/lib/trajectory/label-form";
import { fmtInt } from "@/components/ui/format";
import { usePreview } from "@/components/ui/use-preview";
import { AnnotatorPicker, type InvitableUserRow } from "./form/annotator-picker";
import { SelectionSection, type SelectionPreviewData, type SelectionValue } from "./form/selection-section";
import { BLANK_FORM, LabelFormSection } from "./form/label-form-section";
import { QualitySection } from "./quality/quality-section";
import { QUALITY_DRAFT, qualityFromDraft, type QualityDraft } from "./quality/quality-settings-fields";
import { SageSelection, type ItemSource, type SageOptions, type SageSelectionValue } from "./form/sage-selection";

export type { InvitableUserRow } from "./form/annotator-picker";
export type { SelectionPreviewData } from "./form/selection-section";

interface Props {
  users: InvitableUserRow[];
  facets: { agents: OptionCount[]; modes: OptionCount[]; toolkits: OptionCount[] };
  totalTrajectories: number;
  /** SAGE subcategories and episode count, for scenario and episode campaigns. */
  sage: SageOptions;
  /** A random seed chosen on the server, so server and client render the same value. */
  defaultSeed: number;
  createCampaign: (input: CreateCampaignInput) => Promise<ActionResult<{ id: string; items: number }>>;
  previewSelection: (input: { filter: Record<string, string>; includeOffline: boolean }) => Promise<ActionResult<SelectionPreviewData>>;
}

/** "" → undefined, else the number (NaN for junk, which the server refuses with a message). */
const num = (s: string): number | undefined => (s.trim() === "" ? undefined : Number(s));

export function NewCampaignForm({ users, facets, totalTrajectories, sage, defaultSeed, createCampaign, previewSelection }: Props) {
  const router = useRouter();
  const uid = useId();
  const [name, setName] = useState("");
  const [guidelines, setGuidelines] = useState("");
  const [k, setK] = useState("3");
  const [invited, setInvited] = useState<Set<string>>(new Set());
  const [sel, setSel] = useState<SelectionValue>({ agent: "", mode: "", toolkit: "", includeOffline: false, kind: "sample", sampleN: "20", sampleSeed: String(defaultSeed), stratify: true, limit: "" });
  const [pseudonymize, setPseudonymize] = useState(false);
  const [redactModelNames, setRedactModelNames] = useState(false);
  const [quality, setQuality] = useState<QualityDraft>(QUALITY_DRAFT);
  const [seed, setSeed] = useState("");
  const [labelForm, setLabelFormId] = useState<string>("toolemu");
  const [customText, setCustomText] = useState(() => formatLabelForm(BLANK_FORM));
  const [source, setSource] = useState<ItemSource>("trajectories");
  const [sageSel, setSageSel] = useState<SageSelectionValue>({ subcategory: "", n: "", seed: String(defaultSeed) });
  // A built-in SAGE form says what it labels: picking it picks that source.
  const setLabelForm = (id: string) => {
    setLabelFormId(id);
    const items = LABEL_FORMS.find((f) => f.id === id)?.items;
    if (items) setSource(items);
  };
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const errorRef = useRef<HTMLParagraphElement>(null);

  const { agent, mode, toolkit, includeOffline } = sel;
  const filter = useMemo(() => {
    const f: Record<string, string> = {};
    if (agent) f.agent = agent;
    if (mode) f.mode = mode;
    if (toolkit) f.toolkit = toolkit;
    return f;
  }, [agent, mode, toolkit]);
  // The live count of matching trajectories; a late answer for an older filter is ignored.
  const preview = usePreview(previewSelection, { filter, includeOffline }, JSON.stringify([filter, includeOffline]), "Could not count the matching trajectories.");

  const matching = preview.counting ? null : (preview.data?.matching ?? null);
  const kNum = num(k);
  const sagePool = source === "scenarios" ? (sageSel.subcategory ? (sage.subcategories.find((s) => s.key === sageSel.subcategory)?.scenarios ?? 0) : sage.subcategories.reduce((a, s) => a + s.scenarios, 0)) : sage.episodes;
  const items =
    source !== "trajectories" ? Math.min(sagePool, num(sageSel.n) ?? sagePool)
    : matching === null ? null : sel.kind === "filter" ? Math.min(matching, num(sel.limit) || matching) : Math.min(matching, num(sel.sampleN) ?? 0);
  const needed = items !== null && kNum ? items * kNum : null;
  const perAnnotator = needed !== null && invited.size > 0 ? Math.ceil(needed / invited.size) : null;

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setPending(true);
    setError(null);
    let customForm: unknown;
    if (labelForm === "custom") {
      const checked = parseLabelFormText(customText);
      if (!checked.ok) {
        setPending(false);
        setError(`The custom form has problems: ${checked.issues.map((i) => `${i.path || "form"}: ${i.message}`).join("; ")}`);
        requestAnimationFrame(() => errorRef.current?.focus());
        return;
      }
      customForm = checked.schema;
    }
    const qualityParsed = qualityFromDraft(quality);
    if (!qualityParsed.ok) {
      setPending(false);
      setError("Please fix the annotator-quality settings (marked in their section).");
      requestAnimationFrame(() => errorRef.current?.focus());
      return;
    }
    const sageN = num(sageSel.n);
    const selection: CreateCampaignInput["selection"] =
      source === "scenarios" ? { kind: "scenarios", subcategories: sageSel.subcategory ? [sageSel.subcategory] : [], ...(sageN !== undefined ? { n: sageN } : {}), seed: num(sageSel.seed) ?? 0 }
      : source === "sage-episodes" ? { kind: "sage-episodes", ...(sageN !== undefined ? { n: sageN } : {}), seed: num(sageSel.seed) ?? 0 }
      : sel.kind === "filter"
        ? { kind: "filter", filter, ...(num(sel.limit) !== undefined ? { limit: num(sel.limit) } : {}) }
        : { kind: "sample", filter, n: num(sel.sampleN) as number, seed: num(sel.sampleSeed) as number, stratify: sel.stratify };
    const res = await createCampaign({
      name,
      guidelines,
      k: kNum as number,
      ...(num(seed) !== undefined ? { seed: num(seed) } : {}),
      pseudonymize,
      includeOffline,
      redactModelNames,
      annotatorIds: users.filter((u) => invited.has(u.id)).map((u) => u.id),
      selection,
      labelForm: labelForm as CreateCampaignInput["labelForm"],
      ...(customForm !== undefined ? { customForm } : {}),
      quality: qualityParsed.value,
    });
    if (res.ok) {
      router.push(`/campaigns/${res.data.id}`);
      return; // stay "pending" while the campaign page loads
    }
    setPending(false);
    const fields = res.fieldErrors ?? {};
    setFieldErrors(fields);
    // Validation errors are shown at their fields; the summary repeats them without zod's paths.
    const messages = [...new Set(Object.values(fields).flat())];
    setError(messages.length ? `Please fix: ${messages.join(" ")}` : res.error);
    requestAnimationFrame(() => errorRef.current?.focus());
  }

  const errors = (...keys: string[]) => keys.flatMap((key) => fieldErrors[key] ?? []);

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New campaign" className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]" data-testid="new-campaign-form">
      <div className="min-w-0 space-y-6">
        <FormSection id={`${uid}-about`} title="About">
          <div className="mt-4 space-y-4">
            <Field id={`${uid}-name`} label="Name" error={errors("name")}>
              {(aria) => <TextInput id={`${uid}-name`} name="name" value={name} onChange={setName} required maxLength={200} placeholder="e.g. Pilot: Qwen agents, adversarial emulator" {...aria} />}
            </Field>
            <Field id={`${uid}-guidelines`} label="Guidelines" hintFirst error={errors("guidelines")}
              hint="Shown to annotators beside the form and before their first item. Markdown subset: # headings, - lists, **bold**, *italic*, `code`, [links](https://…).">
              {(aria) => (
                <div className="mt-2 grid gap-3 md:grid-cols-2">
                  <TextArea id={`${uid}-guidelines`} name="guidelines" value={guidelines} onChange={setGuidelines} rows={12} maxLength={50_000} {...aria}
                    className="mt-0 font-mono text-xs leading-relaxed" placeholder={"# How to label\n\n- Judge the tool calls the agent actually made.\n- **Safety**: …"} />
                  <div className="min-h-40 rounded-md border border-dashed border-slate-300 bg-slate-50/60 p-3" aria-label="Guidelines preview" role="region">
                    <p className="mb-2 text-[11px] font-medium uppercase tracking-wide text-slate-500">Preview</p>
                    <Guidelines text={guidelines} empty="Nothing written yet." testId="guidelines-preview" />
                  </div>
                </div>
              )}
            </Field>
          </div>
        </FormSection>

        <LabelFormSection uid={uid} labelForm={labelForm} onLabelForm={setLabelForm} customText={customText} onCustomText={setCustomText} errors={errors} />
        <SageSelection uid={uid} source={source} onSource={setSource} sage={sage} value={sageSel} onChange={setSageSel} errors={errors} />
        {source === "trajectories" && <SelectionSection uid={uid} totalTrajectories={totalTrajectories} facets={facets} value={sel} onChange={setSel} preview={preview} errors={errors} />}
        <AnnotatorPicker uid={uid} users={users} k={k} onK={setK} kNum={kNum} invited={invited} onInvited={setInvited} errors={errors} />

        <QualitySection uid={uid} value={quality} onChange={setQuality} />

        <FormSection id={`${uid}-options`} title="Options">
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <Checkbox className="flex items-start gap-2 text-sm" checked={pseudonymize} onChange={setPseudonymize} testId="pseudonymize"
              label="Pseudonymize annotators in exports" description="Exports name annotators A1, A2, … instead of their user ids." />
            <Checkbox className="flex items-start gap-2 text-sm" checked={redactModelNames} onChange={setRedactModelNames} testId="redact-model-names"
              label="Redact model self-identification"
              description={<>Annotators see [model] wherever a thought, action, observation or final answer names a known model or endpoint (e.g. an agent writing &quot;As Qwen, I…&quot;).</>} />
            <Field id={`${uid}-seed`} label="Campaign seed (optional)" hint="Seeds each annotator's item order; recorded with the campaign." error={errors("seed")}>
              {(aria) => <NumberInput id={`${uid}-seed`} type="number" min={0} value={seed} onChange={setSeed} placeholder="random" {...aria} />}
            </Field>
          </div>
        </FormSection>
      </div>

      <aside className="lg:sticky lg:top-4 lg:self-start">
        <div className={`${cardCls} space-y-3`} aria-labelledby={`${uid}-summary`}>
          <h2 id={`${uid}-summary`} className="text-base font-semibold">Summary</h2>
          <dl className="space-y-1.5 text-sm" data-testid="campaign-summary">
            <SummaryRow className="gap-2 [&_dd]:font-medium" label={source === "scenarios" ? "Scenarios" : source === "sage-episodes" ? "SAGE episodes" : "Trajectories"}>{items === null ? "…" : fmtInt(items)}</SummaryRow>
            <SummaryRow className="gap-2 [&_dd]:font-medium" label="Annotators per trajectory">{kNum ?? "—"}</SummaryRow>
            <SummaryRow className="gap-2 [&_dd]:font-medium" label="Labels needed">{needed === null ? "…" : fmtInt(needed)}</SummaryRow>
            <SummaryRow className={`gap-2 [&_dd]:font-medium ${kNum && invited.size < kNum ? "[&_dd]:text-amber-700" : ""}`} label="Invited">{invited.size}</SummaryRow>
            <SummaryRow className="gap-2 [&_dd]:font-medium" label="≈ labels per person">{perAnnotator === null ? "—" : fmtInt(perAnnotator)}</SummaryRow>
          </dl>
          {kNum && invited.size < kNum ? <p className="text-xs text-amber-700">Invite at least {kNum} people.</p> : null}
          <FormError message={error} testId="form-error" errorRef={errorRef} className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 focus:outline-none" />
          <button type="submit" disabled={pending} className="w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-60" data-testid="create-campaign">
            {pending ? "Creating…" : "Create campaign"}
          </button>
        </div>
      </aside>
    </form>
  );
}
