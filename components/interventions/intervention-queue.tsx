"use client";

// The intervention queue (/interventions), keyboard first like the annotation screen: the
// intervention leased to this approver, large (./intervention-detail.tsx), the answer bar, the
// waiting list and the latest answers beside it.
//
//   a  approve        r  reject        f  reject with feedback (Ctrl+Enter sends, Esc leaves)
//   j / n  next       k  previous      ?  the keys
//
// After each answer a confirmation is announced (aria-live) and the next intervention opens.
// While one is open its lease is renewed; when nothing waits the page looks again every 15 s.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/guard";
import type { InterventionScreen, InterventionView } from "@/lib/runs/interventions/queries";
import { FEEDBACK_MAX } from "@/lib/runs/interventions/schemas";
import { PageHeader } from "@/components/ui/page-header";
import { formatDate } from "@/components/toolemu/format";
import { InterventionDetail } from "./intervention-detail";

type Answer = (i: { id: string; decision: "approve" | "reject"; feedback?: string }) => Promise<ActionResult<{ status: "APPROVED" | "REJECTED"; feedback: string | null; enqueued: boolean; resumed: boolean }>>;
type Renew = (i: { id: string }) => Promise<ActionResult<{ id: string; leaseUntil: string }>>;

interface Props {
  screen: InterventionScreen;
  answer: Answer;
  renew: Renew;
}

const RENEW_MS = 2 * 60_000;
const EMPTY_POLL_MS = 15_000;

const KEYS: [string, string][] = [
  ["a", "Approve: the call runs and the episode goes on"],
  ["r", "Reject: the agent observes that the user blocked the action"],
  ["f", "Reject with feedback: type what the agent should do instead"],
  ["Ctrl+Enter", "Send the feedback (in the feedback box)"],
  ["Esc", "Leave the feedback box / close this sheet"],
  ["j or n", "Next waiting action"],
  ["k", "Previous waiting action"],
  ["?", "Show or hide the keys"],
];

const isTyping = (t: EventTarget | null) => t instanceof HTMLElement && !!t.closest("textarea, input, select, [contenteditable='true']");

function Kbd({ children }: { children: React.ReactNode }) {
  return <kbd className="rounded border border-current/30 bg-white/60 px-1 font-mono text-[11px] leading-4 opacity-80">{children}</kbd>;
}

export function InterventionQueue({ screen, answer, renew }: Props) {
  const router = useRouter();
  const [help, setHelp] = useState(false);
  // Survives the re-render that opens the next intervention.
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const cur = screen.current;
  const others = screen.waiting.filter((w) => w.heldBy).length;

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "Escape" && help) return setHelp(false);
      if (isTyping(e.target)) return;
      if (e.key === "?") {
        e.preventDefault();
        setHelp((h) => !h);
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [help]);

  // Nothing for this approver: look again now and then.
  useEffect(() => {
    if (cur) return;
    const t = setInterval(() => router.refresh(), EMPTY_POLL_MS);
    return () => clearInterval(t);
  }, [cur, router]);

  return (
    <div>
      <PageHeader
        title="Interventions"
        description="Critical tool calls the critic flagged before they ran. Each episode is paused until someone answers; approving runs the call, rejecting tells the agent the user blocked it."
      >
        <button type="button" onClick={() => setHelp(true)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 shadow-sm hover:bg-slate-50" aria-keyshortcuts="?">
          Keys <Kbd>?</Kbd>
        </button>
      </PageHeader>

      <p role="status" aria-live="polite" data-testid="answer-confirmation" className={confirmation ? "mb-4 rounded-md border border-emerald-200 bg-emerald-50 p-2 text-sm text-emerald-900" : "sr-only"}>
        {confirmation ?? ""}
      </p>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div>
          {cur ? (
            <Current key={cur.id} iv={cur} answer={answer} renew={renew} onAnswered={setConfirmation} helpOpen={help} />
          ) : (
            <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center" data-testid="interventions-empty" role="status">
              <p className="text-base font-medium text-slate-800">No actions waiting{others > 0 ? " for you" : ""}</p>
              <p className="mx-auto mt-2 max-w-xl text-sm text-slate-600">
                {others > 0
                  ? `${others} ${others === 1 ? "is" : "are"} being answered by other approvers right now. `
                  : "When a run's online critic flags a critical call, the episode pauses and the call appears here. "}
                This page looks again every 15 seconds.
              </p>
              <Link href="/runs" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline">Runs</Link>
            </div>
          )}
        </div>
        <QueueSide screen={screen} />
      </div>

      {help && <KeySheet onClose={() => setHelp(false)} />}
    </div>
  );
}

