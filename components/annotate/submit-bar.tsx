// The status and submit bar of the label form: the autosave state, the error, submit, skip and
// the guidelines link.
import type { SaveState } from "./draft";

export function SaveStateLine({ save }: { save: SaveState }) {
  const text =
    save.state === "saving" ? "Saving…" : save.state === "saved" ? `Draft saved ${save.at}` : save.state === "offline" ? "Not saved to the server — kept in this browser" : "Autosave on";
  return <p className={`-mt-2 text-xs ${save.state === "offline" ? "text-amber-700" : "text-slate-500"}`} aria-live="polite" data-testid="save-state">{text}</p>;
}

interface Props {
  error: string | null;
  readOnly: boolean;
  submitting: boolean;
  status: string;
  onSkip: () => void;
  onGuidelines: () => void;
}

export function SubmitBar({ error, readOnly, submitting, status, onSkip, onGuidelines }: Props) {
  return (
    <>
      {error && <p role="alert" className="rounded-md bg-rose-50 px-2 py-1.5 text-sm text-rose-700">{error}</p>}
      <div className="flex items-center gap-2">
        <button type="submit" disabled={readOnly || submitting} className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
          {submitting ? "Submitting…" : status === "SUBMITTED" ? "Save revision ⏎" : "Submit & next ⏎"}
        </button>
        {status === "CLAIMED" && !readOnly && (
          <button type="button" onClick={onSkip} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm">Skip…</button>
        )}
        <button type="button" onClick={onGuidelines} className="ml-auto text-xs text-indigo-700 underline">Guidelines</button>
      </div>
    </>
  );
}
