"use client";

// Keyboard and toolbar of the adjudication screen: n / p next and previous disagreement, e the
// evaluators' scores, b blind (identities hidden), u the unblinded item (staff), 1–9 start from
// that annotator's label, r the reason, Ctrl+Enter saves, ? the list. Keys are ignored while
// typing (Ctrl+Enter excepted). Toggles are links: the server leaves out what is hidden. The
// item's own keys (c task context, t thoughts, f final message, o observation, [ ] steps) are the
// annotate screen's, handled by the item view (components/annotate/use-item-view.ts); the list
// below shows them too.
import Link from "next/link";
import { useEffect, useState } from "react";
import { useRouter } from "next/navigation";

export interface AdjudicationLinks {
  previous: string | null;
  next: string | null;
  scores: string;
  /** null when the campaign asks for blind adjudication (no way out of it). */
  blind: string | null;
  unblind: string;
}

interface Props {
  links: AdjudicationLinks;
  position: number | null;
  total: number;
  adjudicated: number;
  showScores: boolean;
  blind: boolean;
  unblinded: boolean;
}

const KEYS: [string, string][] = [
  ["n / p", "next / previous disagreement"],
  ["1–9", "start from annotator 1–9's label"],
  ["r", "write the reason"],
  ["Ctrl+Enter", "save the adjudicated label"],
  ["c", "show / hide the task context (underspecifications, expected achievements, risky outcomes)"],
  ["t", "show / hide the agent's thoughts"],
  ["f", "show / hide the final message"],
  ["[ / ]", "previous / next step"],
  ["o", "the focused step's observation in full / short"],
  ["e", "show / hide the evaluators' scores"],
  ["b", "blind: hide / show who labelled"],
  ["u", "show / hide the agent and emulator (staff view)"],
  ["?", "this list"],
];

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !["radio", "checkbox", "button"].includes((t as HTMLInputElement).type)) || t.tagName === "SELECT");

export function AdjudicationKeys({ links, position, total, adjudicated, showScores, blind, unblinded }: Props) {
  const router = useRouter();
  const [help, setHelp] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const form = () => document.querySelector<HTMLFormElement>('[data-testid="adjudication-form"]');
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        const f = form();
        if (f) {
          e.preventDefault();
          f.requestSubmit();
        }
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const go = (href: string | null, none: string) => {
        e.preventDefault();
        if (href) router.push(href);
        else setNotice(none);
      };
      if (e.key === "n") go(links.next, "No further disagreement.");
      else if (e.key === "p") go(links.previous, "This is the first disagreement.");
      else if (e.key === "e") go(links.scores, "");
      else if (e.key === "b") go(links.blind, "This campaign asks for blind adjudication.");
      else if (e.key === "u") go(links.unblind, "");
      else if (e.key === "r") {
        e.preventDefault();
        document.querySelector<HTMLTextAreaElement>('[data-testid="adjudicate-reason"]')?.focus();
      } else if (e.key === "?") {
        e.preventDefault();
        setHelp((h) => !h);
      } else if (e.key === "Escape") setHelp(false);
      else if (/^[1-9]$/.test(e.key)) {
        const buttons = document.querySelectorAll<HTMLButtonElement>('[aria-label="Start from a submitted label"] button');
        const b = buttons[Number(e.key) - 1];
        // The last button is "Clear", not a label.
        if (b && Number(e.key) < buttons.length) {
          e.preventDefault();
          b.click();
          setNotice(`Started from ${b.textContent}'s label.`);
        }
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [links, router]);

  const base = "inline-flex items-center gap-1.5 rounded-md border px-2.5 py-1 text-sm font-medium aria-disabled:pointer-events-none aria-disabled:opacity-40";
  const btn = `${base} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`;
  // A pressed toggle: its own colours, not added on top of btn's (Tailwind's order, not the class order, decides).
  const pressed = (p: boolean) => (p ? `${base} border-indigo-600 bg-indigo-50 text-indigo-800 hover:bg-indigo-100` : btn);
  const kbd = (k: string) => <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono text-[11px] text-slate-600">{k}</kbd>;
  return (
    <div className="sticky top-0 z-20 -mx-1 mb-4 rounded-xl border border-slate-200 bg-white/95 px-3 py-2 shadow-sm backdrop-blur" data-testid="adjudication-toolbar">
      <div className="flex flex-wrap items-center gap-2">
        <span className="mr-1 text-sm text-slate-700" data-testid="disagreement-position">
          {position ? <>Disagreement <strong className="tabular-nums">{position}</strong> of {total}</> : total ? <>Not a disagreement · {total} in this campaign</> : "No disagreements in this campaign"}
          <span className="ml-1 text-xs text-slate-500">({adjudicated} adjudicated)</span>
        </span>
        <Link href={links.previous ?? "#"} aria-disabled={!links.previous} className={btn} data-testid="previous-disagreement">← Previous {kbd("p")}</Link>
        <Link href={links.next ?? "#"} aria-disabled={!links.next} className={btn} data-testid="next-disagreement">Next disagreement {kbd("n")}</Link>
        <span className="mx-1 h-5 w-px bg-slate-200" aria-hidden="true" />
        <Link href={links.scores} className={pressed(showScores)} aria-pressed={showScores} role="button" data-testid="toggle-scores">Evaluator scores {kbd("e")}</Link>
        {links.blind ? (
          <Link href={links.blind} className={pressed(blind)} aria-pressed={blind} role="button" data-testid="toggle-blind">Blind {kbd("b")}</Link>
        ) : (
          <span className={pressed(true)} title="This campaign asks for blind adjudication" data-testid="toggle-blind">Blind (campaign setting)</span>
        )}
        <Link href={links.unblind} className={pressed(unblinded)} aria-pressed={unblinded} role="button" data-testid="toggle-unblind">Agent &amp; emulator {kbd("u")}</Link>
        <button type="button" onClick={() => setHelp((h) => !h)} className={btn} aria-expanded={help} data-testid="adjudication-keys-button">Keys {kbd("?")}</button>
      </div>
      <p role="status" aria-live="polite" className="text-xs text-slate-600 empty:hidden" data-testid="adjudication-notice">{notice}</p>
      {help && (
        <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2" data-testid="adjudication-keys">
          {KEYS.map(([k, what]) => (
            <div key={k} className="flex gap-2"><dt className="w-24 shrink-0">{kbd(k)}</dt><dd className="text-slate-700">{what}</dd></div>
          ))}
        </dl>
      )}
    </div>
  );
}
