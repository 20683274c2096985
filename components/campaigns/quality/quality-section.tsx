"use client";

// The new-campaign form's "Annotator quality" section (gold items, qualification round, blind
// adjudication). Gold items themselves are added on the campaign's quality page once it exists.
import { FormSection } from "@/components/ui/form";
import { QualitySettingsFields, qualityFromDraft, type QualityDraft } from "./quality-settings-fields";

export function QualitySection({ uid, value, onChange }: { uid: string; value: QualityDraft; onChange: (v: QualityDraft) => void }) {
  const parsed = qualityFromDraft(value);
  return (
    <FormSection id={`${uid}-quality`} title="Annotator quality" description="Gold items and the qualification round use the gold items you add on the campaign's “Gold & qualification” page after creating it; until then annotators get real items only.">
      <div className="mt-4"><QualitySettingsFields value={value} onChange={onChange} errors={parsed.ok ? {} : parsed.errors} /></div>
    </FormSection>
  );
}
