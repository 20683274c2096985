"use client";

// The annotation screen: the blinded item on the left, the label form on the right (fields,
// autosave state, submit bar), the dialogs, and the keyboard. The parts live beside this file:
// draft.ts (values, autosave, time), label-fields.tsx, submit-bar.tsx, use-label-keys.ts,
// dialogs.tsx.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { BlindedItem } from "@/lib/annotation/blinded";
import type { LabelField } from "@/lib/trajectory/label-schema";
import { BlindedTrajectory } from "./blinded-trajectory";
import { ShortcutSheet } from "./shortcut-sheet";
import { backupKey, isMissing, useActiveTime, useDraft, type SaveDraft, type Values } from "./draft";
import { LabelFields, chooseByKey } from "./label-fields";
import { SaveStateLine, SubmitBar } from "./submit-bar";
import { useLabelKeys, type Dialog } from "./use-label-keys";
import { GuidelinesDialog, SkipDialog } from "./dialogs";

interface Props {
  item: BlindedItem;
  progress: { submitted: number; expected: number };
  firstVisit: boolean;
  saveDraft: SaveDraft;
  submit: (i: { assignmentId: string; values: Values; timeSpentMs: number }) => Promise<ActionResult<{ status: string }>>;
  skip: (i: { assignmentId: string; reason: string }) => Promise<ActionResult<{ skipped: boolean }>>;
}

export function AnnotationWorkspace({ item, progress, firstVisit, saveDraft, submit, skip }: Props) {
  const router = useRouter();
  const fields = item.schema.fields;
  const status = item.assignment.status;
  const readOnly = item.campaign.locked || status === "SKIPPED";
  const [focused, setFocused] = useState(0);
  const [dialog, setDialog] = useState<Dialog>(firstVisit && item.campaign.guidelines.trim().length > 0 ? "guidelines" : null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const fieldRefs = useRef<(HTMLFieldSetElement | null)[]>([]);
  const commentRef = useRef<HTMLTextAreaElement | null>(null);
  const timeSpent = useActiveTime(item.assignment.timeSpentMs);
  const { values, update, save } = useDraft(item, readOnly, saveDraft, timeSpent, setError);

  const stepCount = item.steps.length;
  const missing = useMemo(() => fields.filter((f) => isMissing(f, values, stepCount)), [fields, values, stepCount]);

  const doSubmit = useCallback(async () => {
    if (readOnly || submitting) return;
    if (missing.length) {
      setError(`Still to answer: ${missing.map((f) => f.label).join(", ")}.`);
      setFocused(fields.indexOf(missing[0]!));
      return;
    }
    setSubmitting(true);
    // A trajectory without tool steps answers a per-step field with no answers.
    const sent = stepCount > 0 ? values : { ...values, ...Object.fromEntries(fields.filter((f) => f.kind === "steps" && typeof values[f.key] !== "string").map((f) => [f.key, ""])) };
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
    router.replace(`/annotate/${item.campaign.id}`);
    router.refresh();
  }, [readOnly, submitting, missing, fields, submit, item.assignment.id, item.campaign.id, item.campaign.locked, values, timeSpent, router, stepCount]);

  const choose = useCallback((f: LabelField, key: string) => chooseByKey(f, key, values[f.key], update, stepCount), [values, update, stepCount]);

  // Keyboard focus follows the focused field, except while a dialog is open.
  useEffect(() => {
    if (dialog) return;
    const f = fields[focused];
    if (f?.kind === "text") commentRef.current?.focus();
    else fieldRefs.current[focused]?.focus({ preventScroll: false });
  }, [focused, fields, dialog]);

  useLabelKeys({ fields, focused, setFocused, dialog, setDialog, readOnly, canSkip: !readOnly && status === "CLAIMED", onSubmit: () => void doSubmit(), onChoose: choose });

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
        <div className="mb-3 flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <Link href="/annotate" className="text-indigo-700 hover:underline">← Campaigns</Link>
          <span className="font-medium text-slate-900">{item.campaign.name}</span>
          <span data-testid="progress">{progress.submitted} of {progress.expected}</span>
          <span className="font-mono text-xs text-slate-400" title="Opaque item id">{item.itemId}</span>
        </div>
        <BlindedTrajectory item={item} />
      </div>

      <aside className="lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-auto">
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
          <SaveStateLine save={save} />
          {readOnly && <p className="rounded-md bg-slate-100 px-2 py-1 text-xs text-slate-600">{item.campaign.locked ? "The campaign is locked: labels can no longer change." : "You skipped this item."}</p>}
          <LabelFields fields={fields} values={values} focused={focused} readOnly={readOnly} onFocus={setFocused} onChange={update} fieldRefs={fieldRefs} commentRef={commentRef} steps={item.steps} />
          <SubmitBar error={error} readOnly={readOnly} submitting={submitting} status={status} onSkip={() => setDialog("skip")} onGuidelines={() => setDialog("guidelines")} />
        </form>
      </aside>

      {dialog === "help" && <ShortcutSheet onClose={() => setDialog(null)} />}
      {dialog === "guidelines" && <GuidelinesDialog campaignName={item.campaign.name} guidelines={item.campaign.guidelines} onClose={() => setDialog(null)} />}
      {dialog === "skip" && <SkipDialog onSkip={onSkip} onClose={() => setDialog(null)} />}
    </div>
  );
}
