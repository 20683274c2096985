"use client";

// The review queue (issue 17): generated items on the left, the selected one on the right with a
// JSON editor whose validation problems are listed at their fields (with the line; a click puts
// the cursor there). Accept / edit / reject with the keyboard: j / k move, a accepts, e edits,
// r rejects; in the editor Ctrl+Enter saves and Esc leaves. Who decided and when is shown on
// every decided item; accepted ones link to their toolkit or case and, for a case, the playground.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/lib/auth/guard";
import type { ReviewFilter, ReviewItem, ReviewQueue as Queue } from "@/lib/authoring/review-queries";
import type { Validation, ValidationIssue } from "@/lib/authoring/validate";
import { lineOfPath, pathLines } from "@/lib/authoring/json-locate";
import { parseEditorJson } from "@/lib/authoring/review-schemas";
import { MODE_LABELS } from "@/lib/authoring/schemas";
import { primaryButtonCls, secondaryButtonCls } from "@/components/ui/form";

type AcceptResult = { accepted: true; toolkitId: string | null; caseId: string | null; name: string } | { accepted: false; issues: ValidationIssue[] };

interface Props {
  queue: Queue;
  status: ReviewFilter;
  jobId: string | null;
  accept: (input: { id: string; json?: string; note?: string }) => Promise<ActionResult<AcceptResult>>;
  reject: (input: { id: string; note?: string }) => Promise<ActionResult<{ id: string }>>;
  saveEdit: (input: { id: string; json: string }) => Promise<ActionResult<Validation>>;
}

const FILTER_LABELS: Record<ReviewFilter, string> = { PENDING: "To review", ACCEPTED: "Accepted", REJECTED: "Rejected", ALL: "All" };
const STATUS_CLS = { PENDING: "bg-slate-100 text-slate-700", ACCEPTED: "bg-emerald-100 text-emerald-800", REJECTED: "bg-rose-100 text-rose-800" } as const;

function initialText(item: ReviewItem): string {
  const value = item.editedPayload ?? item.payload;
  return value === null || value === undefined ? (item.rawOutput ?? "") : JSON.stringify(value, null, 2);
}

const isTyping = (el: EventTarget | null) => el instanceof HTMLElement && (el.tagName === "TEXTAREA" || el.tagName === "INPUT" || el.tagName === "SELECT" || el.isContentEditable);
const when = (iso: string) => new Date(iso).toLocaleString();

