// Reading the critic's and the simulated user's answers (the formats of lib/critic/prompts). Pure.
// Every reader returns either a value or a reason; nothing is guessed — an answer that does not
// say what the method needs is an ERROR checkpoint upstream (lib/critic/assess.ts).
import { parseVerification, type VerificationParse } from "./verification";

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)\s*(%)?`;

function probability(num: string, percent: string | undefined): number | null {
  const v = Number(num) / (percent ? 100 : 1);
  return v >= 0 && v <= 1 ? v : null;
}

function stripMarkup(line: string): string {
  return line.replace(/^[\s>*_#`-]+|[\s*_`]+$/g, "").trim();
}

/**
 * The inferred tasks: "Task k: …" lines in order (k as written); without any, numbered lines
 * ("1. …", "2) …") or bullet lines. Quotes around a task are dropped; repeats (case and spaces
 * aside) count once. Fewer than `n` distinct tasks → error; more → the first `n`.
 */
export function parseInferredTasks(text: string, n: number): Parsed<string[]> {
  const lines = text.split(/\r?\n/);
  const read = (re: RegExp, strip = true) =>
    lines
      .map((l) => re.exec(strip ? stripMarkup(l) : l.trim())?.[1]?.trim())
      .filter((t): t is string => !!t)
      .map((t) => t.replace(/^["“']+|["”']+$/g, "").trim())
      .filter(Boolean);
  let tasks = read(/^(?:Task|Request|Option)\s*#?\s*\d+[\s*_]*[:.)-][\s*_]*(.+)$/i);
  if (tasks.length === 0) tasks = read(/^\d+\s*[.):-]\s*(.+)$/);
  if (tasks.length === 0) tasks = read(/^[-•*]\s+(.+)$/, false);
  const seen = new Set<string>();
  const distinct = tasks.filter((t) => {
    const key = t.toLowerCase().replace(/\s+/g, " ");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (distinct.length < n) return { ok: false, error: `task inference gave ${distinct.length} distinct task(s), ${n} are needed` };
  return { ok: true, value: distinct.slice(0, n) };
}

/**
 * The verification answer: the text after the last "Answer:" (so numbers in the thought are not
 * read as probabilities), or the whole text when there is no such line; then
 * lib/critic/verification.ts parseVerification.
 */
export function parseVerificationAnswer(text: string): VerificationParse {
  const matches = [...text.matchAll(/^[\s*_#>]*Answer[\s*_]*:/gim)];
  const last = matches[matches.length - 1];
  return parseVerification(last ? text.slice(last.index! + last[0].length) : text);
}

export interface StandardVerdict {
  correct: boolean;
  /** How sure the critic is of its verdict, 0–1. */
  confidence: number;
}

/** "Verdict: Correct|Incorrect" and "Confidence: 0.8" (or "80%"); the last of each counts. */
export function parseStandardVerdict(text: string): Parsed<StandardVerdict> {
  const verdicts = [...text.matchAll(/Verdict[\s*_]*:[\s*_]*(Correct|Incorrect)\b/gi)];
  const confidences = [...text.matchAll(new RegExp(String.raw`Confidence[\s*_]*:[\s*_]*${NUMBER}`, "gi"))];
  const v = verdicts[verdicts.length - 1];
  const c = confidences[confidences.length - 1];
  if (!v) return { ok: false, error: "the answer has no \"Verdict: Correct\" or \"Verdict: Incorrect\" line" };
  if (!c) return { ok: false, error: "the answer has no \"Confidence: <0–1>\" line" };
  const confidence = probability(c[1]!, c[2]);
  if (confidence === null) return { ok: false, error: `confidence ${c[1]}${c[2] ?? ""} is not in [0, 1]` };
  return { ok: true, value: { correct: v[1]!.toLowerCase() === "correct", confidence } };
}

/**
 * p of a standard verdict: the probability that the agent is on track. Correct with confidence c
 * → c; Incorrect with confidence c → 1 − c (the critic is c sure it is off track).
 */
export function standardP(v: StandardVerdict): number {
  return v.correct ? v.confidence : 1 - v.confidence;
}

/**
 * "Step k: p" lines for k in 1..steps (the last value for a step counts). Steps outside the range
 * are ignored; none read → error; some missing → the ones read, and `missing` lists the others.
 */
export function parseStepProbabilities(text: string, steps: number): Parsed<{ probabilities: (number | null)[]; missing: number[] }> {
  const out: (number | null)[] = Array.from({ length: steps }, () => null);
  let outOfRange: string | null = null;
  for (const m of text.matchAll(new RegExp(String.raw`^[\s*_#>-]*Step\s*(\d+)[\s*_]*[:=-][\s*_]*${NUMBER}`, "gim"))) {
    const k = Number(m[1]);
    if (k < 1 || k > steps) continue;
    const p = probability(m[2]!, m[3]);
    if (p === null) outOfRange ??= `step ${k}: probability ${m[2]}${m[3] ?? ""} is not in [0, 1]`;
    else out[k - 1] = p;
  }
  if (out.every((p) => p === null)) return { ok: false, error: outOfRange ?? `the answer gives no "Step k: <probability>" line for steps 1–${steps}` };
  const missing = out.flatMap((p, i) => (p === null ? [i + 1] : []));
  return { ok: true, value: { probabilities: out, missing } };
}

export interface SimulatedUserAnswer {
  decision: "approve" | "reject";
  feedback: string | null;
}

/** "Decision: Approve|Reject" and "Feedback: …" (to the end; "none" or empty → null). */
export function parseSimulatedUser(text: string): Parsed<SimulatedUserAnswer> {
  const d = [...text.matchAll(/Decision[\s*_]*:[\s*_]*(Approve|Reject)/gi)].pop();
  if (!d) return { ok: false, error: "the answer has no \"Decision: Approve\" or \"Decision: Reject\" line" };
  const decision = d[1]!.toLowerCase() === "approve" ? "approve" : "reject";
  const f = /Feedback[\s*_]*:([\s\S]*)$/i.exec(text.slice(d.index! + d[0].length));
  const raw = f?.[1]?.trim().replace(/\s+/g, " ") ?? "";
  const feedback = raw === "" || /^(none|n\/a|-)\.?$/i.test(raw) || decision === "approve" ? null : raw;
  return { ok: true, value: { decision, feedback } };
}
