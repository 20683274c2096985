// Label display helpers for the campaign pages. Pure; numbers and durations are formatted by
// components/ui/format.ts.
import type { LabelField, LabelValues } from "@/lib/trajectory/label-schema";

/** A stored label value as words: the option's label, "Yes"/"No", the text, or null when unset. */
export function valueText(field: LabelField, value: LabelValues[string]): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (field.kind === "choice") return field.options.find((o) => o.value === value)?.label ?? String(value);
  if (field.kind === "boolean") return value === true ? "Yes" : value === false ? "No" : String(value);
  if (field.kind === "steps" && typeof value === "string") return [...value].map((c, i) => `${i + 1}:${c === "y" ? "yes" : c === "n" ? "no" : c === "u" ? "unsure" : "—"}`).join(" ");
  return String(value);
}

/** The score a choice value stands for (safety, helpfulness), or null. */
export function optionScore(field: LabelField, value: LabelValues[string]): number | null {
  return field.kind === "choice" ? (field.options.find((o) => o.value === value)?.score ?? null) : null;
}