export function ReviewQueue({ queue, status, jobId, accept, reject, saveEdit }: Props) {
  const router = useRouter();
  const items = queue.items;
  // The selection, by id and position: a decision removes the item from a filtered list, and the
  // cursor then stays at the same place.
  const [sel, setSel] = useState<{ id: string | null; pos: number }>({ id: items[0]?.id ?? null, pos: 0 });
  const found = items.findIndex((i) => i.id === sel.id);
  const index = found >= 0 ? found : Math.min(sel.pos, Math.max(0, items.length - 1));
  const item = items[index] ?? null;
  const setSelectedId = (id: string) => setSel({ id, pos: Math.max(0, items.findIndex((i) => i.id === id)) });
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [issues, setIssues] = useState<Record<string, ValidationIssue[]>>({});
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string; links?: { href: string; label: string; testId: string }[] } | null>(null);
  const editorRef = useRef<HTMLTextAreaElement>(null);

  const text = item ? (texts[item.id] ?? initialText(item)) : "";
  const edited = !!item && texts[item.id] !== undefined && texts[item.id] !== initialText(item);
  const shownIssues = item ? (issues[item.id] ?? item.issues) : [];
  const syntax = useMemo(() => (item && text.trim() ? parseEditorJson(text) : null), [item, text]);
  const lines = useMemo(() => pathLines(text), [text]);

  const move = useCallback((d: number) => {
    const next = items[Math.min(items.length - 1, Math.max(0, index + d))];
    if (next) {
      setSel({ id: next.id, pos: items.indexOf(next) });
      setMessage(null);
      setNote("");
      document.getElementById(`review-item-${next.id}`)?.scrollIntoView({ block: "nearest" });
    }
  }, [items, index]);

  const goToLine = (line: number | null) => {
    const el = editorRef.current;
    if (!el || line === null) return;
    const start = text.split("\n").slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
    const end = text.indexOf("\n", start);
    el.focus();
    el.setSelectionRange(start, end < 0 ? text.length : end);
  };

  const doSave = useCallback(async () => {
    if (!item || item.status !== "PENDING" || busy) return;
    setBusy(true);
    const res = await saveEdit({ id: item.id, json: text });
    setBusy(false);
    if (!res.ok) return setMessage({ tone: "error", text: res.error });
    setIssues((m) => ({ ...m, [item.id]: res.data.issues }));
    setMessage(res.data.ok ? { tone: "ok", text: "Edit saved: valid, ready to accept." } : { tone: "error", text: `Edit saved, with ${res.data.issues.length} problem(s) to fix before accepting.` });
    router.refresh();
  }, [item, busy, saveEdit, text, router]);

  const doAccept = useCallback(async () => {
    if (!item || item.status !== "PENDING" || busy) return;
    if (syntax && !syntax.ok) return setMessage({ tone: "error", text: syntax.message });
    setBusy(true);
    const res = await accept({ id: item.id, ...(edited ? { json: text } : {}), ...(note.trim() ? { note: note.trim() } : {}) });
    setBusy(false);
    if (!res.ok) return setMessage({ tone: "error", text: res.error });
    if (!res.data.accepted) {
      setIssues((m) => ({ ...m, [item.id]: res.data.accepted ? [] : (res.data as { issues: ValidationIssue[] }).issues }));
      return setMessage({ tone: "error", text: "Not accepted: fix the problems listed under the editor." });
    }
    const d = res.data;
    const links = d.caseId
      ? [{ href: `/cases/${encodeURIComponent(d.name)}`, label: "Open the case", testId: "accepted-case-link" }, { href: `/playground?case=${d.caseId}`, label: "Run it in the playground", testId: "accepted-playground-link" }]
      : [{ href: `/toolkits/${encodeURIComponent(d.name)}`, label: "Open the toolkit", testId: "accepted-toolkit-link" }, { href: `/generate?kind=CASES&toolkit=${encodeURIComponent(d.name)}`, label: "Generate cases for it", testId: "accepted-generate-cases" }];
    setMessage({ tone: "ok", text: `Accepted: ${d.name} is now a ${d.caseId ? "test case" : "toolkit"} (GENERATED).`, links });
    setNote("");
    router.refresh();
  }, [item, busy, syntax, accept, edited, text, note, router]);

  const doReject = useCallback(async () => {
    if (!item || item.status !== "PENDING" || busy) return;
    setBusy(true);
    const res = await reject({ id: item.id, ...(note.trim() ? { note: note.trim() } : {}) });
    setBusy(false);
    if (!res.ok) return setMessage({ tone: "error", text: res.error });
    setMessage({ tone: "ok", text: `Rejected: ${item.title}.` });
    setNote("");
    router.refresh();
  }, [item, busy, reject, note, router]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target === editorRef.current) {
        if (e.key === "Escape") editorRef.current?.blur();
        else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void doSave();
        }
        return;
      }
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "j") move(1);
      else if (e.key === "k") move(-1);
      else if (e.key === "a") void doAccept();
      else if (e.key === "r") void doReject();
      else if (e.key === "e" && item?.status === "PENDING") {
        e.preventDefault();
        editorRef.current?.focus();
      } else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [move, doAccept, doReject, doSave, item]);

  const filterHref = (s: ReviewFilter) => `/generate/review?status=${s}${jobId ? `&job=${jobId}` : ""}`;

  return (
    <div>
      <nav aria-label="Filter by review status" className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        {(["PENDING", "ACCEPTED", "REJECTED", "ALL"] as const).map((s) => (
          <Link key={s} href={filterHref(s)} aria-current={s === status ? "page" : undefined} className={`rounded-full border px-3 py-1 ${s === status ? "border-indigo-500 bg-indigo-50 text-indigo-800" : "border-slate-200 bg-white text-slate-700 hover:bg-slate-50"}`} data-testid={`review-filter-${s}`}>
            {FILTER_LABELS[s]}{s !== "ALL" ? ` (${queue.counts[s]})` : ""}
          </Link>
        ))}
        {jobId && <Link href={`/generate/review?status=${status}`} className="text-xs text-slate-600 underline">Showing one job — show all jobs</Link>}
      </nav>
      {/* Above the list: it stays when the decided item was the last one shown. */}
      {message && (
        <div role={message.tone === "error" ? "alert" : "status"} className={`mb-3 rounded-md p-2 text-sm ${message.tone === "error" ? "bg-rose-50 text-rose-800" : "bg-emerald-50 text-emerald-900"}`} data-testid="review-message">
          {message.text}
          {message.links?.map((l) => <Link key={l.href} href={l.href} className="ml-3 font-medium underline" data-testid={l.testId}>{l.label}</Link>)}
        </div>
      )}
      {items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-500" data-testid="review-empty">
          {status === "PENDING" ? "Nothing waits for review." : "No item here."} <Link href="/generate" className="text-indigo-700 underline">Generate toolkits or cases</Link>{status === "PENDING" ? ", or look at the accepted and rejected ones above." : "."}
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
          <ol className="max-h-[70vh] overflow-y-auto rounded-xl border border-slate-200 bg-white text-sm shadow-sm" aria-label="Generated items" data-testid="review-list">
            {items.map((i) => (
              <li key={i.id} id={`review-item-${i.id}`}>
                <button type="button" onClick={() => { setSelectedId(i.id); setMessage(null); }} aria-current={i.id === item?.id ? "true" : undefined}
                  className={`block w-full border-l-4 px-3 py-2 text-left ${i.id === item?.id ? "border-indigo-500 bg-indigo-50" : "border-transparent hover:bg-slate-50"}`} data-testid="review-list-item">
                  <span className="block truncate font-medium text-slate-900">{i.title}</span>
                  <span className="mt-0.5 flex flex-wrap gap-1 text-xs">
                    <span className="rounded bg-slate-100 px-1 text-slate-700">{i.kind === "TOOLKIT" ? "toolkit" : "case"}</span>
                    {i.job.mode && <span className="rounded bg-slate-100 px-1 text-slate-700">{MODE_LABELS[i.job.mode as keyof typeof MODE_LABELS]}</span>}
                    {!i.valid && i.status === "PENDING" && <span className="rounded bg-rose-100 px-1 text-rose-800">invalid</span>}
                    <span className={`rounded px-1 ${STATUS_CLS[i.status]}`}>{i.status.toLowerCase()}</span>
                  </span>
                </button>
              </li>
            ))}
          </ol>

          {item && (
            <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="review-title" data-testid="review-detail" data-item-id={item.id} data-status={item.status}>
              <div className="flex flex-wrap items-center gap-2">
                <h2 id="review-title" className="text-lg font-semibold">{item.title}</h2>
                <span className="rounded bg-violet-100 px-1.5 py-0.5 text-xs font-medium text-violet-800" title="Accepted items become toolkits or cases with provenance GENERATED">GENERATED</span>
                {item.job.offline && <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">offline heuristic (not an LLM)</span>}
                <span className={`rounded px-1.5 py-0.5 text-xs ${STATUS_CLS[item.status]}`} data-testid="review-status">{item.status.toLowerCase()}</span>
                <span className="ml-auto text-xs text-slate-500">{index + 1} of {items.length}</span>
              </div>
              <p className="mt-1 text-xs text-slate-600">
                {item.kind === "TOOLKIT" ? "Toolkit" : "Test case"} · item {item.position + 1} of a job by {item.job.createdBy} ({when(item.job.createdAt)}) on {item.job.endpointName}
                {item.templates.length > 0 && <> · prompts {item.templates.join(", ")}</>}
              </p>
              {item.status !== "PENDING" && (
                <p className="mt-2 rounded-md bg-slate-50 p-2 text-sm" data-testid="review-decision">
                  {item.status === "ACCEPTED" ? "Accepted" : "Rejected"} by <strong>{item.reviewer ?? "a deleted user"}</strong>{item.reviewedAt ? ` on ${when(item.reviewedAt)}` : ""}{item.editedPayload ? " (edited in review)" : ""}{item.reviewNote ? ` — “${item.reviewNote}”` : ""}.
                  {item.caseId && <> <Link className="text-indigo-700 underline" href={`/playground?case=${item.caseId}`}>Run it in the playground</Link></>}
                  {item.toolkitId && <> <Link className="text-indigo-700 underline" href={`/generate?kind=CASES&toolkit=${encodeURIComponent(item.title)}`}>Generate cases for it</Link></>}
                </p>
              )}

              <label htmlFor="review-editor" className="mt-4 block text-sm font-medium text-slate-800">
                {item.status === "PENDING" ? "JSON (editable — e to edit, Ctrl+Enter to save, Esc to leave)" : "JSON"}
              </label>
              <textarea id="review-editor" ref={editorRef} value={text} readOnly={item.status !== "PENDING"} spellCheck={false}
                onChange={(e) => { const v = e.target.value; setTexts((m) => ({ ...m, [item.id]: v })); }}
                aria-invalid={shownIssues.length > 0 || (syntax !== null && !syntax.ok) ? true : undefined} aria-describedby="review-issues"
                className="mt-1 block h-[26rem] w-full rounded-md border border-slate-300 bg-slate-50 p-2 font-mono text-xs leading-5 text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 aria-[invalid=true]:border-rose-400"
                data-testid="review-editor" />
              <div id="review-issues" aria-live="polite" className="mt-2 text-sm">
                {syntax && !syntax.ok ? (
                  <p className="text-rose-700" data-testid="review-syntax-error">{syntax.message}</p>
                ) : shownIssues.length > 0 ? (
                  <ul className="space-y-1" data-testid="review-issues">
                    {shownIssues.map((iss, n) => {
                      const line = lineOfPath(lines, iss.path);
                      return (
                        <li key={n} className="rounded bg-rose-50 px-2 py-1 text-rose-800">
                          <button type="button" className="text-left" onClick={() => goToLine(line)} data-testid="review-issue" data-path={iss.path}>
                            <code className="font-mono text-xs">{iss.path || "(whole value)"}</code>{line ? <span className="text-xs text-rose-600"> · line {line}</span> : null}: {iss.message}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                ) : item.status === "PENDING" ? (
                  <p className="text-emerald-700" data-testid="review-valid">{edited ? "Edited — save (Ctrl+Enter) or accept to check it again." : "Valid: the importer's schemas accept it."}</p>
                ) : null}
              </div>

              {item.status === "PENDING" && (
                <div className="mt-4 flex flex-wrap items-end gap-2">
                  <label className="grow text-sm">
                    <span className="block text-xs font-medium text-slate-700">Note (optional, kept with the decision)</span>
                    <input value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1 text-sm" data-testid="review-note" />
                  </label>
                  <button type="button" onClick={() => void doAccept()} disabled={busy} className={primaryButtonCls} data-testid="review-accept"><u>A</u>ccept{edited ? " as edited" : ""}</button>
                  <button type="button" onClick={() => void doSave()} disabled={busy || !edited} className={secondaryButtonCls} data-testid="review-save">Save edit</button>
                  <button type="button" onClick={() => void doReject()} disabled={busy} className="rounded-md border border-rose-300 bg-white px-3 py-1.5 text-sm text-rose-700 hover:bg-rose-50" data-testid="review-reject"><u>R</u>eject</button>
                </div>
              )}
              {item.rawOutput && item.payload === null && <p className="mt-2 text-xs text-slate-500">The model&apos;s answer held no usable JSON; the editor shows it as written — replace it with the JSON you want, or reject it.</p>}
              <p className="mt-4 text-xs text-slate-500">Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous · <kbd>a</kbd> accept · <kbd>e</kbd> edit · <kbd>r</kbd> reject</p>
            </section>
          )}
        </div>
      )}
    </div>
  );
}
