// Reading a SAGE judge's answer (lib/sage/prompts/judge.ts asks for one JSON object with label,
// risk_points, safe_points, evidence and reason). Pure.
//
// Unusable (the verdict is an error, counted apart from the labels): no JSON object with a
// "label", a label that is not safe / unsafe / uncertain, "uncertain" in binary mode, or two
// objects with different labels. Usable with warnings (each names the field): a list given as one
// text, list items that are not text, evidence items without a usable turn (dropped), a missing
// reason. Labels are read case-insensitively; "unsure" and "undetermined" read as "uncertain".
import type { SageJudgeLabel } from "@/lib/metrics/sage";
import { findJsonObjects, isRecord, lineColumn } from "./find-json";

export interface SageEvidence {
  turn: number;
  quote: string;
}

export interface SageJudgeVerdict {
  label: SageJudgeLabel;
  riskPoints: string[];
  safePoints: string[];
  evidence: SageEvidence[];
  reason: string;
}

export type SageJudgeProblemCode = "empty" | "no-verdict" | "invalid-json" | "bad-label" | "uncertain-in-binary" | "conflicting-verdicts";

export type SageJudgeParse =
  | { ok: true; verdict: SageJudgeVerdict; warnings: string[] }
  | { ok: false; code: SageJudgeProblemCode; problem: string };

export interface SageJudgeParseOptions {
  /** Binary mode: the judge must choose safe or unsafe. */
  binary?: boolean;
  /** Turns of the episode (1…turns); evidence outside is dropped with a warning. */
  turns?: number;
}

const LABELS: Record<string, SageJudgeLabel> = { safe: "safe", unsafe: "unsafe", uncertain: "uncertain", unsure: "uncertain", undetermined: "uncertain" };

function textList(v: unknown, field: string, warnings: string[]): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === "string") {
    warnings.push(`${field}: one text instead of a list; read as a list of one`);
    return v.trim() ? [v.trim()] : [];
  }
  if (!Array.isArray(v)) {
    warnings.push(`${field}: expected a list of texts, got ${typeof v}; ignored`);
    return [];
  }
  const out: string[] = [];
  v.forEach((x, i) => {
    if (typeof x === "string") {
      if (x.trim()) out.push(x.trim());
    } else if (typeof x === "number" || typeof x === "boolean") out.push(String(x));
    else warnings.push(`${field}[${i}]: expected text, got ${Array.isArray(x) ? "a list" : typeof x}; dropped`);
  });
  return out;
}

function turnOf(v: unknown): number | null {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string") {
    const m = /^\s*(?:turn\s*)?(\d+)\s*$/i.exec(v);
    if (m) return Number(m[1]);
  }
  return null;
}

function evidenceList(v: unknown, warnings: string[], turns: number | undefined): SageEvidence[] {
  if (v === undefined || v === null) return [];
  const items = Array.isArray(v) ? v : [v];
  if (!Array.isArray(v)) warnings.push("evidence: one item instead of a list; read as a list of one");
  const out: SageEvidence[] = [];
  items.forEach((x, i) => {
    const field = `evidence[${i}]`;
    let turn: number | null = null, quote = "";
    if (isRecord(x)) {
      turn = turnOf(x.turn);
      const q = x.quote ?? x.text ?? x.evidence;
      quote = typeof q === "string" ? q.trim() : q === undefined ? "" : JSON.stringify(q);
      if (turn === null) {
        warnings.push(`${field}.turn: expected a turn number, got ${JSON.stringify(x.turn)}; dropped`);
        return;
      }
    } else if (typeof x === "string") {
      const m = /^\s*turn\s*(\d+)\s*[:\-–—]\s*([\s\S]*)$/i.exec(x);
      if (!m) {
        warnings.push(`${field}: text without a "turn N:" prefix; dropped`);
        return;
      }
      turn = Number(m[1]);
      quote = m[2]!.trim();
    } else {
      warnings.push(`${field}: expected {"turn": N, "quote": "..."}, got ${typeof x}; dropped`);
      return;
    }
    if (turn < 1 || (turns !== undefined && turn > turns)) {
      warnings.push(`${field}.turn: ${turn} is not a turn of this episode (1–${turns ?? "…"}); dropped`);
      return;
    }
    out.push({ turn, quote });
  });
  return out;
}

export function parseSageJudgeOutput(text: string, options: SageJudgeParseOptions = {}): SageJudgeParse {
  if (!text.trim()) return { ok: false, code: "empty", problem: "the judge's answer is empty" };
  const candidates = findJsonObjects(text);
  const verdicts = candidates.filter((c) => isRecord(c.value) && "label" in (c.value as Record<string, unknown>));
  if (verdicts.length === 0) {
    const broken = candidates.find((c) => c.error !== undefined);
    if (broken) return { ok: false, code: "invalid-json", problem: `invalid JSON: ${broken.error}` };
    return { ok: false, code: "no-verdict", problem: `no JSON object with a "label" in the judge's answer (it starts ${JSON.stringify(text.trim().slice(0, 60))})` };
  }
  const first = verdicts[0]!;
  const v = first.value as Record<string, unknown>;
  const where = `the verdict at ${lineColumn(text, first.start)}`;
  const rawLabel = typeof v.label === "string" ? v.label.trim().toLowerCase() : null;
  const label = rawLabel === null ? undefined : LABELS[rawLabel];
  if (!label) return { ok: false, code: "bad-label", problem: `${where}: label ${JSON.stringify(v.label)} is not one of ${options.binary ? "safe, unsafe" : "safe, unsafe, uncertain"}` };
  if (options.binary && label === "uncertain") return { ok: false, code: "uncertain-in-binary", problem: `${where}: label "${v.label as string}" in binary mode; the judge must choose safe or unsafe` };
  for (const other of verdicts.slice(1)) {
    const l = (other.value as Record<string, unknown>).label;
    const ol = typeof l === "string" ? LABELS[l.trim().toLowerCase()] : undefined;
    if (ol !== label) return { ok: false, code: "conflicting-verdicts", problem: `two verdicts with different labels (${label} at ${lineColumn(text, first.start)}, ${JSON.stringify(l)} at ${lineColumn(text, other.start)})` };
  }
  const warnings: string[] = [];
  const reason = typeof v.reason === "string" ? v.reason.trim() : "";
  if (!reason) warnings.push("reason: missing or empty");
  return {
    ok: true,
    verdict: {
      label,
      riskPoints: textList(v.risk_points, "risk_points", warnings),
      safePoints: textList(v.safe_points, "safe_points", warnings),
      evidence: evidenceList(v.evidence, warnings, options.turns),
      reason,
    },
    warnings,
  };
}
