"use client";

// Keyboard handling of the annotation workspace: ? help, g guidelines, s skip, ↑/↓ (Tab) between
// fields, a field's shortcut keys (a per-step field: y n u answer the next step, Backspace takes
// the last answer back), Enter to submit, Esc to close a dialog or leave the text box.
import { useEffect } from "react";
import type { LabelField } from "@/lib/trajectory/label-schema";

export type Dialog = "help" | "guidelines" | "skip" | null;

interface Options {
  fields: LabelField[];
  focused: number;
  setFocused: (update: (i: number) => number) => void;
  dialog: Dialog;
  setDialog: (d: Dialog) => void;
  readOnly: boolean;
  canSkip: boolean;
  onSubmit: () => void;
  onChoose: (f: LabelField, key: string) => void;
}

export function useLabelKeys({ fields, focused, setFocused, dialog, setDialog, readOnly, canSkip, onSubmit, onChoose }: Options) {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const el = e.target as HTMLElement;
      const typing = el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && (el as HTMLInputElement).type === "text");
      // A focused button or link does its own thing with Enter and Space.
      if ((el.tagName === "BUTTON" || el.tagName === "A") && (e.key === "Enter" || e.key === " ")) return;
      if (typing) {
        if (e.key === "Escape") {
          el.blur();
          setFocused((i) => Math.max(0, i - 1));
        }
        return;
      }
      if (dialog) {
        if (e.key === "Escape" || (e.key === "?" && dialog === "help") || (e.key === "Enter" && dialog === "guidelines")) {
          e.preventDefault();
          setDialog(null);
        }
        return;
      }
      const f = fields[focused];
      if (e.key === "?") setDialog("help");
      else if (e.key === "g") setDialog("guidelines");
      else if (e.key === "s" && canSkip) setDialog("skip");
      else if (e.key === "ArrowDown" || (e.key === "Tab" && !e.shiftKey)) setFocused((i) => Math.min(fields.length - 1, i + 1));
      else if (e.key === "ArrowUp" || (e.key === "Tab" && e.shiftKey)) setFocused((i) => Math.max(0, i - 1));
      else if (e.key === "Enter") onSubmit();
      else if (f && !readOnly && /^[0-9yn]$/.test(e.key)) onChoose(f, e.key);
      else if (f?.kind === "steps" && !readOnly && (e.key === "u" || e.key === "Backspace")) onChoose(f, e.key);
      else return;
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [fields, focused, setFocused, dialog, setDialog, readOnly, canSkip, onSubmit, onChoose]);
}
