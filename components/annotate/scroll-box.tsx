"use client";

// A long text (an action input, an observation) in a box the keyboard can scroll: the box is a
// focusable, labelled region (Tab to it, then the arrow keys / Page Up / Page Down scroll it), and
// it can be expanded to its full length (its button, or `o` on the screen).
import { useEffect, useRef, useState } from "react";

interface Props {
  id: string;
  title: string;
  /** What the region is called for screen readers, e.g. "Observation of step 3". */
  label: string;
  text: string;
  expanded: boolean;
  onToggle: () => void;
  /** Marks the box for `o` (expand the focused observation) and for tests. */
  kind: "input" | "observation";
  step: number;
}

export function ScrollBox({ id, title, label, text, expanded, onToggle, kind, step }: Props) {
  const ref = useRef<HTMLPreElement | null>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollHeight > el.clientHeight + 1);
    measure();
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, [text]);
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
        {(overflows || expanded) && (
          <button type="button" onClick={onToggle} aria-expanded={expanded} aria-controls={id} className="text-xs text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid={`${kind}-toggle`}>
            {expanded ? "Collapse" : "Show all"}{kind === "observation" && <kbd aria-hidden="true" className="ml-1 rounded border border-slate-300 px-1 font-mono text-[10px] text-slate-500">o</kbd>}
          </button>
        )}
      </div>
      <pre
        id={id}
        ref={ref}
        tabIndex={0}
        role="region"
        aria-label={`${label}${overflows && !expanded ? " (scroll with the arrow keys, or press o to show all)" : ""}`}
        data-scrollbox={kind}
        data-step={step}
        data-expanded={expanded}
        data-testid={`${kind}-${step + 1}`}
        className={`mt-1 overflow-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 p-2 font-mono text-xs text-slate-800 outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 ${expanded ? "" : "max-h-72"}`}
      >
        {text}
      </pre>
    </div>
  );
}
