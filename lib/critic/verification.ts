// InferAct task verification (issue 13 item 4): the multiple-choice options, reading the model's
// answer, and p̄(t*). Pure.
//
// Options in the original (forward) order, labelled A–E: the three inferred tasks t1, t2, t3,
// then the real instruction t*, then "None of the above" — so t* is D. The reverse order is the
// same list fully reversed: None, t*, t3, t2, t1 — so t* is B there. A reverse-order label maps
// back to the forward one by A↔E, B↔D, C↔C. p_order(t*) is the probability the answer gives t*'s
// label in that order (0 when t* is not named); p̄(t*) = (p_forward + p_reverse) / 2.
// Example (issue 13): forward names D 0.6, reverse names B 0.4 → p̄ 0.5; reverse names only E
// (= t1 mapped back) → p_reverse 0 → p̄ 0.3.

export const OPTION_LABELS = ["A", "B", "C", "D", "E"] as const;
export type OptionLabel = (typeof OPTION_LABELS)[number];
export type Order = "forward" | "reverse";

export const NONE_OF_THE_ABOVE = "None of the above";

export interface VerificationOption {
  label: OptionLabel;
  text: string;
  /** inferred = one of t1..t3 (index 0..2), real = t*, none = "None of the above". */
  source: { kind: "inferred"; index: number } | { kind: "real" } | { kind: "none" };
}

/** The five options in the given order. */
export function verificationOptions(inferred: readonly string[], realInstruction: string, order: Order): VerificationOption[] {
  if (inferred.length !== 3) throw new RangeError(`InferAct verifies against 3 inferred tasks, got ${inferred.length}`);
  const forward: Omit<VerificationOption, "label">[] = [
    ...inferred.map((text, index) => ({ text, source: { kind: "inferred" as const, index } })),
    { text: realInstruction, source: { kind: "real" } },
    { text: NONE_OF_THE_ABOVE, source: { kind: "none" } },
  ];
  const listed = order === "forward" ? forward : [...forward].reverse();
  return listed.map((o, i) => ({ ...o, label: OPTION_LABELS[i]! }));
}

/** The options as the prompt lists them ("A. …" per line). */
export function renderOptions(options: readonly VerificationOption[]): string {
  return options.map((o) => `${o.label}. ${o.text}`).join("\n");
}

/** A reverse-order label as the forward label of the same option (A↔E, B↔D, C↔C). */
export function forwardLabel(label: OptionLabel, order: Order): OptionLabel {
  return order === "forward" ? label : OPTION_LABELS[OPTION_LABELS.length - 1 - OPTION_LABELS.indexOf(label)]!;
}

/** t*'s label in an order: D forward, B reversed. */
export function realLabel(order: Order): OptionLabel {
  return forwardLabel("D", order);
}

export type OptionProbabilities = Partial<Record<OptionLabel, number>>;

export class VerificationParseError extends Error {
  readonly kind: "unparsable" | "out_of_range";
  constructor(kind: "unparsable" | "out_of_range", message: string) {
    super(message);
    this.name = "VerificationParseError";
    this.kind = kind;
  }
}

export type VerificationParse = { ok: true; probabilities: OptionProbabilities } | { ok: false; error: VerificationParseError };

// "D: 0.6", "D 0.6", "D (0.6)", "Option D - 60%", "\"D\": 0.6", "D with probability 0.6", "D=0.6"
const INLINE = /(?<![A-Za-z0-9])(?:[Oo]ption\s+)?["'([]?([A-E])["')\]]?(?:\s*(?:[:=–-]|[Ww]ith|[Pp]robability|[Pp]rob\b|[Pp]\b|,)\s*|\s+)+\(?\s*(\d+(?:\.\d+)?|\.\d+)[ \t]*(%)?/g;
// A line that starts with the label and ends with the probability: "D. Transfer $500 to Bob — 0.6"
const LINE = /^\W*(?:[Oo]ption\s+)?([A-E])\b[^\n]*?(\d+(?:\.\d+)?|\.\d+)\s*(%)?\W*$/gm;

/**
 * The options the answer names, each with its probability in [0, 1] ("60%" reads as 0.6). A label
 * named twice keeps its first probability; a number outside [0, 1] after a label is not read as
 * its probability ("C 3 items"). Inline pairs are tried first, then label…number lines. Nothing
 * read → unparsable, or out_of_range when only out-of-range numbers followed labels.
 */
export function parseVerification(text: string): VerificationParse {
  const found: OptionProbabilities = {};
  let outOfRange: string | null = null;
  for (const pattern of [INLINE, LINE]) {
    for (const m of text.matchAll(pattern)) {
      const label = m[1] as OptionLabel;
      if (label in found) continue;
      const value = Number(m[2]) / (m[3] ? 100 : 1);
      if (value >= 0 && value <= 1) found[label] = value;
      else outOfRange ??= `option ${label}: probability ${m[2]}${m[3] ?? ""} is not in [0, 1]`;
    }
    if (Object.keys(found).length > 0) return { ok: true, probabilities: found };
  }
  if (outOfRange) return { ok: false, error: new VerificationParseError("out_of_range", outOfRange) };
  return { ok: false, error: new VerificationParseError("unparsable", "the answer names no option (A–E) with a probability") };
}

/** p(t*) in one order: the probability of t*'s label there, 0 when not named. */
export function realProbability(probabilities: OptionProbabilities, order: Order): number {
  return probabilities[realLabel(order)] ?? 0;
}

/** The answer of one order with its labels mapped to the forward order's. */
export function toForwardLabels(probabilities: OptionProbabilities, order: Order): OptionProbabilities {
  const out: OptionProbabilities = {};
  for (const [label, p] of Object.entries(probabilities) as [OptionLabel, number][]) out[forwardLabel(label, order)] = p;
  return out;
}

/** p̄(t*) = mean of the forward and the reverse order's p(t*). */
export function averagedRealProbability(forward: OptionProbabilities, reverse: OptionProbabilities): number {
  return (realProbability(forward, "forward") + realProbability(reverse, "reverse")) / 2;
}
