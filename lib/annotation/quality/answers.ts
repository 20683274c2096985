// Comparing answers field by field, for gold agreement, the qualification round and the
// per-annotator statistics. A choice with scores compares by score (ToolEmu's two safety labels
// of score 1 are the same answer), any other choice by its option, yes/no as 1/0. Free text and
// per-step answers are not compared.
import type { LabelField, LabelSchema, LabelValues } from "@/lib/trajectory/label-schema";

export type ComparedField = Extract<LabelField, { kind: "choice" | "boolean" }>;

/** The fields answers are compared on, in form order. */
export function comparedFields(schema: LabelSchema): ComparedField[] {
  return schema.fields.filter((f): f is ComparedField => f.kind === "choice" || f.kind === "boolean");
}

const scored = (f: ComparedField) => f.kind === "choice" && f.options.length > 0 && f.options.every((o) => typeof o.score === "number");

/** An answer as a number on the field's label set, or null when missing or unknown. */
export function answerOf(field: ComparedField, value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (field.kind === "boolean") return typeof value === "boolean" ? Number(value) : null;
  const i = field.options.findIndex((o) => o.value === value);
  if (i < 0) return null;
  return scored(field) ? field.options[i]!.score! : i;
}

/** The field's full label set (a κ counts categories nobody used too). */
export function labelSetOf(field: ComparedField): number[] {
  if (field.kind === "boolean") return [0, 1];
  if (scored(field)) return [...new Set(field.options.map((o) => o.score!))].sort((a, b) => a - b);
  return field.options.map((_, i) => i);
}

/** How many compared answers of `values` match `gold` (fields the gold leaves empty are not compared). */
export function goldMatch(schema: LabelSchema, values: LabelValues, gold: LabelValues): { matched: number; compared: number } {
  let matched = 0;
  let compared = 0;
  for (const f of comparedFields(schema)) {
    const g = answerOf(f, gold[f.key]);
    if (g === null) continue;
    compared++;
    if (answerOf(f, values[f.key]) === g) matched++;
  }
  return { matched, compared };
}
