"use client";

// The item view's open/closed parts and its keys (issue 18 item 1): c toggles the task context
// (expected achievements…), t the agent's thoughts, f the final message, o shows the focused
// observation in full, [ and ] move to the previous / next step. Keys are off while typing, while
// a dialog is open (keyboard: false), and when the label form already took the key.
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { isTypingTarget } from "./key-targets";

const stepOf = (el: Element | null): number | null => {
  const s = el?.closest<HTMLElement>("[data-step-index]")?.dataset.stepIndex;
  return s === undefined ? null : Number(s);
};

export function useItemView(opts: { root: RefObject<HTMLElement | null>; stepCount: number; thoughtSteps: number[]; keyboard: boolean }) {
  const { root, stepCount, thoughtSteps, keyboard } = opts;
  const [contextOpen, setContextOpen] = useState(false);
  const [finalOpen, setFinalOpen] = useState(false);
  const [thoughts, setThoughts] = useState<ReadonlySet<number>>(new Set());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // The step last moved to or focused: [ ] and o start from it when the focus is elsewhere.
  const current = useRef<number | null>(null);

  const setThought = useCallback((i: number, open: boolean) => setThoughts((s) => (s.has(i) === open ? s : open ? new Set([...s, i]) : new Set([...s].filter((x) => x !== i)))), []);
  const toggleExpanded = useCallback((key: string) => setExpanded((s) => (s.has(key) ? new Set([...s].filter((x) => x !== key)) : new Set([...s, key]))), []);
  const onStepFocus = useCallback((i: number) => void (current.current = i), []);

  useEffect(() => {
    if (!keyboard) return;
    const find = (sel: string) => root.current?.querySelector<HTMLElement>(sel) ?? null;
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      const active = document.activeElement;
      const here = stepOf(active) ?? current.current;
      if (e.key === "c") {
        setContextOpen((o) => !o);
        find("[data-section='context']")?.scrollIntoView({ block: "nearest" });
      } else if (e.key === "t") {
        setThoughts((s) => (thoughtSteps.every((i) => s.has(i)) ? new Set() : new Set(thoughtSteps)));
      } else if (e.key === "f") {
        setFinalOpen((o) => !o);
        find("[data-section='final']")?.scrollIntoView({ block: "nearest" });
      } else if (e.key === "o") {
        const box = active?.closest<HTMLElement>("[data-scrollbox='observation']");
        const step = box ? Number(box.dataset.step) : here;
        if (step === null) return;
        toggleExpanded(`observation-${step}`);
        current.current = step;
        find(`[data-scrollbox='observation'][data-step='${step}']`)?.focus();
      } else if ((e.key === "]" || e.key === "[") && stepCount > 0) {
        const next = here === null ? (e.key === "]" ? 0 : stepCount - 1) : Math.max(0, Math.min(stepCount - 1, here + (e.key === "]" ? 1 : -1)));
        current.current = next;
        const el = find(`[data-step-index='${next}']`);
        el?.focus({ preventScroll: true });
        el?.scrollIntoView({ block: "start" });
      } else return;
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [keyboard, root, stepCount, thoughtSteps, toggleExpanded]);

  return { contextOpen, setContextOpen, finalOpen, setFinalOpen, thoughts, setThought, expanded, toggleExpanded, onStepFocus };
}