function Current({ iv, answer, renew, onAnswered, helpOpen }: { iv: InterventionView; answer: Answer; renew: Renew; onAnswered: (m: string) => void; helpOpen: boolean }) {
  const router = useRouter();
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const [feedback, setFeedback] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sending = useRef(false);
  const box = useRef<HTMLTextAreaElement | null>(null);

  useEffect(() => {
    if (feedbackOpen) box.current?.focus();
  }, [feedbackOpen]);

  // Keep the hold while the page is open.
  useEffect(() => {
    const t = setInterval(async () => {
      const res = await renew({ id: iv.id }).catch(() => null);
      if (res && !res.ok) setError(res.error);
    }, RENEW_MS);
    return () => clearInterval(t);
  }, [iv.id, renew]);

  const send = useCallback(
    async (decision: "approve" | "reject", text?: string) => {
      if (sending.current) return;
      const fb = text?.trim();
      if (text !== undefined && !fb) {
        setError("Write the feedback first (or press r to reject without feedback).");
        box.current?.focus();
        return;
      }
      sending.current = true;
      setBusy(true);
      setError(null);
      const res = await answer({ id: iv.id, decision, ...(fb ? { feedback: fb } : {}) }).catch(() => null);
      if (!res || !res.ok) {
        sending.current = false;
        setBusy(false);
        setError(res ? res.error : "Could not reach the server; nothing was stored. Try again.");
        return;
      }
      const what = decision === "approve" ? "Approved" : fb ? "Rejected with feedback" : "Rejected";
      const then = decision === "approve" ? "the call runs and the episode goes on" : fb ? "the agent is told the user blocked it, with your feedback" : "the agent is told the user blocked it";
      onAnswered(`${what}: ${iv.tool} in ${iv.case.name} — ${then}${res.data.resumed && !res.data.enqueued ? " when its run is resumed" : ""}.`);
      router.replace("/interventions");
      router.refresh();
    },
    [answer, iv.id, iv.tool, iv.case.name, onAnswered, router],
  );

  const move = useCallback((dir: "next" | "prev") => router.push(`/interventions?from=${encodeURIComponent(iv.id)}&dir=${dir}`), [iv.id, router]);

  // A layout effect: the listener is swapped in the same commit that shows the next intervention,
  // so a key pressed right after it appears never acts on the one before (a passive effect left
  // the old listener — and the old id — in place until after paint).
  useLayoutEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || helpOpen) return;
      if (isTyping(e.target)) {
        if (e.target === box.current) {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void send("reject", feedback);
          } else if (e.key === "Escape") {
            e.preventDefault();
            box.current?.blur();
            setFeedbackOpen(false);
          }
        }
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key;
      if (k === "a") void send("approve");
      else if (k === "r") void send("reject");
      else if (k === "f") setFeedbackOpen(true);
      else if (k === "j" || k === "n") move("next");
      else if (k === "k") move("prev");
      else return;
      // The key must not also type into the box it opens.
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [send, move, feedback, helpOpen]);

  const btn = "inline-flex items-center gap-2 rounded-md border px-3 py-2 text-sm font-medium shadow-sm disabled:opacity-50";
  return (
    <div className="space-y-4">
      <div className="sticky top-0 z-10 -mx-1 rounded-xl border border-slate-200 bg-white/95 p-3 shadow-sm backdrop-blur" data-testid="answer-bar">
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" disabled={busy} onClick={() => void send("approve")} className={`${btn} border-emerald-600 bg-emerald-600 text-white hover:bg-emerald-500`} aria-keyshortcuts="a" data-testid="approve">
            Approve <Kbd>a</Kbd>
          </button>
          <button type="button" disabled={busy} onClick={() => void send("reject")} className={`${btn} border-rose-600 bg-white text-rose-700 hover:bg-rose-50`} aria-keyshortcuts="r" data-testid="reject">
            Reject <Kbd>r</Kbd>
          </button>
          <button type="button" disabled={busy} onClick={() => setFeedbackOpen(true)} className={`${btn} border-rose-300 bg-white text-rose-700 hover:bg-rose-50`} aria-keyshortcuts="f" aria-expanded={feedbackOpen} data-testid="reject-feedback">
            Reject with feedback <Kbd>f</Kbd>
          </button>
          <span className="ml-auto flex items-center gap-2">
            <button type="button" onClick={() => move("prev")} className={`${btn} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} aria-keyshortcuts="k">
              Previous <Kbd>k</Kbd>
            </button>
            <button type="button" onClick={() => move("next")} className={`${btn} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`} aria-keyshortcuts="j n">
              Next <Kbd>j</Kbd>
            </button>
          </span>
        </div>
        {feedbackOpen && (
          <form
            className="mt-3"
            onSubmit={(e) => {
              e.preventDefault();
              void send("reject", feedback);
            }}
          >
            <label htmlFor="intervention-feedback" className="block text-sm font-medium text-slate-800">Feedback for the agent&apos;s next trial</label>
            <textarea
              id="intervention-feedback"
              ref={box}
              value={feedback}
              onChange={(e) => setFeedback(e.target.value)}
              maxLength={FEEDBACK_MAX}
              rows={3}
              placeholder="What should the agent do instead? e.g. Pay only the $120 bill, to the payee already on file."
              className="mt-1 w-full rounded-md border border-slate-300 p-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
              data-testid="feedback-input"
              aria-describedby="feedback-hint"
            />
            <div className="mt-1 flex items-center gap-3">
              <button type="submit" disabled={busy} className={`${btn} border-rose-600 bg-rose-600 text-white hover:bg-rose-500`} data-testid="send-feedback">
                Reject and send <Kbd>Ctrl+Enter</Kbd>
              </button>
              <span id="feedback-hint" className="text-xs text-slate-500">Esc leaves the box. {feedback.length}/{FEEDBACK_MAX}</span>
            </div>
          </form>
        )}
        {busy && <p className="mt-2 text-sm text-slate-600">Saving the answer…</p>}
        {error && <p role="alert" className="mt-2 rounded-md bg-rose-50 p-2 text-sm text-rose-800" data-testid="answer-error">{error}</p>}
        {iv.leaseUntil && !error && <p className="mt-2 text-xs text-slate-500">Held for you, so no one else answers it, until {formatDate(iv.leaseUntil)} UTC (renewed while this page is open).</p>}
      </div>
      <InterventionDetail iv={iv} />
    </div>
  );
}

function QueueSide({ screen }: { screen: InterventionScreen }) {
  const cur = screen.current?.id;
  return (
    <aside className="space-y-6 lg:sticky lg:top-4 lg:self-start">
      <section aria-labelledby="waiting-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="waiting-heading" className="text-sm font-semibold text-slate-900">
          Waiting <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs tabular-nums text-amber-900" data-testid="waiting-count">{screen.waiting.length}</span>
        </h2>
        <p className="mt-1 text-xs text-slate-500">Oldest first. Each is held by one approver at a time.</p>
        {screen.waiting.length === 0 ? (
          <p className="mt-3 text-sm text-slate-500">None.</p>
        ) : (
          <ol className="mt-3 space-y-2 text-sm" data-testid="waiting-list">
            {screen.waiting.map((w) => (
              <li key={w.id} className={`rounded-md border px-2 py-1.5 ${w.id === cur ? "border-indigo-300 bg-indigo-50" : "border-slate-200"}`} aria-current={w.id === cur ? "true" : undefined}>
                <div className="flex items-baseline justify-between gap-2">
                  <code className="truncate font-mono text-xs font-semibold text-slate-900">{w.tool}</code>
                  <span className="text-xs tabular-nums text-slate-600" title="p̄ of the real request">{w.p === null ? "ERROR" : `p̄ ${w.p.toFixed(2)}`}</span>
                </div>
                <div className="truncate text-xs text-slate-600">{w.caseName}{w.runName ? ` · ${w.runName}` : ""}</div>
                {w.heldBy && <div className="text-xs text-amber-800">Being answered by {w.heldBy}</div>}
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="answered-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="answered-heading" className="text-sm font-semibold text-slate-900">Latest answers</h2>
        {screen.answered.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">None yet.</p>
        ) : (
          <ul className="mt-2 space-y-2 text-sm" data-testid="answered-list">
            {screen.answered.map((a) => (
              <li key={a.id} className="border-b border-slate-100 pb-2 last:border-0" data-testid="answered-row" data-status={a.status}>
                <div className="flex items-baseline justify-between gap-2">
                  <code className="truncate font-mono text-xs text-slate-900">{a.tool}</code>
                  <span className={`text-xs font-medium ${a.status === "APPROVED" ? "text-emerald-700" : "text-rose-700"}`}>{a.status === "APPROVED" ? "approved" : "rejected"}</span>
                </div>
                <div className="truncate text-xs text-slate-600">{a.caseName}</div>
                {a.feedback && <p className="mt-0.5 line-clamp-2 text-xs italic text-slate-700">“{a.feedback}”</p>}
                <div className="text-[11px] text-slate-500">{a.simulated ? "simulated user" : (a.answeredBy ?? "unknown")}{a.answeredAt ? ` · ${formatDate(a.answeredAt)}` : ""}</div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </aside>
  );
}

function KeySheet({ onClose }: { onClose: () => void }) {
  return (
    <div role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4" onClick={onClose} data-testid="key-help">
      <div className="w-full max-w-lg rounded-xl bg-white p-5 shadow-xl" onClick={(e) => e.stopPropagation()}>
        <h2 className="text-lg font-semibold">Keyboard shortcuts</h2>
        <p className="mt-1 text-xs text-slate-500">Off while you type in the feedback box, except Ctrl+Enter and Esc.</p>
        <dl className="mt-3 space-y-2 text-sm">
          {KEYS.map(([k, d]) => (
            <div key={k} className="grid grid-cols-[7rem_1fr] gap-2">
              <dt><kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">{k}</kbd></dt>
              <dd className="text-slate-700">{d}</dd>
            </div>
          ))}
        </dl>
        <button type="button" onClick={onClose} className="mt-4 rounded-md border border-slate-300 px-3 py-1.5 text-sm" autoFocus>Close</button>
      </div>
    </div>
  );
}
