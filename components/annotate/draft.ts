"use client";

// The label being written: its values, the copy kept in this browser, the autosave to the
// server, and the active time spent on the item.
import { useCallback, useEffect, useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { BlindedItem } from "@/lib/annotation/blinded";
import { fieldVisible, type LabelField, type LabelValues } from "@/lib/trajectory/label-schema";

export type Values = Record<string, string | boolean | null>;
export type SaveState = { state: "idle" | "saving" | "saved" | "offline"; at?: string };
export type SaveDraft = (i: { assignmentId: string; draft: Values; timeSpentMs: number }) => Promise<ActionResult<{ savedAt: string }>>;

export const backupKey = (assignmentId: string) => `toolemu:draft:${assignmentId}`;

export function clean(v: LabelValues | null | undefined): Values {
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

export function isMissing(f: LabelField, v: Values, stepCount = 0): boolean {
  // A field hidden by its condition is never missing.
  if (!fieldVisible(f, v)) return false;
  if (f.kind === "steps" || f.kind === "step_rating") {
    if (stepCount === 0) return false; // nothing to answer (submitted as "")
    const x = v[f.key];
    const answered = typeof x === "string" && x.length >= stepCount && !x.includes("-");
    // An optional per-step field is missing only once started and left incomplete.
    return f.required ? !answered : typeof x === "string" && /[^-]/.test(x) && !answered;
  }
  return f.required && (v[f.key] === undefined || v[f.key] === null || v[f.key] === "");
}

/** Active time on this item: counted only while the tab is visible. */
export function useActiveTime(startMs: number): () => number {
  const spent = useRef({ base: startMs, since: 0, running: false });
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
  return useCallback(() => spent.current.base + (spent.current.running ? Date.now() - spent.current.since : 0), []);
}

/** The values with autosave: at once to this browser, shortly after to the server. */
export function useDraft(item: BlindedItem, readOnly: boolean, saveDraft: SaveDraft, timeSpent: () => number, onError: (message: string | null) => void) {
  const [values, setValues] = useState<Values>(() => clean(item.assignment.draft ?? item.assignment.values));
  const [save, setSave] = useState<SaveState>({ state: "idle" });
  const dirty = useRef(false);

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
          onError(res.error);
        }
      } catch {
        setSave({ state: "offline" });
      }
    }, 600);
    return () => clearTimeout(timer);
    // onError is a state setter (stable)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [values, item.assignment.id, readOnly, saveDraft, timeSpent]);

  const update = useCallback((key: string, v: string | boolean | null) => {
    dirty.current = true;
    onError(null);
    setValues((old) => ({ ...old, [key]: v }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { values, update, save };
}
