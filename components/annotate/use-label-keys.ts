"use client";

// Keyboard handling of the label form (issue 18 items 1 and 4). Tab is never taken: it moves
// through the page in its natural order. The keys:
//   * field hotkeys, wherever the focus is (lib/annotation/field-hotkeys.ts): each field's own
//     keys — plain (safety 0–3), with Shift (helpfulness ⇧0–3) or after a prefix letter (v 0–2);
//   * the field that has focus also takes its keys plain (↓ ↑ walk the fields, then 0–3 / y / n;
//     a per-step field: y n u or digits answer the next step, Backspace takes the last back);
//   * ? help, g guidelines, s skip, p previous item, Enter submit, Esc closes a dialog, leaves the
//     text box or cancels a prefix.
// It listens in the capture phase, so it sees a key before the item view's keys (c t f o [ ]) and
// takes it first when it is an answer (after a prefix, any key is).
import { useLayoutEffect } from "react";
import { baseKey, isPrefix, resolveHotkey, type FieldHotkeys } from "@/lib/annotation/field-hotkeys";
import type { LabelField } from "@/lib/trajectory/label-schema";
import { kindKeys } from "./field-kinds";
import { isTypingTarget, ownsKey } from "./key-targets";

export type Dialog = "help" | "guidelines" | "skip" | null;

interface Options {
  fields: LabelField[];
  hotkeys: Map<string, FieldHotkeys>;
  /** Moves keyboard focus to field i (its fieldset, or a text field's box). */
  focusField: (i: number) => void;
  dialog: Dialog;
  setDialog: (d: Dialog) => void;
  readOnly: boolean;
  canSkip: boolean;
  prefix: string | null;
  setPrefix: (p: string | null) => void;
  onSubmit: () => void;
  onChoose: (f: LabelField, key: string) => void;
  onPrevious: (() => void) | null;
}

/** The field (index in `fields`) whose fieldset holds the focus, or null. */
function fieldWithFocus(fields: LabelField[], el: EventTarget | null): number | null {
  const key = el instanceof HTMLElement ? el.closest<HTMLElement>("fieldset[data-field]")?.dataset.field : undefined;
  const i = key === undefined ? -1 : fields.findIndex((f) => f.key === key);
  return i < 0 ? null : i;
}

/** Whether a focused field takes `key` itself (the keys its options, scale or steps answer to). */
function takesKey(f: LabelField, key: string): boolean {
  if (f.kind === "choice") return f.options.some((o) => o.key === key);
  if (f.kind === "boolean") return ["y", "n", "0", "1"].includes(key);
  if (f.kind === "steps") return ["y", "n", "u", "Backspace"].includes(key);
  return kindKeys(f).includes(key);
}

export function useLabelKeys({ fields, hotkeys, focusField, dialog, setDialog, readOnly, canSkip, prefix, setPrefix, onSubmit, onChoose, onPrevious }: Options) {
  // A layout effect: the listener that sees the latest answers is in place in the same commit that
  // shows them, so a key pressed right after a change never acts on the answers before it.
  useLayoutEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const el = e.target;
      if (isTypingTarget(el)) {
        if (e.key === "Escape" && el instanceof HTMLElement) {
          const i = fieldWithFocus(fields, el);
          el.blur();
          if (i !== null) focusField(i);
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
      const key = baseKey(e);
      if (key === "Shift") return;
      if (prefix !== null) {
        // The key after a prefix answers that field, or cancels the prefix.
        setPrefix(null);
        const hit = key === "Escape" ? null : resolveHotkey(hotkeys, { key, shift: e.shiftKey, prefix });
        const f = hit && fields.find((x) => x.key === hit.field);
        if (f && !readOnly) onChoose(f, hit.key);
        e.preventDefault();
        return;
      }
      const inField = fieldWithFocus(fields, el);
      const onOption = el instanceof HTMLInputElement;
      if (e.key === "?") setDialog("help");
      else if (key === "g" && !e.shiftKey) setDialog("guidelines");
      else if (key === "s" && !e.shiftKey && canSkip) setDialog("skip");
      else if (key === "p" && !e.shiftKey && onPrevious) onPrevious();
      // ↓ ↑ walk the fields from a field; on a radio they keep their usual meaning (next option).
      else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && inField !== null && !onOption) focusField(Math.max(0, Math.min(fields.length - 1, inField + (e.key === "ArrowDown" ? 1 : -1))));
      else if (e.key === "Enter") {
        if (ownsKey(el, "Enter")) return;
        onSubmit();
      } else if (inField !== null && !e.shiftKey && !readOnly && takesKey(fields[inField]!, key)) onChoose(fields[inField]!, key);
      else {
        const hit = readOnly ? null : resolveHotkey(hotkeys, { key, shift: e.shiftKey, prefix: null });
        const f = hit && fields.find((x) => x.key === hit.field);
        if (hit && f) onChoose(f, hit.key);
        else if (hit) return; // a hidden conditional field's key: nothing to answer yet
        else if (!readOnly && !e.shiftKey && isPrefix(hotkeys, key)) setPrefix(key);
        else return;
      }
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [fields, hotkeys, focusField, dialog, setDialog, readOnly, canSkip, prefix, setPrefix, onSubmit, onChoose, onPrevious]);
}
