// The status and submit bar of the label form, sticky at the bottom of the form so it stays in
// view at 1366×768 and 1440×900 (issue 18 item 2): what is still to answer, the autosave state,
// the error, submit, skip and the guidelines link.
import type { SaveState } from "./draft";

export function SaveStateLine({ save }: { save: SaveState }) {
  const text =
    save.state === "saving" ? "Saving…" : save.state === "saved" ? `Draft saved ${save.at}` : save.state === "offline" ? "Not saved to the server — kept in this browser" : "Autosave on";
  return <p className={`text-xs ${save.state === "offline" ? "text-amber-700" : "text-slate-500"}`} aria-live="polite" data-testid="save-state">{text}</p>;
}

interface Props {
  error: string | null;
  /** Labels of the required fields still unanswered. */
  missing: string[];
  save: SaveState;
  readOnly: boolean;
  submitting: boolean;
  status: string;
  onSkip: () => void;
  onGuidelines: () => void;
}

export function SubmitBar({ error, missing, save, readOnly, submitting, status, onSkip, onGuidelines }: Props) {
  return (
    <div className="sticky bottom-0 z-10 -mx-4 -mb-4 space-y-2 rounded-b-xl border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur" data-testid="submit-bar">
      {!readOnly && (
        <p className={`text-xs ${missing.length ? "text-slate-700" : "text-emerald-700"}`} data-testid="form-status">
          {missing.length ? <>Still to answer ({missing.length}): {missing.join(", ")}</> : <>All answered — Enter submits</>}
        </p>
      )}
      {error && <p role="alert" className="rounded-md bg-rose-50 px-2 py-1.5 text-sm text-rose-700">{error}</p>}
      <div className="flex items-center gap-2">
        <button type="submit" disabled={readOnly || submitting} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
          {submitting ? "Submitting…" : status === "SUBMITTED" ? "Save revision ⏎" : "Submit & next ⏎"}
        </button>
        {status === "CLAIMED" && !readOnly && (
          <button type="button" onClick={onSkip} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">Skip… <kbd aria-hidden="true" className="font-mono text-[10px] text-slate-500">s</kbd></button>
        )}
        <button type="button" onClick={onGuidelines} className="ml-auto text-xs text-indigo-700 underline">Guidelines <kbd aria-hidden="true" className="font-mono text-[10px] text-slate-500">g</kbd></button>
      </div>
      <SaveStateLine save={save} />
    </div>
  );
}
