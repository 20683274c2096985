"use client";

// The annotation screen: the blinded item on the left, the label form on the right (fields,
// autosave state, sticky status and submit bar), previous / next of one's own finished items,
// the dialogs, and the keyboard. The parts live beside this file: draft.ts (values, autosave,
// time), label-fields.tsx, submit-bar.tsx, use-label-keys.ts (form keys), use-item-view.ts (item
// keys), finished-items.tsx, dialogs.tsx. Tab is never taken: focus moves in reading order.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { BlindedItem } from "@/lib/annotation/blinded";
import { assignHotkeys, keyRange } from "@/lib/annotation/field-hotkeys";
import { dropHiddenValues, fieldVisible, isPerStep, type LabelField } from "@/lib/trajectory/label-schema";
import { BlindedTrajectory } from "./blinded-trajectory";
import { ScenarioItem } from "./scenario-item";
import { FinishedItems, type FinishedLink } from "./finished-items";
import { ShortcutSheet } from "./shortcut-sheet";
import { backupKey, isMissing, useActiveTime, useDraft, type SaveDraft, type Values } from "./draft";
import { LabelFields, chooseByKey } from "./label-fields";
import { SubmitBar } from "./submit-bar";
import { useLabelKeys, type Dialog } from "./use-label-keys";
import { GuidelinesDialog, SkipDialog } from "./dialogs";

interface Props {
  item: BlindedItem;
  progress: { submitted: number; expected: number };
  firstVisit: boolean;
  saveDraft: SaveDraft;
  submit: (i: { assignmentId: string; values: Values; timeSpentMs: number }) => Promise<ActionResult<{ status: string }>>;
  skip: (i: { assignmentId: string; reason: string }) => Promise<ActionResult<{ skipped: boolean }>>;
  /** My finished items in this campaign (links to revise them, with content hints). */
  finished: FinishedLink[];
  /** Previous / next of the item on screen among my finished ones (next: back to the item being worked on). */
  nav: { previous: FinishedLink | null; next: FinishedLink | null };
  /** Set when the item on screen is one of my finished ones. */
  revising: FinishedLink | null;
}

