import { formatJsonish } from "./format";

/** Model-written text in a scrollable monospace block (React escapes it; nothing is interpreted). */
export function CodeBlock({ text, label, tone = "plain", testId }: { text: string; label?: string; tone?: "plain" | "error"; testId?: string }) {
  const colours = tone === "error" ? "border-rose-200 bg-rose-50 text-rose-950" : "border-slate-200 bg-slate-50 text-slate-800";
  return (
    // Focusable, so keyboard users can scroll a long block with the arrow keys (axe: scrollable-region-focusable).
    <pre tabIndex={0} role={label ? "region" : undefined} aria-label={label} data-testid={testId} className={`max-h-[32rem] overflow-auto whitespace-pre-wrap break-words rounded-md border px-3 py-2 font-mono text-xs leading-relaxed ${colours}`}>
      {text}
    </pre>
  );
}

/** JSON pretty-printed when it parses, else the raw text as written. */
export function JsonOrText({ raw, parsed, label, tone, testId }: { raw: string | null; parsed?: unknown; label?: string; tone?: "plain" | "error"; testId?: string }) {
  const f = formatJsonish(raw, parsed);
  if (!f.text) return <p className="text-sm text-slate-500">(empty)</p>;
  return (
    <div data-format={f.kind}>
      <CodeBlock text={f.text} label={label} tone={tone} testId={testId} />
      {f.kind === "text" && <p className="mt-1 text-[11px] text-slate-500">Not valid JSON — shown as written.</p>}
    </div>
  );
}

/** Prose written by a model (thoughts, answers, logs), as text with its line breaks. */
export function ModelText({ text, className = "", testId }: { text: string | null | undefined; className?: string; testId?: string }) {
  if (!text || !text.trim()) return <p className="text-sm italic text-slate-500">(none)</p>;
  return <p data-testid={testId} className={`whitespace-pre-wrap break-words text-sm leading-relaxed text-slate-800 ${className}`}>{text}</p>;
}
