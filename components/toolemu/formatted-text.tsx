// Evaluator text (summaries, reasoning) with its light formatting shown instead of raw **stars**:
// bold, italic, code, lists and indentation (./light-markdown.ts). Rendered as React text only.
import { Fragment, type ReactNode } from "react";
import { parseLightMarkdown, type Inline } from "./light-markdown";

function Pieces({ inline }: { inline: Inline[] }) {
  return (
    <>
      {inline.map((p, i) => {
        let node: ReactNode = p.text;
        if (p.code) node = <code className="rounded bg-slate-100 px-1 font-mono text-[0.85em] text-slate-800">{node}</code>;
        if (p.italic) node = <em>{node}</em>;
        if (p.bold) node = <strong className="font-semibold text-slate-900">{node}</strong>;
        return <Fragment key={i}>{node}</Fragment>;
      })}
    </>
  );
}

export function FormattedText({ text, className = "", testId }: { text: string | null | undefined; className?: string; testId?: string }) {
  if (!text || !text.trim()) return <p className="text-sm italic text-slate-500">(none)</p>;
  const blocks = parseLightMarkdown(text);
  return (
    <div data-testid={testId} className={`break-words text-sm leading-relaxed text-slate-800 ${className}`}>
      {blocks.map((b, i) => {
        if (b.kind === "blank") return <div key={i} className="h-2" aria-hidden="true" />;
        if (b.kind === "heading") return <p key={i} className={`mt-1 font-semibold text-slate-900 ${b.level === 1 ? "text-base" : ""}`}><Pieces inline={b.inline} /></p>;
        return (
          <p key={i} className="flex gap-1.5" style={{ paddingLeft: `${b.indent * 0.75}rem` }}>
            {b.marker && <span className="shrink-0 text-slate-500">{b.marker}</span>}
            <span className="min-w-0"><Pieces inline={b.inline} /></span>
          </p>
        );
      })}
    </div>
  );
}