export function AnnotationWorkspace({ item, progress, firstVisit, saveDraft, submit, skip, finished, nav, revising }: Props) {
  const router = useRouter();
  const formFields = item.schema.fields;
  const status = item.assignment.status;
  const readOnly = item.campaign.locked || status === "SKIPPED";
  const [focused, setFocused] = useState(0);
  const [dialog, setDialogState] = useState<Dialog>(firstVisit && item.campaign.guidelines.trim().length > 0 ? "guidelines" : null);
  const [prefix, setPrefix] = useState<string | null>(null);
  // Each field's own keys, from the whole form (a conditional field keeps its keys when it appears).
  const hotkeys = useMemo(() => assignHotkeys(item.schema.fields), [item.schema]);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const fieldRefs = useRef<(HTMLFieldSetElement | null)[]>([]);
  const commentRef = useRef<HTMLTextAreaElement | null>(null);
  // Where the focus was when a dialog opened: it goes back there when the dialog closes.
  const returnFocus = useRef<Element | null>(null);
  const timeSpent = useActiveTime(item.assignment.timeSpentMs);
  const { values, update, save } = useDraft(item, readOnly, saveDraft, timeSpent, setError);
  // Conditional fields appear only when the answer they depend on is given (label-schema.ts `when`).
  const fields = useMemo(() => formFields.filter((f) => fieldVisible(f, values)), [formFields, values]);

  const stepCount = item.steps.length;
  const missing = useMemo(() => fields.filter((f) => isMissing(f, values, stepCount)), [fields, values, stepCount]);

  const doSubmit = useCallback(async () => {
    if (readOnly || submitting) return;
    if (missing.length) {
      setError(`Still to answer: ${missing.map((f) => f.label).join(", ")}.`);
      focusField(fields.indexOf(missing[0]!));
      return;
    }
    setSubmitting(true);
    // A trajectory without tool steps answers a per-step field with no answers.
    const shown = dropHiddenValues(item.schema, values) as Values;
    const sent = stepCount > 0 ? shown : { ...shown, ...Object.fromEntries(fields.filter((f) => isPerStep(f) && typeof values[f.key] !== "string").map((f) => [f.key, ""])) };
    const res = await submit({ assignmentId: item.assignment.id, values: sent, timeSpentMs: timeSpent() }).catch(() => null);
    if (!res) {
      setSubmitting(false);
      setError("Could not reach the server. Your answers are kept in this browser; try again.");
      return;
    }
    if (!res.ok) {
      setSubmitting(false);
      setError(res.error);
      // Completed by others while the claim had lapsed: the answers are kept; move on shortly.
      if (res.status === 409 && !item.campaign.locked) setTimeout(() => router.refresh(), 4000);
      return;
    }
    window.localStorage.removeItem(backupKey(item.assignment.id));
    // The next screen confirms it (submit-notice.tsx): which item, and submitted or revised.
    router.replace(`/annotate/${item.campaign.id}?after=${encodeURIComponent(item.assignment.id)}&result=${encodeURIComponent(res.data.status)}`);
    router.refresh();
  }, [readOnly, submitting, missing, fields, submit, item.assignment.id, item.campaign.id, item.campaign.locked, item.schema, values, timeSpent, router, stepCount]);

  const choose = useCallback((f: LabelField, key: string) => chooseByKey(f, key, values[f.key], update, stepCount), [values, update, stepCount]);

  /** Keyboard focus to field i: its text box, or its fieldset (whose keys then apply plain). */
  function focusField(i: number) {
    setFocused(i);
    const fs = fieldRefs.current[i];
    (fs?.querySelector("textarea") ?? fs)?.focus({ preventScroll: false });
  }
  const focusFieldCb = useCallback(focusField, []);
  const focusedNow = useRef(focused);
  focusedNow.current = focused;

  const setDialog = useCallback((d: Dialog) => {
    if (d) returnFocus.current = document.activeElement;
    setDialogState(d);
  }, []);

  // The first field has focus at the start; a closed dialog gives the focus back where it was.
  useEffect(() => {
    if (dialog) return;
    const back = returnFocus.current;
    returnFocus.current = null;
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
    else focusFieldCb(focusedNow.current);
  }, [dialog, focusFieldCb]);

  const previousHref = nav.previous?.href;
  const onPrevious = useMemo(() => (previousHref ? () => router.push(previousHref) : null), [previousHref, router]);
  const onSubmitKey = useCallback(() => void doSubmit(), [doSubmit]);
  useLabelKeys({ fields, hotkeys, focusField: focusFieldCb, dialog, setDialog, readOnly, canSkip: !readOnly && status === "CLAIMED", prefix, setPrefix, onSubmit: onSubmitKey, onChoose: choose, onPrevious });
  const prefixed = prefix === null ? null : [...hotkeys.values()].find((h) => h.scope.type === "prefix" && h.scope.letter === prefix);
  const prefixedField = prefixed && formFields.find((f) => f.key === prefixed.field);

  async function onSkip(reason: string) {
    const res = await skip({ assignmentId: item.assignment.id, reason });
    if (!res.ok) return setError(res.error);
    window.localStorage.removeItem(backupKey(item.assignment.id));
    setDialog(null);
    router.refresh();
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <div>
        <div className="mb-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
          <Link href="/annotate" className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700">← Campaigns</Link>
          <span className="font-medium text-slate-900">{item.campaign.name}</span>
          <span data-testid="progress">{progress.submitted} of {progress.expected}</span>
          <span className="font-mono text-xs text-slate-500" title="Opaque item id">{item.itemId}</span>
          <nav aria-label="My items" className="ml-auto flex items-center gap-3">
            {nav.previous ? (
              <Link href={nav.previous.href} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="previous-item" title={nav.previous.hint}>‹ Previous item <kbd aria-hidden="true" className="font-mono text-[10px] text-slate-500">p</kbd></Link>
            ) : (
              <span className="text-slate-500">‹ Previous item</span>
            )}
            {nav.next && <Link href={nav.next.href} className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-indigo-700" data-testid="next-item" title={nav.next.hint}>{nav.next.position === null ? "Back to my current item ›" : "Next ›"}</Link>}
            {finished.length > 0 && <FinishedItems items={finished} current={revising?.href ?? null} compact />}
          </nav>
        </div>
        <p className="mb-3 text-xs text-slate-500" data-testid="item-keys">
          Keys: <kbd className="font-mono">c</kbd> task context · <kbd className="font-mono">t</kbd> thoughts · <kbd className="font-mono">f</kbd> final message · <kbd className="font-mono">[</kbd> <kbd className="font-mono">]</kbd> steps · <kbd className="font-mono">o</kbd> observation in full · Tab moves in reading order · <kbd className="font-mono">?</kbd> all keys
        </p>
        {revising && (
          <p className="mb-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="revising">
            Revising your label for item {revising.position}: “{revising.hint}”. Saving a change records a revision; the original stays in the audit log.
          </p>
        )}
        {item.scenario && <div className="mb-4"><ScenarioItem scenario={item.scenario} episode={item.kind === "trajectory"} /></div>}
        {item.kind === "trajectory" && <BlindedTrajectory item={item} keyboard={!dialog} />}
      </div>

      {/* Sticky, and short enough that its bottom (the status and submit bar) is in view even before the page scrolls (header above it). */}
      <aside className="lg:sticky lg:top-4 lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-auto lg:scroll-pb-40">
        <form
          aria-label="Label this trajectory"
          className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          onSubmit={(e) => {
            e.preventDefault();
            void doSubmit();
          }}
        >
          <div className="flex items-center justify-between">
            <h2 className="font-medium">{status === "SUBMITTED" ? "Revise your label" : "Your label"}</h2>
            <button type="button" onClick={() => setDialog("help")} className="rounded border border-slate-300 px-1.5 text-xs text-slate-600" aria-label="Keyboard shortcuts">?</button>
          </div>
          <p className="-mt-2 text-xs text-slate-500">Each field shows its keys; they work wherever the focus is.</p>
          <p role="status" className={prefixedField ? "rounded-md bg-indigo-50 px-2 py-1 text-xs text-indigo-900" : "sr-only"} data-testid="prefix-pending">
            {prefixedField && prefixed ? <>{prefix} … now {keyRange(prefixed.keys)} for {prefixedField.label} (Esc cancels)</> : null}
          </p>
          {readOnly && <p className="rounded-md bg-slate-100 px-2 py-1 text-xs text-slate-600">{item.campaign.locked ? "The campaign is locked: labels can no longer change." : "You skipped this item."}</p>}
          <LabelFields fields={fields} hotkeys={hotkeys} values={values} focused={focused} readOnly={readOnly} onFocus={setFocused} onChange={update} fieldRefs={fieldRefs} commentRef={commentRef} steps={item.steps} />
          <SubmitBar error={error} missing={missing.map((f) => f.label)} save={save} readOnly={readOnly} submitting={submitting} status={status} onSkip={() => setDialog("skip")} onGuidelines={() => setDialog("guidelines")} />
        </form>
      </aside>

      {dialog === "help" && <ShortcutSheet fields={formFields} hotkeys={hotkeys} onClose={() => setDialog(null)} />}
      {dialog === "guidelines" && <GuidelinesDialog campaignName={item.campaign.name} guidelines={item.campaign.guidelines} onClose={() => setDialog(null)} />}
      {dialog === "skip" && <SkipDialog onSkip={onSkip} onClose={() => setDialog(null)} />}
    </div>
  );
}
