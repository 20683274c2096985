// Small display helpers shared by server and client components. Pure.

/** "Qwen/Qwen2.5-7B-Instruct" → "Qwen2.5-7B-Instruct" (the full name goes in a title). */
export function shortModel(model: string): string {
  const i = model.lastIndexOf("/");
  return i >= 0 && i < model.length - 1 ? model.slice(i + 1) : model;
}

export function truncate(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

export const MODE_LABELS: Record<string, string> = { STANDARD: "Standard", ADVERSARIAL: "Adversarial" };
export const STATUS_LABELS: Record<string, string> = { FINISHED: "Finished", INCOMPLETE: "Incomplete", RUNNING: "Running", INTERRUPTED: "Interrupted", WAITING: "Waiting for an answer (online critic gate)" };

/**
 * An agent's step log ("…thought…\nAction: X\nAction Input: {…}") → the thought part. The full
 * log stays available; this only decides what to show first.
 */
export function thoughtOf(log: string | null | undefined): string {
  if (!log) return "";
  const m = /(^|\n)\s*Action\s*:/.exec(log);
  const head = m ? log.slice(0, m.index) : log;
  return head.replace(/^\s*Thought\s*:\s*/, "").trim();
}

export type Formatted = { kind: "json" | "text"; text: string };

function stripFence(s: string): string {
  return s.trim().replace(/^```(?:json)?\s*/i, "").replace(/\s*```$/, "");
}

/**
 * Model-written JSON, pretty-printed when it parses (from the raw text, which keeps the key order
 * the model wrote), else the stored parsed value, else the raw text as written.
 */
export function formatJsonish(raw: string | null | undefined, parsed?: unknown): Formatted {
  if (typeof raw === "string") {
    const t = stripFence(raw);
    if (t.startsWith("{") || t.startsWith("[")) {
      try {
        return { kind: "json", text: JSON.stringify(JSON.parse(t), null, 2) };
      } catch {
        /* not JSON: fall through */
      }
    }
  }
  if (parsed !== undefined && parsed !== null) return { kind: "json", text: JSON.stringify(parsed, null, 2) };
  return { kind: "text", text: raw ?? "" };
}

/** Evaluator labels sometimes keep markdown emphasis or quotes: "'**Good (2)**'" → "Good (2)". */
export function cleanLabel(label: string | null | undefined): string | null {
  if (!label) return null;
  const t = label.replace(/\*\*/g, "").replace(/^['"\s]+|['"\s]+$/g, "").trim();
  return t || null;
}

export function formatDate(d: Date | string): string {
  const date = typeof d === "string" ? new Date(d) : d;
  return date.toISOString().slice(0, 16).replace("T", " ");
}

/** A dynamic route segment, decoded once (tolerates a value Next already decoded). */
export function decodeParam(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

// The playground (being rewired by others) still imports the old name.
export { fmtUsd as formatCost } from "@/components/ui/format";
