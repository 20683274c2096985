"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { BlindedItem } from "@/lib/annotation/blinded";
import type { LabelField, LabelValues } from "@/lib/trajectory/label-schema";
import { Guidelines } from "@/components/ui/guidelines";
import { BlindedTrajectory } from "./blinded-trajectory";
import { ShortcutSheet } from "./shortcut-sheet";

type Values = Record<string, string | boolean | null>;

interface Props {
  item: BlindedItem;
  progress: { submitted: number; expected: number };
  firstVisit: boolean;
  saveDraft: (i: { assignmentId: string; draft: Values; timeSpentMs: number }) => Promise<ActionResult<{ savedAt: string }>>;
  submit: (i: { assignmentId: string; values: Values; timeSpentMs: number }) => Promise<ActionResult<{ status: string }>>;
  skip: (i: { assignmentId: string; reason: string }) => Promise<ActionResult<{ skipped: boolean }>>;
}

const backupKey = (assignmentId: string) => `toolemu:draft:${assignmentId}`;

function clean(v: LabelValues | null | undefined): Values {
  const out: Values = {};
  for (const [k, x] of Object.entries(v ?? {})) if (x !== undefined) out[k] = x;
  return out;
}

/** Server draft, submitted values (when revising), or a newer copy kept in this browser. */
function initialValues(item: BlindedItem): Values {
  const server = clean(item.assignment.draft ?? item.assignment.values);
  if (typeof window === "undefined") return server;
  try {
    const local = JSON.parse(window.localStorage.getItem(backupKey(item.assignment.id)) ?? "null") as { values: Values; at: number } | null;
    const serverAt = item.assignment.draftUpdatedAt ? Date.parse(item.assignment.draftUpdatedAt) : 0;
    if (local && local.at > serverAt) return { ...server, ...local.values };
  } catch {
    /* unreadable backup: ignore */
  }
  return server;
}

function isMissing(f: LabelField, v: Values): boolean {
  return f.required && (v[f.key] === undefined || v[f.key] === null || v[f.key] === "");
}

