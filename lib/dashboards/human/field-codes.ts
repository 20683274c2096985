// How each label-form field kind becomes numbers the agreement metrics can read (issue 18 item 6):
// which fields are ordinal (weighted κ, α ordinal / interval) or categorical (κ, α nominal), what
// a unit is (the item; for per-step kinds each (item, step); for a multiple choice each option as
// its own yes/no sub-field), and the code of each value. Pure: no database.
import { multiValues, scaleValues, stepAnswers, type LabelField } from "@/lib/trajectory/label-schema";

export type FieldScale = "ordinal" | "categorical";

/** One measurable thing of a form: a field, or one option of a multiple-choice field. */
export interface MeasuredField {
  /** The field key, or key=option for a multiple-choice option. */
  id: string;
  fieldKey: string;
  label: string;
  kind: LabelField["kind"];
  scale: FieldScale;
  perStep: boolean;
  /** The ordered codes (κ's label set) and their names. */
  codes: number[];
  names: string[];
  /** A value of the field → one code per unit part (index = step for per-step kinds; [x] otherwise). null = not answered. */
  code: (value: unknown) => (number | null)[];
}

const single = (c: number | null | undefined): (number | null)[] => [c ?? null];

/** The measurable parts of a form's fields (text fields have none). */
export function measuredFields(fields: readonly LabelField[]): MeasuredField[] {
  const out: MeasuredField[] = [];
  for (const f of fields) {
    const base = { fieldKey: f.key, kind: f.kind };
    switch (f.kind) {
      case "choice": {
        // Ordinal when every option has a score (safety and helpfulness 0–3); then options sharing a score are one code.
        const scored = f.options.every((o) => typeof o.score === "number");
        if (scored) {
          const scores = [...new Set(f.options.map((o) => o.score!))].sort((a, b) => a - b);
          out.push({ ...base, id: f.key, label: f.label, scale: "ordinal", perStep: false, codes: scores, names: scores.map(String), code: (v) => single(f.options.find((o) => o.value === v)?.score) });
        } else {
          const codes = f.options.map((_, i) => i);
          out.push({ ...base, id: f.key, label: f.label, scale: "categorical", perStep: false, codes, names: f.options.map((o) => o.label), code: (v) => single(f.options.findIndex((o) => o.value === v)).map((c) => (c === -1 ? null : c)) });
        }
        break;
      }
      case "scale": {
        const codes = scaleValues(f).map(Number);
        out.push({ ...base, id: f.key, label: f.label, scale: "ordinal", perStep: false, codes, names: codes.map(String), code: (v) => single(typeof v === "string" && codes.includes(Number(v)) && v !== "" ? Number(v) : null) });
        break;
      }
      case "boolean":
        out.push({ ...base, id: f.key, label: f.label, scale: "categorical", perStep: false, codes: [0, 1], names: ["No", "Yes"], code: (v) => single(typeof v === "boolean" ? Number(v) : null) });
        break;
      case "multi":
        // Only labels that answered the field count (an unanswered field is not "none chosen").
        for (const o of f.options) {
          out.push({ ...base, id: `${f.key}=${o.value}`, label: `${f.label}: ${o.label}`, scale: "categorical", perStep: false, codes: [0, 1], names: ["not chosen", "chosen"], code: (v) => single(typeof v === "string" ? Number(multiValues(v).includes(o.value)) : null) });
        }
        break;
      case "steps": {
        const map = { y: 0, n: 1, u: 2 } as const;
        out.push({ ...base, id: f.key, label: f.label, scale: "categorical", perStep: true, codes: [0, 1, 2], names: ["yes", "no", "unsure"], code: (v) => stepAnswers(v).map((a) => (a ? map[a] : null)) });
        break;
      }
      case "step_rating": {
        const codes = scaleValues(f).map(Number);
        out.push({ ...base, id: f.key, label: f.label, scale: "ordinal", perStep: true, codes, names: codes.map(String), code: (v) => (typeof v === "string" ? [...v].map((c) => (codes.includes(Number(c)) && c !== "-" ? Number(c) : null)) : []) });
        break;
      }
      case "text":
        break;
    }
  }
  return out;
}
