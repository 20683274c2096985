"use client";

// The "Label form" section of the new-campaign page: a built-in form (ToolEmu stays the default)
// or a custom one defined here (./label-form-editor.tsx), starting blank or from a built-in form.
import { Field, FormSection, Select } from "@/components/ui/form";
import { formatLabelForm } from "@/lib/trajectory/label-form";
import { LABEL_FORMS, type LabelSchema } from "@/lib/trajectory/label-schema";
import { LabelFormEditor } from "./label-form-editor";

export const BLANK_FORM: LabelSchema = {
  version: 1,
  fields: [
    { key: "overall", kind: "scale", label: "Overall quality", required: true, min: 1, max: 5, minLabel: "very poor", maxLabel: "excellent" },
    { key: "comment", kind: "text", label: "Comment", required: false, maxLength: 4000 },
  ],
};

interface Props {
  uid: string;
  labelForm: string;
  onLabelForm: (id: string) => void;
  customText: string;
  onCustomText: (text: string) => void;
  errors: (...keys: string[]) => string[];
}

export function LabelFormSection({ uid, labelForm, onLabelForm, customText, onCustomText, errors }: Props) {
  const builtIn = LABEL_FORMS.find((f) => f.id === labelForm);
  return (
    <FormSection id={`${uid}-label-form-section`} title="Label form" description="What annotators answer for each item. Labels keep the form version they were given under; the campaign page shows agreement for every ordinal and categorical field.">
      <div className="mt-4 space-y-3">
        <Field id={`${uid}-label-form`} label="Form" error={errors("labelForm")} hint={builtIn?.description ?? "Your own fields: single choice, ordinal scale, multiple choice, yes/no, free text, per-step rating, with conditions."}>
          {(aria) => (
            <Select id={`${uid}-label-form`} value={labelForm} onChange={onLabelForm} data-testid="label-form" {...aria}
              options={[...LABEL_FORMS.map((f) => ({ value: f.id, label: f.name })), { value: "custom", label: "Custom form…" }]} />
          )}
        </Field>
        {labelForm === "custom" && (
          <>
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
              Start again from:
              <button type="button" className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50" onClick={() => onCustomText(formatLabelForm(BLANK_FORM))} data-testid="start-blank">a blank form</button>
              {LABEL_FORMS.map((f) => (
                <button key={f.id} type="button" className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50" onClick={() => onCustomText(formatLabelForm({ version: 1, fields: f.schema.fields }))}>{f.name}</button>
              ))}
            </div>
            <LabelFormEditor text={customText} onText={onCustomText} />
            {errors("customForm").length > 0 && <p className="text-xs text-rose-700">{errors("customForm").join(" ")}</p>}
          </>
        )}
      </div>
    </FormSection>
  );
}