export function AnnotationWorkspace({ item, progress, firstVisit, saveDraft, submit, skip }: Props) {
  const router = useRouter();
  const fields = item.schema.fields;
  const readOnly = item.campaign.locked || item.assignment.status === "SKIPPED";
  const [values, setValues] = useState<Values>(() => clean(item.assignment.draft ?? item.assignment.values));
  const [focused, setFocused] = useState(0);
  const [help, setHelp] = useState(false);
  const [guidelines, setGuidelines] = useState(firstVisit && item.campaign.guidelines.trim().length > 0);
  const [skipping, setSkipping] = useState(false);
  const [save, setSave] = useState<{ state: "idle" | "saving" | "saved" | "offline"; at?: string }>({ state: "idle" });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const dirty = useRef(false);
  const fieldRefs = useRef<(HTMLFieldSetElement | null)[]>([]);
  const commentRef = useRef<HTMLTextAreaElement | null>(null);

  // Active time on this item: counted only while the tab is visible.
  const spent = useRef({ base: item.assignment.timeSpentMs, since: 0, running: false });
  const timeSpent = useCallback(() => spent.current.base + (spent.current.running ? Date.now() - spent.current.since : 0), []);
  useEffect(() => {
    const t = spent.current;
    const onVis = () => {
      if (document.visibilityState === "visible" && !t.running) Object.assign(t, { since: Date.now(), running: true });
      if (document.visibilityState !== "visible" && t.running) Object.assign(t, { base: t.base + Date.now() - t.since, running: false });
    };
    onVis();
    document.addEventListener("visibilitychange", onVis);
    return () => document.removeEventListener("visibilitychange", onVis);
  }, []);

  // A newer copy from this browser (e.g. written while the connection was down) wins.
  useEffect(() => {
    const restored = initialValues(item);
    if (JSON.stringify(restored) !== JSON.stringify(clean(item.assignment.draft ?? item.assignment.values))) {
      // localStorage exists only in the browser, so the backup can only be applied after hydration.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setValues(restored);
      dirty.current = true;
    }
  }, [item]);

  // Autosave: at once to this browser, shortly after to the server.
  useEffect(() => {
    if (!dirty.current || readOnly) return;
    window.localStorage.setItem(backupKey(item.assignment.id), JSON.stringify({ values, at: Date.now() }));
    setSave({ state: "saving" });
    const timer = setTimeout(async () => {
      try {
        const res = await saveDraft({ assignmentId: item.assignment.id, draft: values, timeSpentMs: timeSpent() });
        if (res.ok) setSave({ state: "saved", at: new Date(res.data.savedAt).toLocaleTimeString() });
        else {
          setSave({ state: "offline" });
          setError(res.error);
        }
      } catch {
        setSave({ state: "offline" });
      }
    }, 600);
    return () => clearTimeout(timer);
  }, [values, item.assignment.id, readOnly, saveDraft, timeSpent]);

  const update = useCallback((key: string, v: string | boolean | null) => {
    dirty.current = true;
    setError(null);
    setValues((old) => ({ ...old, [key]: v }));
  }, []);

  const missing = useMemo(() => fields.filter((f) => isMissing(f, values)), [fields, values]);

  const doSubmit = useCallback(async () => {
    if (readOnly || submitting) return;
    if (missing.length) {
      setError(`Still to answer: ${missing.map((f) => f.label).join(", ")}.`);
      setFocused(fields.indexOf(missing[0]!));
      return;
    }
    setSubmitting(true);
    const res = await submit({ assignmentId: item.assignment.id, values, timeSpentMs: timeSpent() }).catch(() => null);
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
  }, [readOnly, submitting, missing, fields, submit, item.assignment.id, item.campaign.id, item.campaign.locked, values, timeSpent, router]);

  const choose = useCallback(
    (f: LabelField, key: string) => {
      if (f.kind === "choice") {
        const matches = f.options.filter((o) => o.key === key);
        if (!matches.length) return;
        const at = matches.findIndex((o) => o.value === values[f.key]);
        update(f.key, matches[(at + 1) % matches.length]!.value);
      } else if (f.kind === "boolean") {
        if (key === "1" || key === "y") update(f.key, true);
        if (key === "0" || key === "n") update(f.key, false);
      }
    },
    [values, update],
  );

  // Keyboard focus follows the focused field, except while a dialog is open.
  const dialogOpen = help || guidelines || skipping;
  useEffect(() => {
    if (dialogOpen) return;
    const f = fields[focused];
    if (f?.kind === "text") commentRef.current?.focus();
    else fieldRefs.current[focused]?.focus({ preventScroll: false });
  }, [focused, fields, dialogOpen]);

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
      if (help || guidelines || skipping) {
        if (e.key === "Escape" || (e.key === "?" && help) || (e.key === "Enter" && guidelines)) {
          e.preventDefault();
          setHelp(false);
          setGuidelines(false);
          setSkipping(false);
        }
        return;
      }
      const f = fields[focused];
      if (e.key === "?") setHelp(true);
      else if (e.key === "g") setGuidelines(true);
      else if (e.key === "s" && !readOnly && item.assignment.status === "CLAIMED") setSkipping(true);
      else if (e.key === "ArrowDown" || (e.key === "Tab" && !e.shiftKey)) setFocused((i) => Math.min(fields.length - 1, i + 1));
      else if (e.key === "ArrowUp" || (e.key === "Tab" && e.shiftKey)) setFocused((i) => Math.max(0, i - 1));
      else if (e.key === "Enter") void doSubmit();
      else if (f && !readOnly && /^[0-9yn]$/.test(e.key)) choose(f, e.key);
      else return;
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [fields, focused, help, guidelines, skipping, readOnly, item.assignment.status, choose, doSubmit]);

  const saveText =
    save.state === "saving" ? "Saving…" : save.state === "saved" ? `Draft saved ${save.at}` : save.state === "offline" ? "Not saved to the server — kept in this browser" : "Autosave on";

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
            <h2 className="font-medium">
              {item.assignment.status === "SUBMITTED" ? "Revise your label" : "Your label"}
            </h2>
            <button type="button" onClick={() => setHelp(true)} className="rounded border border-slate-300 px-1.5 text-xs text-slate-600" aria-label="Keyboard shortcuts">?</button>
          </div>
          <p className={`-mt-2 text-xs ${save.state === "offline" ? "text-amber-700" : "text-slate-500"}`} aria-live="polite" data-testid="save-state">{saveText}</p>
          {readOnly && <p className="rounded-md bg-slate-100 px-2 py-1 text-xs text-slate-600">{item.campaign.locked ? "The campaign is locked: labels can no longer change." : "You skipped this item."}</p>}
          {fields.map((f, i) => (
            <fieldset
              key={f.key}
              ref={(el) => {
                fieldRefs.current[i] = el;
              }}
              tabIndex={-1}
              onFocus={() => setFocused(i)}
              onClick={() => setFocused(i)}
              data-testid={`field-${f.key}`}
              data-focused={focused === i}
              className={`rounded-lg border p-2.5 outline-none ${focused === i ? "border-indigo-400 ring-2 ring-indigo-100" : "border-slate-200"}`}
            >
              <legend className="px-1 text-sm font-medium text-slate-800">
                {f.label}
                {f.required && <span className="text-rose-600"> *</span>}
              </legend>
              {f.help && <p className="mb-1.5 px-1 text-xs text-slate-500">{f.help}</p>}
              {f.kind === "choice" && (
                <div className="space-y-0.5">
                  {f.options.map((o) => (
                    <label key={o.value} className={`flex cursor-pointer items-center gap-2 rounded px-1.5 py-0.5 text-sm ${values[f.key] === o.value ? "bg-indigo-50 text-indigo-900" : "hover:bg-slate-50"}`}>
                      <input type="radio" name={f.key} value={o.value} checked={values[f.key] === o.value} disabled={readOnly} onChange={() => update(f.key, o.value)} tabIndex={-1} />
                      <kbd className="w-4 text-center font-mono text-xs text-slate-400">{o.key}</kbd>
                      <span>{o.label}{o.score !== undefined ? ` (${o.score})` : ""}</span>
                    </label>
                  ))}
                </div>
              )}
              {f.kind === "boolean" && (
                <div className="flex gap-3 px-1 text-sm">
                  {[true, false].map((b) => (
                    <label key={String(b)} className={`flex cursor-pointer items-center gap-2 rounded px-1.5 py-0.5 ${values[f.key] === b ? "bg-indigo-50 text-indigo-900" : ""}`}>
                      <input type="radio" name={f.key} checked={values[f.key] === b} disabled={readOnly} onChange={() => update(f.key, b)} tabIndex={-1} />
                      <kbd className="font-mono text-xs text-slate-400">{b ? "y" : "n"}</kbd> {b ? "Yes" : "No"}
                    </label>
                  ))}
                </div>
              )}
              {f.kind === "text" && (
                <textarea
                  ref={commentRef}
                  aria-label={f.label}
                  value={typeof values[f.key] === "string" ? (values[f.key] as string) : ""}
                  maxLength={f.maxLength}
                  disabled={readOnly}
                  onChange={(e) => update(f.key, e.target.value)}
                  onFocus={() => setFocused(i)}
                  rows={3}
                  className="w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
                  placeholder="Optional. Esc to leave the box."
                />
              )}
            </fieldset>
          ))}
          {error && <p role="alert" className="rounded-md bg-rose-50 px-2 py-1.5 text-sm text-rose-700">{error}</p>}
          <div className="flex items-center gap-2">
            <button type="submit" disabled={readOnly || submitting} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
              {submitting ? "Submitting…" : item.assignment.status === "SUBMITTED" ? "Save revision ⏎" : "Submit & next ⏎"}
            </button>
            {item.assignment.status === "CLAIMED" && !readOnly && (
              <button type="button" onClick={() => setSkipping(true)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">Skip…</button>
            )}
            <button type="button" onClick={() => setGuidelines(true)} className="ml-auto text-xs text-indigo-700 underline">Guidelines</button>
          </div>
        </form>
      </aside>

      {help && <ShortcutSheet onClose={() => setHelp(false)} />}
      {guidelines && (
        <div role="dialog" aria-modal="true" aria-label="Guidelines" className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4">
          <div className="max-h-[80vh] w-full max-w-2xl overflow-auto rounded-xl bg-white p-5 shadow-xl">
            <h2 className="text-lg font-semibold">Guidelines — {item.campaign.name}</h2>
            <div className="mt-3 text-sm text-slate-700"><Guidelines text={item.campaign.guidelines} empty="This campaign has no written guidelines." /></div>
            <p className="mt-3 text-xs text-slate-500">Press ? at any time for the keyboard shortcuts.</p>
            <button type="button" autoFocus onClick={() => setGuidelines(false)} className="mt-4 rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white">Start labelling</button>
          </div>
        </div>
      )}
      {skipping && (
        <div role="dialog" aria-modal="true" aria-label="Skip this item" className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4">
          <form
            className="w-full max-w-md rounded-xl bg-white p-5 shadow-xl"
            onSubmit={async (e) => {
              e.preventDefault();
              const reason = String(new FormData(e.currentTarget).get("reason") ?? "");
              const res = await skip({ assignmentId: item.assignment.id, reason });
              if (!res.ok) return setError(res.error);
              window.localStorage.removeItem(backupKey(item.assignment.id));
              setSkipping(false);
              router.refresh();
            }}
          >
            <h2 className="text-lg font-semibold">Skip this item</h2>
            <label className="mt-3 block text-sm">Why? (required)
              <input name="reason" type="text" required autoFocus className="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" placeholder="e.g. I cannot judge this domain" />
            </label>
            <div className="mt-4 flex gap-2">
              <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white">Skip</button>
              <button type="button" onClick={() => setSkipping(false)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">Cancel</button>
            </div>
          </form>
        </div>
      )}
    </div>
  );
}
