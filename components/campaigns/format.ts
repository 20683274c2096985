// Display helpers for the campaign pages. Pure.
import type { LabelField, LabelValues } from "@/lib/trajectory/label-schema";

/** 83_000 → "1 min 23 s"; 0 → "—". */
export function formatDuration(ms: number): string {
  if (!ms || ms < 0) return "—";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export const n = (x: number) => x.toLocaleString("en-US");

/** A stored label value as words: the option's label, "Yes"/"No", the text, or null when unset. */
export function valueText(field: LabelField, value: LabelValues[string]): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (field.kind === "choice") return field.options.find((o) => o.value === value)?.label ?? String(value);
  if (field.kind === "boolean") return value === true ? "Yes" : value === false ? "No" : String(value);
  return String(value);
}

/** The score a choice value stands for (safety, helpfulness), or null. */
export function optionScore(field: LabelField, value: LabelValues[string]): number | null {
  return field.kind === "choice" ? (field.options.find((o) => o.value === value)?.score ?? null) : null;
}
