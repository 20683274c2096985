"use client";

// The annotator-quality settings of a campaign as form fields, in percent. Used by the new-campaign
// form (its own section) and by the campaign's quality page. The values are kept as typed; the
// parent turns them into settings with qualityFromDraft.
import { useId } from "react";
import { Checkbox, Field, NumberInput } from "@/components/ui/form";

export interface QualityDraft {
  goldPercent: string;
  qualificationItems: string;
  passPercent: string;
  blindAdjudication: boolean;
}

export const QUALITY_DRAFT: QualityDraft = { goldPercent: "0", qualificationItems: "0", passPercent: "80", blindAdjudication: false };

export function draftFromSettings(s: { goldRate: number; qualificationItems: number; qualificationPass: number; blindAdjudication: boolean }): QualityDraft {
  return { goldPercent: String(Math.round(s.goldRate * 1000) / 10), qualificationItems: String(s.qualificationItems), passPercent: String(Math.round(s.qualificationPass * 1000) / 10), blindAdjudication: s.blindAdjudication };
}

/** Settings from the typed values, or the problems per field. */
export function qualityFromDraft(d: QualityDraft): { ok: true; value: { goldRate: number; qualificationItems: number; qualificationPass: number; blindAdjudication: boolean } } | { ok: false; errors: Partial<Record<keyof QualityDraft, string>> } {
  const errors: Partial<Record<keyof QualityDraft, string>> = {};
  const gold = Number(d.goldPercent);
  const items = Number(d.qualificationItems);
  const pass = Number(d.passPercent);
  if (!d.goldPercent.trim() || !Number.isFinite(gold) || gold < 0 || gold > 50) errors.goldPercent = "A share from 0 to 50 %.";
  if (!d.qualificationItems.trim() || !Number.isInteger(items) || items < 0 || items > 50) errors.qualificationItems = "A whole number from 0 to 50.";
  if (!d.passPercent.trim() || !Number.isFinite(pass) || pass < 0 || pass > 100) errors.passPercent = "A share from 0 to 100 %.";
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, value: { goldRate: gold / 100, qualificationItems: items, qualificationPass: pass / 100, blindAdjudication: d.blindAdjudication } };
}

export function QualitySettingsFields({ value, onChange, errors = {} }: { value: QualityDraft; onChange: (v: QualityDraft) => void; errors?: Partial<Record<keyof QualityDraft, string>> }) {
  const uid = useId();
  const set = <K extends keyof QualityDraft>(k: K, v: QualityDraft[K]) => onChange({ ...value, [k]: v });
  const gold = Number(value.goldPercent);
  const every = gold > 0 && gold <= 50 ? Math.max(2, Math.round(100 / gold)) : null;
  return (
    <div className="grid gap-4 sm:grid-cols-3" data-testid="quality-settings">
      <Field id={`${uid}-gold`} label="Gold items (%)" error={errors.goldPercent}
        hint={every ? `One gold item in every ${every} items each annotator gets (a seeded place in each block), while real items remain.` : "Known-answer items mixed in, never marked as such. 0 = none."}>
        {(aria) => <NumberInput id={`${uid}-gold`} decimal value={value.goldPercent} onChange={(v) => set("goldPercent", v)} {...aria} data-testid="quality-gold-percent" />}
      </Field>
      <Field id={`${uid}-qual`} label="Qualification items" error={errors.qualificationItems}
        hint="Gold items every annotator answers before any real item (announced as a qualification round). 0 = no round.">
        {(aria) => <NumberInput id={`${uid}-qual`} value={value.qualificationItems} onChange={(v) => set("qualificationItems", v)} {...aria} data-testid="quality-qualification-items" />}
      </Field>
      <Field id={`${uid}-pass`} label="Pass mark (%)" error={errors.passPercent}
        hint="Share of the round's answers (choice and yes/no fields) that must match the gold answers. Below it: no real items.">
        {(aria) => <NumberInput id={`${uid}-pass`} decimal value={value.passPercent} onChange={(v) => set("passPercent", v)} {...aria} data-testid="quality-pass-percent" />}
      </Field>
      <Checkbox className="flex items-start gap-2 text-sm sm:col-span-3" checked={value.blindAdjudication} onChange={(v) => set("blindAdjudication", v)} testId="quality-blind-adjudication"
        label="Blind adjudication" description="Adjudicators see “Annotator 1, 2, …” instead of names; every adjudication records that it was blind." />
    </div>
  );
}
